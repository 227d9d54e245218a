#pragma once

#include <string>

#include "ingest/parser.h"

namespace docintel::ingest {

/// Plain text, Markdown and CSV (UTF-8, or UTF-16LE/BE with BOM; other bytes as windows-1252).
/// TXT: blank-line paragraphs, a paragraph's lines kept apart where their breaks carry meaning
/// (LineBreaks: forms, addresses, aligned columns, lettered clauses), and "- " list items.
/// MD: the same, and "#" headings, pipe tables, fenced code kept as one paragraph. CSV: one
/// kTableRow a record with its header prefix.
/// Errors: unreadable_document. Never throws.
Result<ParsedDocument> parseText(const std::string& path, DocumentType type);
/// The same over text already in memory (used for mail attachments).
ParsedDocument parseTextString(const std::string& bytes, DocumentType type);

}  // namespace docintel::ingest
