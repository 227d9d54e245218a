// core/ingest/pdf_layout.cpp: which lines of a page's words are headings, and which lines a
// paragraph joins.

#include "ingest/pdf_layout.h"

#include <gtest/gtest.h>

#include <sstream>

#include "ingest/text_util.h"

namespace docintel::ingest {
namespace {

/// Appends the words of `text` as one line at `top`, set in `size` pt.
void addLine(std::vector<Word>& words, double top, double size, const std::string& text) {
    std::istringstream in(text);
    double x = 72;
    for (std::string w; in >> w;) {
        const double width = 0.5 * size * static_cast<double>(w.size());
        words.push_back({x, top, x + width, top + size, w});
        x += width + 0.3 * size;
    }
}

/// The texts of the blocks of `kind` that the page's words lay out into.
std::vector<std::string> blocksOf(const std::vector<Word>& words, Block::Kind kind) {
    BlockBuilder out;
    layoutWords(words, out);
    std::vector<std::string> found;
    for (const auto& b : out.take()) {
        if (b.kind == kind) found.push_back(b.text);
    }
    return found;
}

std::vector<std::string> headings(const std::vector<Word>& words) {
    return blocksOf(words, Block::Kind::kHeading);
}

TEST(PdfLayout, ASubHeadingOneSizeUpIsNotFoldedIntoTheParagraphAboveIt) {
    // 10.5 pt body, 12 pt sub-headings, 15.2 pt from line to line and 6 pt more between blocks:
    // the gap above a sub-heading is no wider than a paragraph's.
    std::vector<Word> words;
    double y = 72;
    auto line = [&](double size, const std::string& text, double after) {
        addLine(words, y, size, text);
        y += size * 1.45 + after;
    };
    line(10.5, "1.2 Tenant shall use the Premises only for warehousing and the uses", 0);
    line(10.5, "incidental to it.", 6);
    line(12, "ARTICLE 2 - BASE RENT", 6);
    line(10.5, "2.1 Tenant shall pay Base Rent of $10,000.00 per month in advance on the", 0);
    line(10.5, "first day of each month.", 6);
    EXPECT_EQ(headings(words), (std::vector<std::string>{"ARTICLE 2 - BASE RENT"}));
}

TEST(PdfLayout, AParagraphInALargerTypeThanTheSmallPrintAroundItStaysAParagraph) {
    std::vector<Word> words;
    double y = 72;
    auto line = [&](double size, const std::string& text) {
        addLine(words, y, size, text);
        y += size * 1.45;
    };
    for (int i = 0; i < 6; ++i)
        line(9, "small print small print small print small print small print");
    line(10.5, "A notice set in the larger type of the letter runs on");
    line(10.5, "over two short lines");
    for (int i = 0; i < 6; ++i)
        line(9, "small print small print small print small print small print");
    EXPECT_TRUE(headings(words).empty());
}

TEST(PdfLayout, TheRowsOfATableSetWithNarrowGapsStayLines) {
    // A paragraph's lines join (its short last line too); a run of short lines stays lines.
    std::vector<Word> words;
    double y = 72;
    auto line = [&](const std::string& text) {
        addLine(words, y, 10, text);
        y += 14.5;
    };
    line("Current medications are listed here with their dose how often they are taken and a note");
    line("Anastrozole 1 mg once daily continue to September 2031");
    line("Venlafaxine XR 37.5 mg once daily for hot flashes");
    line("Gabapentin - - STOPPED September 2027");
    EXPECT_EQ(blocksOf(words, Block::Kind::kParagraph),
              (std::vector<std::string>{
                  "Current medications are listed here with their dose how often they are taken "
                  "and a note Anastrozole 1 mg once daily continue to September 2031",
                  "Venlafaxine XR 37.5 mg once daily for hot flashes",
                  "Gabapentin - - STOPPED September 2027"}));
}

}  // namespace
}  // namespace docintel::ingest
