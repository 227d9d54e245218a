#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace docintel::classify {

/// What a document is, by content (not file format: that is ingest::DocumentType). Stored as
/// documents.doc_type by its toString() name.
enum class DocClass {
    kContract,
    kLease,
    kInvoice,
    kResume,
    kJobDescription,
    kClinicalNote,
    kPriorAuthRequest,
    kPayerPolicy,
    kTaxForm,
    kBankStatement,
    kPolicy,
    kReport,
    kEmail,
    kTranscript,
    kOther,  ///< none of the above with enough confidence
};

inline constexpr std::size_t kDocClassCount = 15;
/// Every class but kOther, in enum order.
inline constexpr std::array<DocClass, kDocClassCount - 1> kNamedClasses{DocClass::kContract,
                                                                        DocClass::kLease,
                                                                        DocClass::kInvoice,
                                                                        DocClass::kResume,
                                                                        DocClass::kJobDescription,
                                                                        DocClass::kClinicalNote,
                                                                        DocClass::kPriorAuthRequest,
                                                                        DocClass::kPayerPolicy,
                                                                        DocClass::kTaxForm,
                                                                        DocClass::kBankStatement,
                                                                        DocClass::kPolicy,
                                                                        DocClass::kReport,
                                                                        DocClass::kEmail,
                                                                        DocClass::kTranscript};

/// contract, lease, invoice, resume, job_description, clinical_note, prior_auth_request,
/// payer_policy, tax_form, bank_statement, policy, report, email, transcript, other.
std::string toString(DocClass c);
/// Inverse of toString(); nullopt for an unknown name.
std::optional<DocClass> parseDocClass(std::string_view name);

}  // namespace docintel::classify
