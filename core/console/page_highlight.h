#pragma once

#include <string>
#include <vector>

namespace docintel::console {

/// A rectangle on a page in percent of the page's width and height, origin top left.
struct PageBox {
    double x = 0;
    double y = 0;
    double width = 0;
    double height = 0;
};

/// One word of a page's text layer with its box.
struct PageWord {
    std::string text;
    PageBox box;
};

/// The boxes that highlight `excerpt` on a page: the longest run of consecutive page words
/// that matches the excerpt's words from its start (case and punctuation ignored; at least
/// three words, or the whole excerpt when it is shorter), its words' boxes merged line by
/// line. Empty when the excerpt is not on the page. Pure; thread-safe.
std::vector<PageBox> highlightBoxes(const std::vector<PageWord>& words, const std::string& excerpt);

/// The boxes of the field's `value` inside the passage `excerpt` on the page: the value's
/// words, all of them and in order, within the excerpt's run. Empty when either is not found.
std::vector<PageBox> valueBoxes(const std::vector<PageWord>& words, const std::string& excerpt,
                                const std::string& value);

/// Lower-case letters and digits of `word` (UTF-8 bytes above 0x7f are kept as they are).
std::string matchKey(const std::string& word);

}  // namespace docintel::console
