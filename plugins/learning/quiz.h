#pragma once

// Practice-question artifacts as quizzes, attempts on them and the lesson progress they move
// (docs/learning.md "Quizzes and progress"). Pure; thread-safe.

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/learning_enums.h"
#include "plugin_api/result.h"

namespace docintel::learning {

constexpr int kQuizSchemaVersion = 1;
constexpr std::size_t kMaxQuizQuestions = 20;

struct QuizOption {
    std::string id;  ///< "A".."D"
    std::string text;
    bool correct = false;
};

struct QuizQuestion {
    std::string id;
    std::string question;
    std::vector<QuizOption> options;  ///< exactly A, B, C, D in that order
    std::string explanation;
    /// Where the question comes from ([{document_id, page, chunk_id, quote}]); kept as given.
    nlohmann::json citations = nlohmann::json::array();

    std::set<std::string> correctIds() const;
};

struct Quiz {
    std::string instructions;
    std::vector<QuizQuestion> questions;

    const QuizQuestion* find(const std::string& question_id) const;
};

/// A practice_questions artifact's `content` (JSON text, or already parsed) as a quiz:
/// schema_version 1, optional `instructions`, 1..20 questions, each with a unique non-empty
/// `id`, a `question`, options A–D ({id, text, correct}), at least one correct, and an
/// `explanation`. Otherwise `validation_error` 422, located under body.content.
plugin::Result<Quiz> parseQuiz(const nlohmann::json& content);
plugin::Result<Quiz> parseQuizText(const std::string& content);
nlohmann::json quizJson(const Quiz& quiz);

/// The options a learner selected, by question id (an empty set: not answered).
using Answers = std::map<std::string, std::set<std::string>>;

/// A QuizAttemptCreate body applied to the `previous` answers: each question sent replaces its
/// selection, the others stay, unless `replace` (then only what is sent counts). A question or
/// option id the quiz does not have is 422.
plugin::Result<Answers> applyAttempt(const Quiz& quiz, const Answers& previous,
                                     const nlohmann::json& body);

struct QuestionResult {
    std::set<std::string> selected;
    std::set<std::string> correct;
    bool is_correct = false;  ///< the selected set equals the correct set
    std::string explanation;
};

struct QuizResult {
    std::map<std::string, QuestionResult> questions;
    int correct_count = 0;
    int question_count = 0;
    bool completed = false;  ///< every question has a selection
    int score = 0;           ///< round(100 · correct_count / question_count)
};

QuizResult grade(const Quiz& quiz, const Answers& answers);
nlohmann::json resultJson(const QuizResult& result);

/// A learner's progress in one lesson.
struct LessonProgress {
    ProgressStatus status = ProgressStatus::kNotStarted;
    int percent = 0;     ///< 0 not started, 50 in progress, 100 completed
    int best_score = 0;  ///< the best quiz score seen
};

/// Progress after an attempt: completed when the quiz is complete and its score reaches
/// `passing_score`, else in progress. Progress never goes back: status, percent and best score
/// only rise.
LessonProgress advanceProgress(const LessonProgress& current, const QuizResult& result,
                               int passing_score);

}  // namespace docintel::learning
