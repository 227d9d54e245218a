#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace docintel::engine {

/// Workflow run status (ARCHITECTURE.md §5): running → pending_review →
/// (changes_requested → pending_review)* → approved, or failed.
enum class RunStatus { kRunning, kPendingReview, kChangesRequested, kApproved, kFailed };

std::string toString(RunStatus status);
std::optional<RunStatus> parseRunStatus(std::string_view text);

/// Review task status: pending → in_review → completed | changes_requested | rejected.
enum class TaskStatus { kPending, kInReview, kCompleted, kChangesRequested, kRejected };

std::string toString(TaskStatus status);
std::optional<TaskStatus> parseTaskStatus(std::string_view text);

}  // namespace docintel::engine
