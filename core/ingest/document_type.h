#pragma once

#include <optional>
#include <string>

namespace docintel::ingest {

/// The real type of an uploaded file, as found by sniff() from its bytes.
enum class DocumentType {
    kUnknown,  ///< not a type we read (binary of unknown kind)
    kPdf,
    kDocx,
    kPptx,
    kXlsx,
    kOdt,
    kHtml,
    kEml,
    kTxt,
    kMd,
    kCsv,
    kRtf,
    kLegacyOffice,     ///< OLE2 compound file: .doc, .xls, .ppt, .msg (unsupported)
    kEncryptedOffice,  ///< OLE2 container holding an encrypted OOXML package
};

std::string toString(DocumentType type);
/// Inverse of toString(); nullopt for an unknown name.
std::optional<DocumentType> parseDocumentType(const std::string& name);

}  // namespace docintel::ingest
