#include "console/page_highlight.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace docintel::console {

std::string matchKey(const std::string& word) {
    std::string out;
    for (unsigned char c : word) {
        if (c >= 0x80 || std::isalnum(c)) out.push_back(static_cast<char>(std::tolower(c)));
    }
    return out;
}

namespace {

std::vector<std::string> textKeys(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string w;
    while (in >> w) {
        if (auto k = matchKey(w); !k.empty()) out.push_back(std::move(k));
    }
    return out;
}

/// The page's words as match keys, and the word each key came from.
struct Keyed {
    std::vector<std::string> keys;
    std::vector<std::size_t> word;
};

Keyed keyed(const std::vector<PageWord>& words) {
    Keyed out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (auto k = matchKey(words[i].text); !k.empty()) {
            out.keys.push_back(std::move(k));
            out.word.push_back(i);
        }
    }
    return out;
}

/// The longest run of page keys in [lo, hi) equal to consecutive keys of `wanted` (from any
/// of its words: a chunk excerpt may begin on the previous page): {first, length}.
std::pair<std::size_t, std::size_t> bestRun(const std::vector<std::string>& page,
                                            const std::vector<std::string>& wanted, std::size_t lo,
                                            std::size_t hi) {
    std::size_t best_start = 0;
    std::size_t best_len = 0;
    for (std::size_t k0 = 0; k0 < wanted.size(); ++k0) {
        if (wanted.size() - k0 <= best_len) break;
        for (std::size_t i = lo; i < hi; ++i) {
            std::size_t n = 0;
            while (i + n < hi && k0 + n < wanted.size() && page[i + n] == wanted[k0 + n]) ++n;
            if (n > best_len) {
                best_len = n;
                best_start = i;
            }
        }
    }
    return {best_start, best_len};
}

/// The boxes of keys [start, start + length), merged line by line.
std::vector<PageBox> lineBoxes(const std::vector<PageWord>& words, const Keyed& page,
                               std::size_t start, std::size_t length) {
    std::vector<PageBox> out;
    for (std::size_t n = 0; n < length; ++n) {
        const PageBox& b = words[page.word[start + n]].box;
        if (!out.empty()) {
            PageBox& last = out.back();
            const double mid = b.y + b.height / 2;
            // Same line: the word's middle lies within the line box so far.
            if (mid >= last.y && mid <= last.y + last.height) {
                const double left = std::min(last.x, b.x);
                const double right = std::max(last.x + last.width, b.x + b.width);
                const double top = std::min(last.y, b.y);
                const double bottom = std::max(last.y + last.height, b.y + b.height);
                last = {left, top, right - left, bottom - top};
                continue;
            }
        }
        out.push_back(b);
    }
    return out;
}

/// The excerpt's run on the page: at least three words, or the whole excerpt when shorter.
std::pair<std::size_t, std::size_t> excerptRun(const Keyed& page, const std::string& excerpt) {
    const auto keys = textKeys(excerpt);
    if (keys.empty()) return {0, 0};
    const auto run = bestRun(page.keys, keys, 0, page.keys.size());
    if (run.second < std::min<std::size_t>(3, keys.size())) return {0, 0};
    return run;
}

}  // namespace

std::vector<PageBox> highlightBoxes(const std::vector<PageWord>& words,
                                    const std::string& excerpt) {
    const Keyed page = keyed(words);
    const auto [start, length] = excerptRun(page, excerpt);
    return lineBoxes(words, page, start, length);
}

std::vector<PageBox> valueBoxes(const std::vector<PageWord>& words, const std::string& excerpt,
                                const std::string& value) {
    const Keyed page = keyed(words);
    const auto [start, length] = excerptRun(page, excerpt);
    const auto keys = textKeys(value);
    if (length == 0 || keys.empty()) return {};
    const auto [v_start, v_length] = bestRun(page.keys, keys, start, start + length);
    if (v_length != keys.size()) return {};
    return lineBoxes(words, page, v_start, v_length);
}

}  // namespace docintel::console
