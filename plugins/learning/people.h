#pragma once

// Course members and the questions learners put to them (docs/learning.md "Members and
// questions"). Who may call what is learning_access's; these are the rules of the bodies.
// Pure; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/learning_access.h"
#include "learning/learning_enums.h"
#include "plugin_api/result.h"

namespace docintel::learning {

struct Member {
    std::string user_id;
    std::string email;
    Persona persona = Persona::kStudent;
};

/// A MemberCreate body: `email` (3..320 characters, trimmed and lower-cased), `persona`
/// (default student). 422 otherwise.
plugin::Result<Member> memberFromCreate(const nlohmann::json& body);

/// Enrols `request` as user `user_id` (none: no such user, 404 `user_not_found`) who must be a
/// member of the course's workspace (400 `not_a_workspace_member`). Enrolling someone already
/// enrolled changes their persona (upsert), except the course's creator (`creator_id`), who
/// stays its teacher (409 `creator_stays_teacher` for another persona); the returned list
/// keeps enrolment order.
plugin::Result<std::vector<Member>> enroll(std::vector<Member> members, Member request,
                                           const std::optional<std::string>& user_id,
                                           bool workspace_member, const std::string& creator_id);

struct PersonQuestion {
    std::string id;
    std::string asker_id;
    Persona target_role = Persona::kTeacher;  ///< teacher or advisor
    std::string question;
    nlohmann::json context = nlohmann::json::object();
    std::string assigned_to;  ///< user id; empty when the course has no one of that persona
    std::string answer;
    std::string answered_by;
    QuestionStatus status = QuestionStatus::kOpen;
};

/// A QuestionCreate body from `asker_id`: `target_role` teacher (default) or advisor,
/// `question` 1..8000 characters, `context` an object. Assigned to the first member (in
/// enrolment order) with that persona.
plugin::Result<PersonQuestion> questionFromCreate(const nlohmann::json& body,
                                                  const std::string& asker_id,
                                                  const std::vector<Member>& members);

/// Which access rule a QuestionUpdate body needs: kCloseQuestion when it only closes (status
/// `closed`, nothing else), kReadQuestion when it changes nothing, else kAnswerQuestion.
Operation questionUpdateOperation(const nlohmann::json& body);

/// A QuestionUpdate body applied by `caller_id` (already authorised for
/// questionUpdateOperation(body)): `answer` (1..8000) records the answer and who gave it and
/// makes it `answered` unless `status` says otherwise; `assigned_to` must be a course member who
/// is an admin, teacher or advisor (422); `status` answered needs an answer (422). A closed
/// question takes no answer or reassignment unless the same body reopens it (409
/// `question_closed`).
plugin::Result<PersonQuestion> applyQuestionUpdate(const PersonQuestion& current,
                                                   const nlohmann::json& body,
                                                   const std::string& caller_id,
                                                   const std::vector<Member>& members);

nlohmann::json memberJson(const Member& member);
nlohmann::json questionJson(const PersonQuestion& question);

}  // namespace docintel::learning
