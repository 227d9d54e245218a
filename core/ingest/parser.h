#pragma once

#include <functional>
#include <string>

#include "ingest/document_type.h"
#include "ingest/parsed_document.h"
#include "plugin_api/result.h"

namespace docintel::ingest {

using plugin::Error;
using plugin::Result;
using plugin::Status;

/// Receives one page at a time; an error it returns stops parsing and is passed back.
using PageSink = std::function<Status(Page&&)>;

/// Error codes every parser uses for files it cannot read.
inline constexpr const char* kEncryptedDocument = "encrypted_document";
inline constexpr const char* kUnreadableDocument = "unreadable_document";
inline constexpr const char* kUnsupportedType = "unsupported_type";

Error encryptedError(const std::string& what);
Error unreadableError(const std::string& what);
Error unsupportedError(const std::string& what);

/// Parses the whole file into memory. Errors: encrypted_document, unreadable_document,
/// unsupported_type (422/422/415). Never throws.
Result<ParsedDocument> parseFile(const std::string& path, DocumentType type);

/// Streams the file page by page to `on_page` (PDF holds one page's text at a time). Same
/// errors as parseFile(), plus whatever `on_page` returns. `title`, when given, receives the
/// document title if one is known. Never throws.
Status parseFilePages(const std::string& path, DocumentType type, const PageSink& on_page,
                      std::string* title = nullptr);

}  // namespace docintel::ingest
