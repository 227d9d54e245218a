#include "ingest/document_type.h"

#include <array>
#include <utility>

namespace docintel::ingest {

namespace {

constexpr std::array<std::pair<DocumentType, const char*>, 14> kNames{{
    {DocumentType::kUnknown, "unknown"},
    {DocumentType::kPdf, "pdf"},
    {DocumentType::kDocx, "docx"},
    {DocumentType::kPptx, "pptx"},
    {DocumentType::kXlsx, "xlsx"},
    {DocumentType::kOdt, "odt"},
    {DocumentType::kHtml, "html"},
    {DocumentType::kEml, "eml"},
    {DocumentType::kTxt, "txt"},
    {DocumentType::kMd, "md"},
    {DocumentType::kCsv, "csv"},
    {DocumentType::kRtf, "rtf"},
    {DocumentType::kLegacyOffice, "legacy_office"},
    {DocumentType::kEncryptedOffice, "encrypted_office"},
}};

}  // namespace

std::string toString(DocumentType type) {
    for (const auto& [t, name] : kNames) {
        if (t == type) return name;
    }
    return "unknown";
}

std::optional<DocumentType> parseDocumentType(const std::string& name) {
    for (const auto& [t, n] : kNames) {
        if (name == n) return t;
    }
    return std::nullopt;
}

}  // namespace docintel::ingest
