#include "ingest/ocr_text.h"

#include <array>
#include <cctype>
#include <string_view>

namespace docintel::ingest {

namespace {

bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string correctedOcrText(std::string text) {
    // The states whose names open with a capital I; read with an l they are no English word.
    static constexpr std::array<std::string_view, 4> kMisread = {"lowa", "lllinois", "ldaho",
                                                                 "lndiana"};
    for (const auto word : kMisread) {
        for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
            const std::size_t end = at + word.size();
            if ((at > 0 && wordChar(text[at - 1])) || (end < text.size() && wordChar(text[end]))) {
                continue;
            }
            text[at] = 'I';
        }
    }
    return text;
}

}  // namespace docintel::ingest
