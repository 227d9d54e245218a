#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace docintel::redact {

/// The kinds of personal data the redactor recognises. The order is the placeholder order in
/// listings only; overlap priority is set in pii_redactor.cpp.
enum class PiiType {
    kEmail,
    kPhone,
    kSsn,
    kCreditCard,
    kIban,
    kIpAddress,
    kDateOfBirth,
    kAddress,
    kMedicalRecord,
};

inline constexpr std::size_t kPiiTypeCount = 9;
inline constexpr std::array<PiiType, kPiiTypeCount> kAllPiiTypes{
    PiiType::kEmail,       PiiType::kPhone,   PiiType::kSsn,
    PiiType::kCreditCard,  PiiType::kIban,    PiiType::kIpAddress,
    PiiType::kDateOfBirth, PiiType::kAddress, PiiType::kMedicalRecord};

/// The placeholder label: EMAIL, PHONE, SSN, CREDIT_CARD, IBAN, IP_ADDRESS, DOB, ADDRESS, MRN.
std::string toString(PiiType type);
/// Inverse of toString(); nullopt for an unknown label.
std::optional<PiiType> parsePiiType(std::string_view label);

}  // namespace docintel::redact
