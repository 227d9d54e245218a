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

std::vector<std::string> excerptKeys(const std::string& excerpt) {
    std::vector<std::string> out;
    std::istringstream in(excerpt);
    std::string w;
    while (in >> w) {
        if (auto k = matchKey(w); !k.empty()) out.push_back(std::move(k));
    }
    return out;
}

/// The best match of `keys` among the page words: [first, first + length) of `page`.
std::pair<std::size_t, std::size_t> bestRun(const std::vector<std::string>& page,
                                            const std::vector<std::string>& keys) {
    std::size_t best_start = 0;
    std::size_t best_len = 0;
    // Any start in the excerpt (a chunk excerpt may begin mid-sentence on the previous page).
    for (std::size_t k0 = 0; k0 < keys.size(); ++k0) {
        if (keys.size() - k0 <= best_len) break;
        for (std::size_t i = 0; i < page.size(); ++i) {
            std::size_t n = 0;
            while (i + n < page.size() && k0 + n < keys.size() && page[i + n] == keys[k0 + n]) ++n;
            if (n > best_len) {
                best_len = n;
                best_start = i;
            }
        }
    }
    return {best_start, best_len};
}

}  // namespace

std::vector<PageBox> highlightBoxes(const std::vector<PageWord>& words,
                                    const std::string& excerpt) {
    const auto keys = excerptKeys(excerpt);
    if (keys.empty()) return {};
    std::vector<std::string> page;
    std::vector<std::size_t> index;  // page key → word
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (auto k = matchKey(words[i].text); !k.empty()) {
            page.push_back(std::move(k));
            index.push_back(i);
        }
    }
    const auto [start, length] = bestRun(page, keys);
    if (length < std::min<std::size_t>(3, keys.size()) || length == 0) return {};

    std::vector<PageBox> out;
    for (std::size_t n = 0; n < length; ++n) {
        const PageBox& b = words[index[start + n]].box;
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

}  // namespace docintel::console
