#pragma once

#include <string>
#include <string_view>

namespace docintel::common {

/// A random (version 4) UUID in canonical lower-case form. Thread-safe.
std::string newUuid();

/// True when `text` is a UUID in the canonical form we issue: 8-4-4-4-12 lower-case hex (no
/// braces, no upper case, so one id has one spelling in URLs, logs and caches).
bool isUuid(std::string_view text);

/// `bytes` random bytes from the OS CSPRNG, base64url without padding. Throws on RNG failure.
std::string randomToken(std::size_t bytes);

/// "<hostname>:<pid>:<random>": names this process as a job worker (lease owner).
std::string hostWorkerId();

}  // namespace docintel::common
