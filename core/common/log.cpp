#include "common/log.h"

#include <unistd.h>
#include <atomic>

#include "common/clock.h"

namespace docintel::common {
namespace {

std::atomic<LogLevel> g_min_level{LogLevel::kInfo};

const char* levelName(LogLevel level) {
    switch (level) {
        case LogLevel::kDebug:
            return "debug";
        case LogLevel::kInfo:
            return "info";
        case LogLevel::kWarning:
            return "warning";
        case LogLevel::kError:
            return "error";
    }
    return "info";
}

void appendValue(std::string& line, std::string_view value) {
    const bool quote = value.empty() || value.find_first_of(" \"=\t\n") != std::string_view::npos;
    if (!quote) {
        line.append(value);
        return;
    }
    line += '"';
    for (const char c : value) {
        if (c == '"' || c == '\\') line += '\\';
        line += (c == '\n' || c == '\t') ? ' ' : c;
    }
    line += '"';
}

}  // namespace

void setLogLevel(LogLevel level) { g_min_level = level; }

bool logs(LogLevel level) { return level >= g_min_level.load(); }

std::optional<LogLevel> parseLogLevel(std::string_view text) {
    for (const auto level :
         {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning, LogLevel::kError}) {
        if (text == levelName(level)) return level;
    }
    return std::nullopt;
}

void log(LogLevel level, std::string_view event, std::initializer_list<LogField> fields) {
    if (!logs(level)) return;
    std::string line = "ts=" + nowIso8601() + " level=" + levelName(level) + " event=";
    appendValue(line, event);
    for (const auto& [key, value] : fields) {
        line += ' ';
        line.append(key);
        line += '=';
        appendValue(line, value);
    }
    line += '\n';
    // One write(2) per line: lines stay whole without a lock held across a system call.
    for (std::size_t done = 0; done < line.size();) {
        const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace docintel::common
