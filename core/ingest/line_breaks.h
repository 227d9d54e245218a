#pragma once

#include <string>
#include <vector>

namespace docintel::ingest {

/// Which line breaks of a plain-text paragraph (lines between blank lines) carry meaning and
/// which only wrap prose. A wrapped paragraph reads as one block; a line-structured one (an
/// address, a form's "Key: value" lines, a fixed-width table, lettered criteria, an e-mail's
/// header lines, a heading over its text) keeps each line, so that labels, rows and list
/// items keep their bounds. Stateless; thread-safe.
class LineBreaks {
  public:
    /// Reads the document's wrap width from its lines (untrimmed, as split).
    explicit LineBreaks(const std::vector<std::string>& lines);

    /// Whether the break between `line` and the non-blank `next` of the same paragraph is kept.
    /// Joined: `next` is indented eight or more (a value wrapped under its column). Kept:
    /// `line` ends with a drawn rule ("-- Summary ----"), either line is a row of aligned
    /// columns or dotted leaders, or `next` opens with a
    /// bullet or a clause marker ("A. ", "(b) ", "4.1 "). Joined: `next` goes on in lower case.
    /// Kept: `next` opens with a label ("To: ..."), or `line` ends a sentence, a label or a
    /// Markdown hard break. Else kept only when `next`'s first word would have fitted on `line`
    /// (no wrapper broke it there).
    bool kept(const std::string& line, const std::string& next) const;

    /// The width at which the document wraps its prose: the longest line followed by one that
    /// surely continues it (lower case), or, without two such, the longest line.
    std::size_t width() const { return width_; }

  private:
    std::size_t width_ = 0;
};

}  // namespace docintel::ingest
