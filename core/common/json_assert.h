#pragma once
// Included before every C++ file (CMakeLists.txt): nlohmann::json's preconditions throw instead
// of being compiled out. Without this, a release build reads past the end of a map on a const
// operator[] with a missing key (the "value" of a list item that has none), which can crash the
// process; with it, the step or handler fails and its guard answers an error.
#include <stdexcept>
#include <string>

namespace docintel::common {

/// Throws std::logic_error naming the broken precondition. A call, not a throw-expression, so
/// that the few noexcept functions of the library that check one compile without a warning
/// (there a broken precondition ends the process, as assert() would).
[[noreturn]] inline void jsonPreconditionFailed(const char* condition) {
    throw std::logic_error(std::string("json precondition failed: ") + condition);
}

}  // namespace docintel::common

#define JSON_ASSERT(x) ((x) ? static_cast<void>(0) : ::docintel::common::jsonPreconditionFailed(#x))
