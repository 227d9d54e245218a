#include "classify/doc_class.h"

#include <utility>

namespace docintel::classify {

namespace {

constexpr std::array<std::pair<DocClass, const char*>, kDocClassCount> kNames{{
    {DocClass::kContract, "contract"},
    {DocClass::kLease, "lease"},
    {DocClass::kInvoice, "invoice"},
    {DocClass::kResume, "resume"},
    {DocClass::kJobDescription, "job_description"},
    {DocClass::kClinicalNote, "clinical_note"},
    {DocClass::kPriorAuthRequest, "prior_auth_request"},
    {DocClass::kPayerPolicy, "payer_policy"},
    {DocClass::kTaxForm, "tax_form"},
    {DocClass::kBankStatement, "bank_statement"},
    {DocClass::kPolicy, "policy"},
    {DocClass::kReport, "report"},
    {DocClass::kEmail, "email"},
    {DocClass::kTranscript, "transcript"},
    {DocClass::kOther, "other"},
}};

}  // namespace

std::string toString(DocClass c) {
    for (const auto& [k, name] : kNames) {
        if (k == c) return name;
    }
    return "other";
}

std::optional<DocClass> parseDocClass(std::string_view name) {
    for (const auto& [k, n] : kNames) {
        if (name == n) return k;
    }
    return std::nullopt;
}

}  // namespace docintel::classify
