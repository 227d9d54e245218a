#pragma once

#include <string>
#include <vector>

#include "ingest/text_util.h"

namespace docintel::ingest {

/// A word on a PDF page: its box in points, origin top-left.
struct Word {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::string text;  ///< UTF-8
};

/// Turns a page's words into blocks in reading order. Columns are found by recursive cuts at
/// whitespace gutters (a vertical cut needs text-like lines on both sides, so tables are not
/// split into columns), words are grouped into lines and lines into paragraphs; a line whose
/// words fall into cells separated by wide gaps is a table row. Taller short lines are headings.
void layoutWords(std::vector<Word> words, BlockBuilder& out);

}  // namespace docintel::ingest
