#include "redact/text_scan.h"

#include <array>
#include <string>

namespace docintel::redact::scan {

bool matchesAt(std::string_view s, std::size_t pos, std::string_view word) {
    if (pos + word.size() > s.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (lower(s[pos + i]) != word[i]) return false;
    }
    return true;
}

std::size_t countDigits(std::string_view s, std::size_t from, std::size_t to) {
    std::size_t n = 0;
    for (std::size_t i = from; i < to && i < s.size(); ++i) n += isDigit(s[i]) ? 1 : 0;
    return n;
}

namespace {

bool wordAt(std::string_view s, std::size_t pos, std::string_view cue) {
    if (!matchesAt(s, pos, cue)) return false;
    if (pos > 0 && isAlnum(s[pos - 1]) && isAlnum(cue.front())) return false;
    const std::size_t end = pos + cue.size();
    return !(end < s.size() && isAlnum(s[end]) && isAlnum(cue.back()));
}

}  // namespace

std::size_t cueBefore(std::string_view s, std::size_t pos, std::size_t window,
                      std::span<const std::string_view> cues) {
    const std::size_t start = pos > window ? pos - window : 0;
    std::size_t line_start = start;
    for (std::size_t i = pos; i > start; --i) {
        if (s[i - 1] == '\n') {
            line_start = i;
            break;
        }
    }
    std::size_t best = std::string::npos;
    for (std::size_t i = line_start; i < pos; ++i) {
        if (i > 0 && isAlnum(s[i - 1]) && isAlnum(s[i])) continue;  // inside a word
        const char c = lower(s[i]);
        for (std::string_view cue : cues) {
            if (cue.front() == c && i + cue.size() <= pos && wordAt(s, i, cue)) {
                const std::size_t distance = pos - (i + cue.size());
                if (distance < best) best = distance;
            }
        }
    }
    return best;
}

std::size_t findCue(std::string_view s, std::size_t from, std::span<const std::string_view> cues,
                    std::size_t& length) {
    // Only bytes that can start a cue are looked at; the rest cost a table lookup.
    std::array<bool, 256> first{};
    for (std::string_view cue : cues) {
        first[static_cast<unsigned char>(cue.front())] = true;
        if (isLower(cue.front())) first[static_cast<unsigned char>(cue.front() - 'a' + 'A')] = true;
    }
    for (std::size_t i = from; i < s.size(); ++i) {
        if (!first[static_cast<unsigned char>(s[i])]) continue;
        if (i > 0 && isAlnum(s[i - 1]) && isAlnum(s[i])) continue;  // inside a word
        const char c = lower(s[i]);
        for (std::string_view cue : cues) {
            if (cue.front() == c && wordAt(s, i, cue)) {
                length = cue.size();
                return i;
            }
        }
    }
    return std::string::npos;
}

}  // namespace docintel::redact::scan
