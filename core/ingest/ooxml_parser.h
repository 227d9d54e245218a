#pragma once

#include <string>

#include "ingest/parser.h"

namespace docintel::ingest {

// Office packages read with Poco::Zip + Poco::XML, one part at a time. All return
// unreadable_document for a damaged package and never throw.

/// DOCX: header paragraphs, body paragraphs (heading styles → kHeading with level, numbered
/// paragraphs → kListItem), tables as kTableRow rows with header prefix, then footers.
Result<ParsedDocument> parseDocx(const std::string& path);
/// PPTX: one page a slide; title placeholders are headings, other text paragraphs, tables rows.
Status parsePptx(const std::string& path, const PageSink& on_page);
/// XLSX: one page a sheet headed by the sheet name; each row a kTableRow with header prefix.
Status parseXlsx(const std::string& path, const PageSink& on_page);
/// ODT: content.xml headings, paragraphs, lists and tables.
Result<ParsedDocument> parseOdt(const std::string& path);

}  // namespace docintel::ingest
