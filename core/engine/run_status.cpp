#include "engine/run_status.h"

#include <array>
#include <utility>

namespace docintel::engine {
namespace {

constexpr std::array<std::pair<RunStatus, const char*>, 5> kRunNames{{
    {RunStatus::kRunning, "running"},
    {RunStatus::kPendingReview, "pending_review"},
    {RunStatus::kChangesRequested, "changes_requested"},
    {RunStatus::kApproved, "approved"},
    {RunStatus::kFailed, "failed"},
}};
constexpr std::array<std::pair<TaskStatus, const char*>, 5> kTaskNames{{
    {TaskStatus::kPending, "pending"},
    {TaskStatus::kInReview, "in_review"},
    {TaskStatus::kCompleted, "completed"},
    {TaskStatus::kChangesRequested, "changes_requested"},
    {TaskStatus::kRejected, "rejected"},
}};

}  // namespace

std::string toString(RunStatus status) {
    for (const auto& [s, name] : kRunNames) {
        if (s == status) return name;
    }
    return "failed";
}

std::optional<RunStatus> parseRunStatus(std::string_view text) {
    for (const auto& [s, name] : kRunNames) {
        if (text == name) return s;
    }
    return std::nullopt;
}

std::string toString(TaskStatus status) {
    for (const auto& [s, name] : kTaskNames) {
        if (s == status) return name;
    }
    return "pending";
}

std::optional<TaskStatus> parseTaskStatus(std::string_view text) {
    for (const auto& [s, name] : kTaskNames) {
        if (text == name) return s;
    }
    return std::nullopt;
}

}  // namespace docintel::engine
