#pragma once

#include <string>

namespace docintel::auth {

/// PBKDF2-HMAC-SHA256 password hashes stored as `pbkdf2_sha256$<iterations>$<salt>$<hash>`
/// (base64url). Stateless and thread-safe.
class PasswordHasher {
  public:
    static constexpr int kIterations = 210000;  // OWASP 2023 guidance for PBKDF2-SHA256

    static std::string hash(const std::string& password, int iterations = kIterations);
    /// Constant-time comparison; false for a malformed stored hash.
    static bool verify(const std::string& password, const std::string& stored);
};

}  // namespace docintel::auth
