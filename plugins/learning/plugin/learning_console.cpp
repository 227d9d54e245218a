// The learning plugin's pages in the reviewer console (Registrar::addConsolePage): the
// workspace's courses, and a course as its teachers see it — curriculum, attached content,
// people, learners' results and their open questions. Read-only; changes stay on the REST
// routes and MCP tools.

#include "learning/plugin/learning_console.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

const char* const kCoursesTemplate = R"(<h1>Courses</h1>
{{#personal}}<p class="lead">Courses belong to team workspaces. Choose one with the workspace switcher.</p>{{/personal}}
{{^personal}}
{{#has_courses}}
<div class="table-wrap">
<table id="courses">
  <thead><tr><th scope="col">Course</th><th scope="col">Code</th><th scope="col">Semester</th><th scope="col">Status</th><th scope="col">Lessons</th><th scope="col">People</th><th scope="col">My role</th></tr></thead>
  <tbody>
  {{#courses}}<tr><td><a href="/console/plugins/learning/courses/{{id}}?workspace={{workspace}}">{{title}}</a></td><td>{{course_code}}</td><td>{{semester}}</td><td><span class="status">{{status}}</span> {{publication_status}}</td><td>{{lesson_count}}</td><td>{{member_count}}</td><td>{{my_persona}}</td></tr>{{/courses}}
  </tbody>
</table>
</div>
{{/has_courses}}
{{^has_courses}}<p class="empty">No course in this workspace yet.</p>{{/has_courses}}
{{/personal}}
)";

const char* const kCourseTemplate =
    R"(<p class="crumbs"><a href="/console/plugins/learning/courses?workspace={{workspace}}">Courses</a></p>
<h1>{{title}}</h1>
<p class="meta">{{course_code}} · {{semester}} · {{instructor_name}} · <span class="status">{{status}}</span> {{publication_status}} · passing score {{passing_score}}%</p>
{{#description}}<p class="lead">{{description}}</p>{{/description}}
<section aria-labelledby="curriculum-title">
  <h2 id="curriculum-title">Curriculum</h2>
  {{#modules}}<h3>{{title}}</h3><ol class="lessons">{{#lessons}}<li>{{title}}{{#description}} <span class="muted">— {{description}}</span>{{/description}}</li>{{/lessons}}</ol>{{/modules}}
  {{^modules}}<p class="muted">No module yet.</p>{{/modules}}
</section>
<section aria-labelledby="content-title">
  <h2 id="content-title">Content</h2>
  {{#has_assets}}<ul id="assets">{{#assets}}<li><a href="/console/documents/{{document_id}}/file">{{title}}</a>{{#where}} <span class="muted">({{where}})</span>{{/where}}</li>{{/assets}}</ul>{{/has_assets}}
  {{^has_assets}}<p class="muted">No document is attached.</p>{{/has_assets}}
</section>
<section aria-labelledby="people-title">
  <h2 id="people-title">People</h2>
  <table id="members"><thead><tr><th scope="col">E-mail</th><th scope="col">Role</th></tr></thead>
  <tbody>{{#members}}<tr><td>{{email}}</td><td>{{persona}}</td></tr>{{/members}}</tbody></table>
</section>
<section aria-labelledby="results-title">
  <h2 id="results-title">Results</h2>
  {{#has_attempts}}
  <table id="attempts"><thead><tr><th scope="col">Learner</th><th scope="col">Quiz</th><th scope="col">Score</th><th scope="col">Correct</th><th scope="col">Submitted</th></tr></thead>
  <tbody>{{#attempts}}<tr class="{{^passed}}low{{/passed}}"><td>{{email}}</td><td>{{artifact_title}}</td><td>{{score}}%</td><td>{{correct_count}} / {{question_count}}</td><td><time datetime="{{submitted_at}}">{{submitted_at}}</time></td></tr>{{/attempts}}</tbody></table>
  {{/has_attempts}}
  {{^has_attempts}}<p class="muted">No quiz was submitted yet.</p>{{/has_attempts}}
</section>
<section aria-labelledby="questions-title">
  <h2 id="questions-title">Questions from learners</h2>
  {{#has_questions}}<ul id="questions">{{#questions}}<li><strong>{{question}}</strong> <span class="status">{{status}}</span>{{#answer}}<br><span class="muted">{{answer}}</span>{{/answer}}</li>{{/questions}}</ul>{{/has_questions}}
  {{^has_questions}}<p class="muted">No question was asked.</p>{{/has_questions}}
</section>
)";

Caller consoleCaller(const plugin::HttpRequest& r) {
    // No header check: the course decides the workspace, as for MCP.
    return {r.principal, std::nullopt, r.trace_id};
}

plugin::Result<json> coursesView(LearningService& service, const plugin::HttpRequest& r) {
    if (r.workspace_id.empty()) return json{{"title", "Courses"}, {"personal", true}};
    auto listed = service.listCourses(consoleCaller(r), r.workspace_id);
    if (!listed) return listed.error();
    json courses = json::array();
    for (auto c : (*listed)["courses"]) {
        std::size_t lessons = 0;
        for (const auto& m : c["curriculum"].value("modules", json::array())) {
            lessons += m.value("lessons", json::array()).size();
        }
        c["lesson_count"] = lessons;
        c["member_count"] = c.value("members", json::array()).size();
        c["workspace"] = r.workspace_id;
        courses.push_back(std::move(c));
    }
    return json{{"title", "Courses"}, {"courses", courses}, {"has_courses", !courses.empty()}};
}

plugin::Result<json> courseView(LearningService& service, const plugin::HttpRequest& r) {
    const Caller caller = consoleCaller(r);
    const std::string id = r.pathParam("course_id");
    auto course = service.getCourse(caller, id);
    if (!course) return course.error();
    json view = *course;
    std::map<std::string, std::string> places;
    for (const auto& m : (*course)["curriculum"].value("modules", json::array())) {
        places[m.value("id", "")] = m.value("title", "");
        for (const auto& l : m.value("lessons", json::array())) {
            places[l.value("id", "")] = m.value("title", "") + " › " + l.value("title", "");
        }
    }
    json assets = json::array();
    for (auto a : (*course)["assets"]) {
        const json& at = a["lesson_id"].is_string() ? a["lesson_id"] : a["module_id"];
        a["where"] = at.is_string() ? places[at.get<std::string>()] : std::string();
        assets.push_back(std::move(a));
    }
    view["modules"] = (*course)["curriculum"].value("modules", json::array());
    view["assets"] = assets;
    view["has_assets"] = !assets.empty();
    json attempts = json::array();
    json questions = json::array();
    // Results need the teacher's or reviewer's view; a learner sees their own only.
    if (auto progress = service.progress(caller, id)) {
        const double passing = (*progress).value("passing_score", 0.0);
        for (auto a : (*progress)["attempts"]) {
            a["passed"] = a.value("score", 0.0) >= passing;
            attempts.push_back(std::move(a));
        }
        questions = (*progress).value("questions", json::array());
    }
    view["attempts"] = attempts;
    view["has_attempts"] = !attempts.empty();
    view["questions"] = questions;
    view["has_questions"] = !questions.empty();
    return view;
}

}  // namespace

void addConsolePages(plugin::Registrar& registrar, LearningService& service) {
    registrar.addConsolePage(
        {"courses",
         "Courses",
         kCoursesTemplate,
         {"learning:read"},
         [&service](const plugin::HttpRequest& r) { return coursesView(service, r); }});
    registrar.addConsolePage(
        {"courses/{course_id}",
         "",
         kCourseTemplate,
         {"learning:read"},
         [&service](const plugin::HttpRequest& r) { return courseView(service, r); }});
}

}  // namespace docintel::learning
