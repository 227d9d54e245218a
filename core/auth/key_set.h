#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace docintel::auth {

/// The server's ES256 signing keys, kept as `<kid>.pem` (PKCS#8, mode 0600) in one directory.
/// Key ids start with the creation time, so the newest key — the one that signs — sorts last;
/// older keys keep verifying until they are removed, which makes rotation a matter of adding
/// a key (`rotate`) and deleting the old file after the longest token lifetime.
///
/// Thread-safe: keys are immutable after loading; `rotate` swaps under a mutex.
class KeySet {
  public:
    /// Loads every key in `dir`, creating the directory and a first key when there is none.
    /// Throws std::runtime_error when the directory or a key file cannot be used.
    static std::shared_ptr<KeySet> loadOrCreate(const std::string& dir);

    ~KeySet();

    /// Adds a new newest key and makes it the signing key. Throws on I/O or crypto failure.
    std::string rotate();

    std::string activeKid() const;

    /// ES256 signature (raw r||s, 64 bytes) over `data` with the active key.
    std::string sign(std::string_view data, std::string* kid_out) const;

    /// Verifies a raw r||s ES256 signature with key `kid`; false for an unknown kid.
    bool verify(const std::string& kid, std::string_view data, std::string_view signature) const;

    /// The public keys as a JWK Set (RFC 7517).
    nlohmann::json jwks() const;

  private:
    struct Key;
    explicit KeySet(std::string dir) : dir_(std::move(dir)) {}
    void load();
    std::shared_ptr<const Key> keyFor(const std::string& kid) const;

    const std::string dir_;
    mutable std::mutex mutex_;  // guards keys_
    std::map<std::string, std::shared_ptr<const Key>> keys_;
};

}  // namespace docintel::auth
