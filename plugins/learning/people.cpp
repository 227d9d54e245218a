#include "learning/people.h"

#include <algorithm>
#include <cctype>

#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

const json kBody = json::array({"body"});

bool given(const json& body, const char* field) {
    return body.contains(field) && !body[field].is_null();
}

}  // namespace

plugin::Result<Member> memberFromCreate(const json& body) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    if (!body.contains("email")) problems.add({"body", "email"}, "Field required", "missing");
    checkString(body, "email", 3, 320, false, kBody, problems);
    Member m;
    if (body.contains("persona")) {
        const auto& p = body["persona"];
        const auto persona = p.is_string() ? parsePersona(p.get<std::string>()) : std::nullopt;
        if (!persona) {
            problems.add({"body", "persona"},
                         "Input should be 'admin', 'teacher', 'student' or 'advisor'", "enum");
        } else {
            m.persona = *persona;
        }
    }
    if (!problems.empty()) return problems.error();
    m.email = lowered(trim(body["email"].get<std::string>()));
    return m;
}

plugin::Result<std::vector<Member>> enroll(std::vector<Member> members, Member request,
                                           const std::optional<std::string>& user_id,
                                           bool workspace_member, const std::string& creator_id) {
    if (!user_id) return plugin::Error{"user_not_found", "no user has this e-mail address", 404};
    if (!workspace_member) {
        return plugin::Error::badRequest("not_a_workspace_member",
                                         "the user is not a member of the course's workspace");
    }
    if (*user_id == creator_id && request.persona != Persona::kTeacher) {
        return plugin::Error::conflict("creator_stays_teacher",
                                       "the course's creator stays its teacher");
    }
    request.user_id = *user_id;
    const auto it = std::find_if(members.begin(), members.end(),
                                 [&](const Member& m) { return m.user_id == *user_id; });
    if (it != members.end()) {
        it->persona = request.persona;
        it->email = request.email;
    } else {
        members.push_back(std::move(request));
    }
    return members;
}

plugin::Result<PersonQuestion> questionFromCreate(const json& body, const std::string& asker_id,
                                                  const std::vector<Member>& members) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    if (!body.contains("question")) problems.add({"body", "question"}, "Field required", "missing");
    checkString(body, "question", 1, 8000, false, kBody, problems);
    PersonQuestion q;
    if (body.contains("target_role")) {
        const auto& r = body["target_role"];
        const auto role = r.is_string() ? parsePersona(r.get<std::string>()) : std::nullopt;
        if (role != Persona::kTeacher && role != Persona::kAdvisor) {
            problems.add({"body", "target_role"}, "Input should be 'teacher' or 'advisor'", "enum");
        } else {
            q.target_role = *role;
        }
    }
    if (body.contains("context") && !body["context"].is_object()) {
        problems.add({"body", "context"}, "Input should be a valid dictionary", "dict_type");
    }
    if (!problems.empty()) return problems.error();
    q.asker_id = asker_id;
    q.question = body["question"].get<std::string>();
    if (body.contains("context")) q.context = body["context"];
    const auto to = std::find_if(members.begin(), members.end(),
                                 [&](const Member& m) { return m.persona == q.target_role; });
    if (to != members.end()) q.assigned_to = to->user_id;
    return q;
}

Operation questionUpdateOperation(const json& body) {
    if (!body.is_object()) return Operation::kAnswerQuestion;  // refused as 422 later
    const bool answers = given(body, "answer") || given(body, "assigned_to");
    const json status = body.value("status", json());
    if (answers || (status.is_string() && status != "closed")) return Operation::kAnswerQuestion;
    if (status == "closed") return Operation::kCloseQuestion;
    return Operation::kReadQuestion;
}

plugin::Result<PersonQuestion> applyQuestionUpdate(const PersonQuestion& current, const json& body,
                                                   const std::string& caller_id,
                                                   const std::vector<Member>& members) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    checkString(body, "answer", 1, 8000, true, kBody, problems);
    checkString(body, "assigned_to", 1, 200, true, kBody, problems);
    std::optional<QuestionStatus> status;
    if (given(body, "status")) {
        const auto& s = body["status"];
        status = s.is_string() ? parseQuestionStatus(s.get<std::string>()) : std::nullopt;
        if (!status) {
            problems.add({"body", "status"}, "Input should be 'open', 'answered' or 'closed'",
                         "enum");
        }
    }
    if (!problems.empty()) return problems.error();

    PersonQuestion q = current;
    const bool reopens = status && *status != QuestionStatus::kClosed;
    const bool changes = given(body, "answer") || given(body, "assigned_to");
    if (current.status == QuestionStatus::kClosed && changes && !reopens) {
        return plugin::Error::conflict("question_closed", "the question is closed");
    }
    if (given(body, "assigned_to")) {
        const std::string to = body["assigned_to"].get<std::string>();
        const auto m = std::find_if(members.begin(), members.end(),
                                    [&](const Member& x) { return x.user_id == to; });
        if (m == members.end() || m->persona == Persona::kStudent) {
            return validationError({"body", "assigned_to"},
                                   "Assign to a teacher, advisor or admin of this course",
                                   "not_a_reviewer");
        }
        q.assigned_to = to;
    }
    if (given(body, "answer")) {
        q.answer = body["answer"].get<std::string>();
        q.answered_by = caller_id;
        q.status = QuestionStatus::kAnswered;
    }
    if (status) {
        if (*status == QuestionStatus::kAnswered && q.answer.empty()) {
            return validationError({"body", "status"}, "An answered question needs an answer",
                                   "answer_missing");
        }
        q.status = *status;
    }
    return q;
}

json memberJson(const Member& m) {
    return {{"user_id", m.user_id}, {"email", m.email}, {"persona", toString(m.persona)}};
}

json questionJson(const PersonQuestion& q) {
    const auto nullable = [](const std::string& s) { return s.empty() ? json() : json(s); };
    return {{"id", q.id},
            {"asker_id", q.asker_id},
            {"target_role", toString(q.target_role)},
            {"question", q.question},
            {"context", q.context},
            {"assigned_to", nullable(q.assigned_to)},
            {"answer", nullable(q.answer)},
            {"answered_by", nullable(q.answered_by)},
            {"status", toString(q.status)}};
}

}  // namespace docintel::learning
