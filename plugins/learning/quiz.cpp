#include "learning/quiz.h"

#include <algorithm>
#include <cmath>

#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

const char* const kOptionIds[] = {"A", "B", "C", "D"};

json locOf(std::initializer_list<json> tail) {
    json loc = {"body", "content"};
    for (const auto& t : tail) loc.push_back(t);
    return loc;
}

std::string stringField(const json& obj, const char* field) {
    const auto it = obj.find(field);
    return it != obj.end() && it->is_string() ? trim(it->get<std::string>()) : std::string();
}

void parseOptions(const json& q, std::size_t qi, QuizQuestion& out, Problems& problems) {
    const auto it = q.find("options");
    if (it == q.end() || !it->is_array() || it->size() != 4) {
        problems.add(locOf({"questions", qi, "options"}), "A question has exactly 4 options, A-D",
                     "options");
        return;
    }
    for (std::size_t oi = 0; oi < 4; ++oi) {
        const json& o = (*it)[oi];
        if (!o.is_object() || o.value("id", json()) != kOptionIds[oi]) {
            problems.add(
                locOf({"questions", qi, "options", oi, "id"}),
                std::string("Option ") + std::to_string(oi + 1) + " must have id " + kOptionIds[oi],
                "option_id");
            continue;
        }
        QuizOption option{kOptionIds[oi], stringField(o, "text"), false};
        if (option.text.empty()) {
            problems.add(locOf({"questions", qi, "options", oi, "text"}), "An option needs a text",
                         "missing");
        }
        if (!o.contains("correct") || !o["correct"].is_boolean()) {
            problems.add(locOf({"questions", qi, "options", oi, "correct"}),
                         "Input should be a valid boolean", "bool_type");
        } else {
            option.correct = o["correct"].get<bool>();
        }
        out.options.push_back(std::move(option));
    }
    if (out.options.size() == 4 &&
        std::none_of(out.options.begin(), out.options.end(), [](auto& o) { return o.correct; })) {
        problems.add(locOf({"questions", qi, "options"}), "At least one option must be correct",
                     "no_correct_option");
    }
}

}  // namespace

std::set<std::string> QuizQuestion::correctIds() const {
    std::set<std::string> ids;
    for (const auto& o : options) {
        if (o.correct) ids.insert(o.id);
    }
    return ids;
}

const QuizQuestion* Quiz::find(const std::string& question_id) const {
    for (const auto& q : questions) {
        if (q.id == question_id) return &q;
    }
    return nullptr;
}

plugin::Result<Quiz> parseQuizText(const std::string& content) {
    const json parsed = json::parse(content, nullptr, false);
    if (parsed.is_discarded()) {
        return validationError({"body", "content"}, "A practice_questions artifact is JSON",
                               "json_invalid");
    }
    return parseQuiz(parsed);
}

plugin::Result<Quiz> parseQuiz(const json& content) {
    if (!content.is_object()) {
        return validationError({"body", "content"}, "A quiz is a JSON object", "dict_type");
    }
    Problems problems;
    if (content.value("schema_version", json()) != kQuizSchemaVersion) {
        problems.add(locOf({"schema_version"}), "schema_version must be 1", "schema_version");
    }
    Quiz quiz;
    if (content.contains("instructions") && !content["instructions"].is_string()) {
        problems.add(locOf({"instructions"}), "Input should be a valid string", "string_type");
    }
    quiz.instructions = stringField(content, "instructions");
    const auto qs = content.find("questions");
    if (qs == content.end() || !qs->is_array() || qs->empty() || qs->size() > kMaxQuizQuestions) {
        problems.add(locOf({"questions"}), "A quiz has 1 to 20 questions", "questions");
        return problems.error();
    }
    std::set<std::string> ids;
    for (std::size_t qi = 0; qi < qs->size(); ++qi) {
        const json& q = (*qs)[qi];
        if (!q.is_object()) {
            problems.add(locOf({"questions", qi}), "Input should be a valid dictionary",
                         "dict_type");
            continue;
        }
        QuizQuestion question;
        question.id = stringField(q, "id");
        question.question = stringField(q, "question");
        question.explanation = stringField(q, "explanation");
        if (question.id.empty()) {
            problems.add(locOf({"questions", qi, "id"}), "A question needs an id", "missing");
        } else if (!ids.insert(question.id).second) {
            problems.add(locOf({"questions", qi, "id"}), "Question ids are unique", "duplicate_id");
        }
        if (question.question.empty()) {
            problems.add(locOf({"questions", qi, "question"}), "A question needs its text",
                         "missing");
        }
        if (question.explanation.empty()) {
            problems.add(locOf({"questions", qi, "explanation"}), "A question needs an explanation",
                         "missing");
        }
        parseOptions(q, qi, question, problems);
        if (q.contains("citations") && q["citations"].is_array()) {
            question.citations = q["citations"];
        }
        quiz.questions.push_back(std::move(question));
    }
    if (!problems.empty()) return problems.error();
    return quiz;
}

