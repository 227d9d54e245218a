#pragma once

#include <string>

#include "ingest/document_type.h"

namespace docintel::ingest {

/// Finds the real type of the file at `path` from its magic bytes: PDF, ZIP packages told apart
/// by their entries (DOCX/PPTX/XLSX/ODT), OLE2 (legacy Office or encrypted OOXML), RTF, HTML,
/// RFC 822 mail, and text (UTF-8, or UTF-16 with BOM) named CSV/MD/TXT by extension or declared
/// content type. Never throws; an unreadable file is kUnknown unless its name says PDF.
DocumentType sniff(const std::string& path, const std::string& declared_content_type,
                   const std::string& filename);

}  // namespace docintel::ingest
