#pragma once

// What `GET .../progress` (and the progress resource) shows: attempts, lesson progress and a
// mastery summary, filtered by the caller's visibility (docs/learning.md "Progress view").
// Pure; thread-safe.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/curriculum.h"
#include "learning/learning_access.h"
#include "learning/people.h"
#include "learning/quiz.h"

namespace docintel::learning {

/// A stored attempt: whose, on which quiz (and its lesson, when the quiz belongs to one).
struct AttemptRecord {
    std::string id;
    std::string user_id;
    std::string artifact_id;
    std::string artifact_title;
    std::string lesson_id;
    int score = 0;
    int correct_count = 0;
    int question_count = 0;
    bool completed = false;
    std::string submitted_at;
};

struct LessonProgressRecord {
    std::string user_id;
    std::string lesson_id;
    LessonProgress progress;
};

/// The progress body: `attempts` (each with the learner's email and the quiz's title),
/// `lesson_progress` and `mastery` — one row a learner (enrolled students, plus the caller when
/// they have progress of their own) with lessons_total (the curriculum's), lessons_completed,
/// lessons_in_progress, average_score (of their completed attempts; null without one) and
/// mastery_percent (completed / total). `visibility` kEveryone shows everyone, kOwn the
/// caller's rows only, kNone nothing. Rows of lessons no longer in the curriculum are left out.
nlohmann::json progressView(const std::vector<AttemptRecord>& attempts,
                            const std::vector<LessonProgressRecord>& lessons,
                            const std::vector<Member>& members, const Curriculum& curriculum,
                            Visibility visibility, const std::string& caller_id);

}  // namespace docintel::learning
