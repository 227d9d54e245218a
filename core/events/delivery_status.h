#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace docintel::events {

/// A webhook delivery's status (ARCHITECTURE.md §5): pending → delivering → delivered, or
/// → retrying → delivering … → dead_letter after the last attempt.
enum class DeliveryStatus { kPending, kDelivering, kDelivered, kRetrying, kDeadLetter };

std::string toString(DeliveryStatus status);
std::optional<DeliveryStatus> parseDeliveryStatus(std::string_view text);

}  // namespace docintel::events
