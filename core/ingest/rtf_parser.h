#pragma once

#include <string>

#include "ingest/parser.h"

namespace docintel::ingest {

/// RTF text: control words and destination groups (font tables, pictures, ...) are dropped,
/// \'hh is decoded in the document's \ansicpg code page and \uN as Unicode; \outlinelevelN
/// paragraphs become headings and \cell/\row tables become kTableRow blocks.
/// Errors: unreadable_document. Never throws.
Result<ParsedDocument> parseRtf(const std::string& path);

}  // namespace docintel::ingest
