#include "learning/course.h"

#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

const json kBody = json::array({"body"});

/// The limits CourseCreate and CourseUpdate share.
void checkCourseFields(const json& body, bool nullable, Problems& problems) {
    checkString(body, "title", 1, 180, nullable, kBody, problems);
    checkString(body, "course_code", 0, 60, nullable, kBody, problems);
    checkString(body, "semester", 0, 80, nullable, kBody, problems);
    checkString(body, "description", 0, 4000, nullable, kBody, problems);
    checkString(body, "instructor_name", 0, 180, nullable, kBody, problems);
    checkStrings(body, "objectives", nullable, kBody, problems);
    if (body.contains("domain") && !body["domain"].is_null()) {
        if (!body["domain"].is_string() || !findDomainPack(body["domain"].get<std::string>())) {
            problems.add({"body", "domain"}, "Input should be one of the domain packs", "enum");
        }
    }
    if (body.contains("publication_status") && !body["publication_status"].is_null()) {
        const auto& p = body["publication_status"];
        if (!p.is_string() || !parsePublicationStatus(p.get<std::string>())) {
            problems.add({"body", "publication_status"}, "Input should be 'draft' or 'published'",
                         "enum");
        }
    }
    if (body.contains("domain_config") && !body["domain_config"].is_null()) {
        const auto& c = body["domain_config"];
        if (!c.is_object()) {
            problems.add({"body", "domain_config"}, "Input should be a valid dictionary",
                         "dict_type");
        } else if (c.contains("passing_score")) {
            const auto& s = c["passing_score"];
            if (!s.is_number_integer() || s.get<long long>() < 0 || s.get<long long>() > 100) {
                problems.add({"body", "domain_config", "passing_score"},
                             "Input should be an integer from 0 to 100", "value_error");
            }
        }
    }
}

/// Copies the fields `body` sets (not null) into `c`; `body` is already checked.
void assign(Course& c, const json& body) {
    const auto str = [&](const char* field, std::string& into) {
        if (body.contains(field) && body[field].is_string()) into = body[field].get<std::string>();
    };
    str("title", c.title);
    str("course_code", c.course_code);
    str("semester", c.semester);
    str("description", c.description);
    str("instructor_name", c.instructor_name);
    str("domain", c.domain);
    if (body.contains("objectives") && body["objectives"].is_array()) {
        c.objectives = body["objectives"].get<std::vector<std::string>>();
    }
    if (body.contains("domain_config") && body["domain_config"].is_object()) {
        for (const auto& [k, v] : body["domain_config"].items()) c.domain_config[k] = v;
    }
    if (!c.domain_config.contains("passing_score")) {
        c.domain_config["passing_score"] = kDefaultPassingScore;
    }
    if (body.contains("publication_status") && body["publication_status"].is_string()) {
        c.publication_status =
            *parsePublicationStatus(body["publication_status"].get<std::string>());
    }
    if (body.contains("status") && body["status"].is_string()) {
        c.status = *parseCourseStatus(body["status"].get<std::string>());
    }
}

}  // namespace

const std::vector<DomainPack>& domainPacks() {
    static const std::vector<DomainPack> packs = {
        {"general", "General", "teacher", "clear explanations grounded in the course materials"},
        {"healthcare", "Healthcare", "clinical educator",
         "clinical accuracy, patient safety and protocol steps"},
        {"financial_services", "Financial services", "compliance officer",
         "regulations, risk and worked calculations"},
        {"manufacturing", "Manufacturing", "process engineer",
         "procedures, quality checks and safety"},
        {"construction", "Construction", "site safety manager",
         "codes, site safety and work sequencing"},
        {"sports", "Sports", "coach", "technique, rules and training plans"},
        {"legal_compliance", "Legal and compliance", "compliance counsel",
         "obligations, clauses and their exceptions"},
        {"enterprise_training", "Enterprise training", "training manager",
         "company policies, tools and workflows"},
        {"customer_education", "Customer education", "customer success lead",
         "product use, set-up and troubleshooting"},
        {"government", "Government", "program officer", "policy, eligibility and procedure"},
        {"cultural_arts", "Cultural arts", "curator", "context, works and interpretation"},
    };
    return packs;
}

const DomainPack* findDomainPack(std::string_view id) {
    for (const auto& p : domainPacks()) {
        if (p.id == id) return &p;
    }
    return nullptr;
}

int Course::passingScore() const {
    const auto it = domain_config.find("passing_score");
    if (it == domain_config.end() || !it->is_number_integer()) return kDefaultPassingScore;
    return it->get<int>();
}

plugin::Result<Course> courseFromCreate(const json& body) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    if (!body.contains("title")) problems.add({"body", "title"}, "Field required", "missing");
    if (!body.contains("workspace_id")) {
        problems.add({"body", "workspace_id"}, "Field required", "missing");
    }
    checkString(body, "workspace_id", 1, 200, false, kBody, problems);
    checkCourseFields(body, false, problems);
    if (!problems.empty()) return problems.error();
    Course c;
    c.workspace_id = body["workspace_id"].get<std::string>();
    assign(c, body);
    return c;
}

plugin::Result<Course> applyCourseUpdate(const Course& current, const json& body) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    checkCourseFields(body, true, problems);
    if (body.contains("status") && !body["status"].is_null()) {
        const auto& s = body["status"];
        if (!s.is_string() || !parseCourseStatus(s.get<std::string>())) {
            problems.add({"body", "status"}, "Input should be 'active' or 'archived'", "enum");
        }
    }
    if (!problems.empty()) return problems.error();
    Course c = current;
    assign(c, body);
    return c;
}

json courseJson(const Course& c) {
    const DomainPack* pack = findDomainPack(c.domain);
    if (!pack) pack = &domainPacks().front();
    return {{"id", c.id},
            {"workspace_id", c.workspace_id},
            {"created_by", c.created_by},
            {"title", c.title},
            {"course_code", c.course_code},
            {"semester", c.semester},
            {"description", c.description},
            {"instructor_name", c.instructor_name},
            {"objectives", c.objectives},
            {"domain", pack->id},
            {"domain_pack",
             {{"label", pack->label},
              {"reviewer_persona", pack->reviewer_persona},
              {"tutor_focus", pack->tutor_focus}}},
            {"domain_config", c.domain_config},
            {"passing_score", c.passingScore()},
            {"publication_status", toString(c.publication_status)},
            {"status", toString(c.status)}};
}

}  // namespace docintel::learning
