#pragma once

// File-name helpers of feature plugins. Header-only; thread-safe.

#include <cctype>
#include <string>

namespace docintel::shared {

/// The lower-cased extension of `filename` without its dot ("clip.MP4" → "mp4"); "" for none.
inline std::string extensionOf(const std::string& filename) {
    const auto dot = filename.rfind('.');
    if (dot == std::string::npos) return "";
    std::string ext = filename.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace docintel::shared
