#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace docintel::common {

/// Seconds since the Unix epoch.
std::int64_t nowEpochSeconds();

/// Milliseconds since `start` on the steady clock: durations for logs and responses.
double millisecondsSince(std::chrono::steady_clock::time_point start);

/// An epoch time as RFC 3339 UTC seconds, e.g. 2026-11-22T02:36:41Z; "" for 0 or less.
std::string isoFromEpoch(std::int64_t epoch_seconds);

/// An RFC 3339 UTC time ("2026-11-22T02:36:41Z", fractions ignored) as epoch seconds; -1 when it
/// does not read as one.
std::int64_t epochSecondsFromIso(const std::string& iso);

/// Current UTC time as RFC 3339 with milliseconds, e.g. 2026-11-22T02:36:41.123Z.
std::string nowIso8601();

}  // namespace docintel::common
