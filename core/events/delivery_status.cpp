#include "events/delivery_status.h"

namespace docintel::events {

std::string toString(DeliveryStatus status) {
    switch (status) {
        case DeliveryStatus::kPending:
            return "pending";
        case DeliveryStatus::kDelivering:
            return "delivering";
        case DeliveryStatus::kDelivered:
            return "delivered";
        case DeliveryStatus::kRetrying:
            return "retrying";
        case DeliveryStatus::kDeadLetter:
            return "dead_letter";
    }
    return "pending";
}

std::optional<DeliveryStatus> parseDeliveryStatus(std::string_view text) {
    for (const auto s :
         {DeliveryStatus::kPending, DeliveryStatus::kDelivering, DeliveryStatus::kDelivered,
          DeliveryStatus::kRetrying, DeliveryStatus::kDeadLetter}) {
        if (toString(s) == text) return s;
    }
    return std::nullopt;
}

}  // namespace docintel::events
