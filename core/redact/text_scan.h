#pragma once

#include <cstddef>
#include <span>
#include <string_view>

// Byte-level helpers shared by the recognisers. All work on UTF-8 text as bytes: every pattern
// the recognisers look for is ASCII, and a byte >= 0x80 (part of a multi-byte character) is
// neither a digit nor a letter here, so it counts as a boundary.
namespace docintel::redact::scan {

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool isLower(char c) { return c >= 'a' && c <= 'z'; }
inline bool isAlpha(char c) { return isUpper(c) || isLower(c); }
inline bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
inline bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool isSpace(char c) { return c == ' ' || c == '\t'; }
inline char lower(char c) { return isUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

inline char at(std::string_view s, std::size_t i) { return i < s.size() ? s[i] : '\0'; }
inline char before(std::string_view s, std::size_t i) { return i > 0 ? s[i - 1] : '\0'; }

/// Case-insensitive ASCII comparison of s[pos, pos + word.size()) with `word` (lower case).
bool matchesAt(std::string_view s, std::size_t pos, std::string_view word);

/// Digits in s[from, to) (separators skipped).
std::size_t countDigits(std::string_view s, std::size_t from, std::size_t to);

/// Whether one of `cues` (lower case, whole words) occurs in the `window` bytes before `pos`,
/// not across a line break. Returns the distance from the cue's end to `pos`, or npos.
std::size_t cueBefore(std::string_view s, std::size_t pos, std::size_t window,
                      std::span<const std::string_view> cues);

/// The first position at or after `from` where one of `cues` (lower case) starts as a whole
/// word; npos if none. `length` receives the matched cue's length.
std::size_t findCue(std::string_view s, std::size_t from, std::span<const std::string_view> cues,
                    std::size_t& length);

}  // namespace docintel::redact::scan
