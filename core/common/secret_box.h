#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace docintel::common {

/// AES-256-GCM with one server key kept in a 0600 file (created on first use): seals secrets
/// at rest (refresh tokens, webhook signing secrets) as nonce(12) || ciphertext || tag(16).
/// Immutable after loading; thread-safe.
class SecretBox {
  public:
    /// Loads the 32-byte key from `path`, creating it (and its directory) when missing.
    /// Throws std::runtime_error when the file cannot be read, written or has the wrong size.
    static std::shared_ptr<const SecretBox> loadOrCreate(const std::string& path);

    std::string seal(std::string_view plaintext) const;
    /// The plaintext, or nullopt when the box was tampered with or sealed under another key.
    std::optional<std::string> open(std::string_view box) const;

  private:
    explicit SecretBox(std::string key) : key_(std::move(key)) {}
    const std::string key_;
};

}  // namespace docintel::common
