#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace docintel::common {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

using LogField = std::pair<std::string_view, std::string_view>;

/// Writes one `ts=... level=... event=... key=value ...` line to stderr. Values with spaces or
/// quotes are quoted. Thread-safe. Callers never pass tokens, secrets or document text.
void log(LogLevel level, std::string_view event, std::initializer_list<LogField> fields = {});

/// "debug", "info", "warning" or "error".
std::optional<LogLevel> parseLogLevel(std::string_view text);

/// Lines below this level are dropped (default: kInfo; DOCINTEL_LOG_LEVEL=debug lowers it).
void setLogLevel(LogLevel level);

/// Whether a line at `level` is written: callers skip building fields nobody reads.
bool logs(LogLevel level);

}  // namespace docintel::common
