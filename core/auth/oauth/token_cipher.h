#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace docintel::auth::oauth {

/// SHA-256 of `data`, base64url without padding (PKCE S256, and the lookup hash of codes,
/// refresh tokens, session cookies and client secrets — all high-entropy random values).
std::string sha256Base64Url(std::string_view data);

/// Compares in time independent of where the inputs differ.
bool constantTimeEquals(std::string_view a, std::string_view b);

/// AES-256-GCM with one server key kept in a 0600 file (created on first use): seals refresh
/// tokens at rest as nonce(12) || ciphertext || tag(16). Immutable after loading; thread-safe.
class TokenCipher {
  public:
    /// Loads the 32-byte key from `path`, creating it (and its directory) when missing.
    /// Throws std::runtime_error when the file cannot be read, written or has the wrong size.
    static std::shared_ptr<const TokenCipher> loadOrCreate(const std::string& path);

    std::string seal(std::string_view plaintext) const;
    /// The plaintext, or nullopt when the box was tampered with or sealed under another key.
    std::optional<std::string> open(std::string_view box) const;

  private:
    explicit TokenCipher(std::string key) : key_(std::move(key)) {}
    const std::string key_;
};

}  // namespace docintel::auth::oauth
