#include "redact/pii_type.h"

#include <utility>

namespace docintel::redact {

namespace {

constexpr std::array<std::pair<PiiType, const char*>, kPiiTypeCount> kNames{{
    {PiiType::kEmail, "EMAIL"},
    {PiiType::kPhone, "PHONE"},
    {PiiType::kSsn, "SSN"},
    {PiiType::kCreditCard, "CREDIT_CARD"},
    {PiiType::kIban, "IBAN"},
    {PiiType::kIpAddress, "IP_ADDRESS"},
    {PiiType::kDateOfBirth, "DOB"},
    {PiiType::kAddress, "ADDRESS"},
    {PiiType::kMedicalRecord, "MRN"},
}};

}  // namespace

std::string toString(PiiType type) {
    for (const auto& [t, name] : kNames) {
        if (t == type) return name;
    }
    return "PII";
}

std::optional<PiiType> parsePiiType(std::string_view label) {
    for (const auto& [t, name] : kNames) {
        if (label == name) return t;
    }
    return std::nullopt;
}

}  // namespace docintel::redact
