#pragma once

// Ids for feature plugins, which cannot link the core's: new random UUIDs for their rows, and
// the check that an id from a path or argument is one before SQL sees it.

#include <array>
#include <cctype>
#include <cstdio>
#include <random>
#include <string>

namespace docintel::shared {

/// A new random (version 4) UUID.
inline std::string newId() {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    std::array<unsigned char, 16> b{};
    for (std::size_t i = 0; i < b.size(); i += 8) {
        const auto v = rng();
        for (std::size_t k = 0; k < 8; ++k) b[i + k] = static_cast<unsigned char>(v >> (8 * k));
    }
    b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40);
    b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);
    char out[37];
    std::snprintf(out, sizeof out,
                  "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    return out;
}

/// Whether `s` is a UUID in canonical form.
inline bool isUuid(const std::string& s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return false;
        } else if (!std::isxdigit(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

}  // namespace docintel::shared
