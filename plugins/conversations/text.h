#pragma once

// Small string helpers of the conversations rules: trimming and counting UTF-8 characters.
// (The learning feature has the same two in its own library, which this one does not link.)
// Header-only; thread-safe.

#include <cstddef>
#include <string>

namespace docintel::conversations {

/// `text` without leading and trailing ASCII white space.
inline std::string trim(const std::string& text) {
    const auto space = " \t\r\n\f\v";
    const auto first = text.find_first_not_of(space);
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(space) - first + 1);
}

/// Characters (code points) of UTF-8 text, as JSON Schema's minLength/maxLength count them.
inline std::size_t utf8Length(const std::string& text) {
    std::size_t n = 0;
    for (const char ch : text) {
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;
    }
    return n;
}

}  // namespace docintel::conversations
