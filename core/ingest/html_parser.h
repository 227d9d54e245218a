#pragma once

#include <string>

#include "ingest/parser.h"

namespace docintel::ingest {

/// HTML via gumbo. The charset comes from a BOM, else a <meta> declaration, else
/// `declared_charset` (e.g. from a Content-Type header), else UTF-8 when the bytes are valid
/// UTF-8, else windows-1252. Script/style are skipped; h1–h6 become headings, li list items,
/// tables kTableRow rows with header prefix. Errors: unreadable_document. Never throws.
Result<ParsedDocument> parseHtml(const std::string& path);
/// The same over bytes in memory (mail bodies and attachments).
ParsedDocument parseHtmlString(const std::string& bytes, const std::string& declared_charset = "");

}  // namespace docintel::ingest
