#include "learning/progress.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace docintel::learning {

using nlohmann::json;

json progressView(const std::vector<AttemptRecord>& attempts,
                  const std::vector<LessonProgressRecord>& lessons,
                  const std::vector<Member>& members, const Curriculum& curriculum,
                  Visibility visibility, const std::string& caller_id) {
    const auto shown = [&](const std::string& user_id) {
        return visibility == Visibility::kEveryone ||
               (visibility == Visibility::kOwn && user_id == caller_id);
    };
    std::map<std::string, const Member*> by_id;
    for (const auto& m : members) by_id[m.user_id] = &m;
    std::set<std::string> current_lessons;
    for (const auto& m : curriculum.modules) {
        for (const auto& l : m.lessons) current_lessons.insert(l.id);
    }
    const auto emailOf = [&](const std::string& user_id) {
        const auto it = by_id.find(user_id);
        return it == by_id.end() ? json() : json(it->second->email);
    };

    json out = {{"attempts", json::array()},
                {"lesson_progress", json::array()},
                {"mastery", json::array()}};
    std::map<std::string, std::pair<double, int>> scores;  // user → sum, count (completed)
    for (const auto& a : attempts) {
        if (!shown(a.user_id)) continue;
        out["attempts"].push_back({{"id", a.id},
                                   {"user_id", a.user_id},
                                   {"email", emailOf(a.user_id)},
                                   {"artifact_id", a.artifact_id},
                                   {"artifact_title", a.artifact_title},
                                   {"lesson_id", a.lesson_id.empty() ? json() : json(a.lesson_id)},
                                   {"score", a.score},
                                   {"correct_count", a.correct_count},
                                   {"question_count", a.question_count},
                                   {"completed", a.completed},
                                   {"submitted_at", a.submitted_at}});
        if (a.completed) {
            scores[a.user_id].first += a.score;
            ++scores[a.user_id].second;
        }
    }
    std::map<std::string, std::pair<int, int>> counts;  // user → completed, in progress
    std::set<std::string> learners;
    for (const auto& l : lessons) {
        if (!shown(l.user_id) || !current_lessons.count(l.lesson_id)) continue;
        out["lesson_progress"].push_back({{"user_id", l.user_id},
                                          {"email", emailOf(l.user_id)},
                                          {"lesson_id", l.lesson_id},
                                          {"status", toString(l.progress.status)},
                                          {"percent", l.progress.percent},
                                          {"best_score", l.progress.best_score}});
        learners.insert(l.user_id);
        if (l.progress.status == ProgressStatus::kCompleted) ++counts[l.user_id].first;
        if (l.progress.status == ProgressStatus::kInProgress) ++counts[l.user_id].second;
    }
    for (const auto& m : members) {
        if (m.persona == Persona::kStudent && shown(m.user_id)) learners.insert(m.user_id);
    }
    for (const auto& [user_id, s] : scores) learners.insert(user_id);
    const int total = static_cast<int>(current_lessons.size());
    for (const auto& user_id : learners) {
        const auto [done, going] = counts[user_id];
        const auto [sum, n] = scores[user_id];
        out["mastery"].push_back(
            {{"user_id", user_id},
             {"email", emailOf(user_id)},
             {"lessons_total", total},
             {"lessons_completed", done},
             {"lessons_in_progress", going},
             {"average_score", n ? json(static_cast<int>(std::lround(sum / n))) : json()},
             {"mastery_percent", total ? static_cast<int>(std::lround(100.0 * done / total)) : 0}});
    }
    return out;
}

}  // namespace docintel::learning
