#pragma once

#include <string>
#include <vector>

namespace docintel::ingest {

/// One unit of text in reading order. Table rows carry their cells joined with " | ", data
/// rows prefixed by their column headers ("Team: Blues | Location: STL").
struct Block {
    enum class Kind { kHeading, kParagraph, kTableRow, kListItem };
    Kind kind = Kind::kParagraph;
    std::string text;                       ///< UTF-8
    int level = 0;                          ///< heading level (1 = top); 0 for other kinds
    std::vector<std::string> section_path;  ///< enclosing headings, outermost first
};

/// One page of a paged format; non-paged formats put everything on page 1 (PPTX: one page a
/// slide, XLSX: one page a sheet).
struct Page {
    int number = 1;  ///< 1-based
    std::vector<Block> blocks;
    bool ocr = false;  ///< text came from OCR of the rendered page
};

/// A parsed document as plain values; owns all its text.
struct ParsedDocument {
    std::string doc_type_hint;  ///< DocumentType name the parser ran as ("pdf", "docx", ...)
    std::vector<Page> pages;
    std::string title;
};

}  // namespace docintel::ingest
