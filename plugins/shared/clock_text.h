#pragma once

// Times as people read them in titles and transcripts: "mm:ss", or "h:mm:ss" from an hour on.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace docintel::shared {

/// "mm:ss" (or "h:mm:ss" from an hour on) of `seconds`, rounded down; negative reads as 0.
inline std::string clockText(double seconds) {
    const long total = std::max(0L, static_cast<long>(std::floor(seconds + 1e-6)));
    char buf[32];
    if (total >= 3600) {
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", total / 3600, (total / 60) % 60,
                      total % 60);
    } else {
        std::snprintf(buf, sizeof buf, "%02ld:%02ld", total / 60, total % 60);
    }
    return buf;
}

}  // namespace docintel::shared