json quizJson(const Quiz& quiz) {
    json questions = json::array();
    for (const auto& q : quiz.questions) {
        json options = json::array();
        for (const auto& o : q.options) {
            options.push_back({{"id", o.id}, {"text", o.text}, {"correct", o.correct}});
        }
        questions.push_back({{"id", q.id},
                             {"question", q.question},
                             {"options", options},
                             {"explanation", q.explanation},
                             {"citations", q.citations}});
    }
    return {{"schema_version", kQuizSchemaVersion},
            {"instructions", quiz.instructions},
            {"questions", questions}};
}

plugin::Result<Answers> applyAttempt(const Quiz& quiz, const Answers& previous, const json& body) {
    if (!body.is_object()) return validationError({"body"}, "Input should be a valid dictionary");
    const json answers = body.value("answers", json::object());
    if (!answers.is_object()) {
        return validationError({"body", "answers"}, "Input should be a valid dictionary",
                               "dict_type");
    }
    const json replace = body.value("replace", json(false));
    if (!replace.is_boolean()) {
        return validationError({"body", "replace"}, "Input should be a valid boolean", "bool_type");
    }
    Problems problems;
    Answers out = replace.get<bool>() ? Answers{} : previous;
    for (const auto& [qid, selected] : answers.items()) {
        const QuizQuestion* q = quiz.find(qid);
        if (!q) {
            problems.add({"body", "answers", qid}, "Unknown question id", "unknown_question");
            continue;
        }
        if (!selected.is_array()) {
            problems.add({"body", "answers", qid}, "Input should be a valid list", "list_type");
            continue;
        }
        std::set<std::string> chosen;
        for (std::size_t i = 0; i < selected.size(); ++i) {
            const json& s = selected[i];
            const bool known = s.is_string() && std::any_of(q->options.begin(), q->options.end(),
                                                            [&](const QuizOption& o) {
                                                                return o.id == s.get<std::string>();
                                                            });
            if (!known) {
                problems.add({"body", "answers", qid, i}, "Unknown option id", "unknown_option");
                continue;
            }
            chosen.insert(s.get<std::string>());
        }
        out[qid] = std::move(chosen);
    }
    if (!problems.empty()) return problems.error();
    return out;
}

QuizResult grade(const Quiz& quiz, const Answers& answers) {
    QuizResult r;
    r.question_count = static_cast<int>(quiz.questions.size());
    int answered = 0;
    for (const auto& q : quiz.questions) {
        QuestionResult qr;
        const auto it = answers.find(q.id);
        if (it != answers.end()) qr.selected = it->second;
        qr.correct = q.correctIds();
        qr.is_correct = !qr.selected.empty() && qr.selected == qr.correct;
        qr.explanation = q.explanation;
        answered += qr.selected.empty() ? 0 : 1;
        r.correct_count += qr.is_correct ? 1 : 0;
        r.questions[q.id] = std::move(qr);
    }
    r.completed = r.question_count > 0 && answered == r.question_count;
    r.score = r.question_count
                  ? static_cast<int>(std::lround(100.0 * r.correct_count / r.question_count))
                  : 0;
    return r;
}

json resultJson(const QuizResult& r) {
    json questions = json::object();
    for (const auto& [id, q] : r.questions) {
        questions[id] = {{"selected", q.selected},
                         {"correct", q.correct},
                         {"is_correct", q.is_correct},
                         {"explanation", q.explanation}};
    }
    return {{"questions", questions},
            {"correct_count", r.correct_count},
            {"question_count", r.question_count},
            {"completed", r.completed},
            {"score", r.score}};
}

LessonProgress advanceProgress(const LessonProgress& current, const QuizResult& result,
                               int passing_score) {
    LessonProgress next;
    const bool passed = result.completed && result.score >= passing_score;
    next.status = passed ? ProgressStatus::kCompleted : ProgressStatus::kInProgress;
    next.percent = passed ? 100 : 50;
    next.best_score = result.score;
    // Never back: a completed lesson stays completed whatever a later attempt scores.
    if (static_cast<int>(current.status) > static_cast<int>(next.status)) {
        next.status = current.status;
    }
    next.percent = std::max(next.percent, current.percent);
    next.best_score = std::max(next.best_score, current.best_score);
    return next;
}

}  // namespace docintel::learning
