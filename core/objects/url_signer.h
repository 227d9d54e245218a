#pragma once

#include <cstdint>
#include <string>

namespace docintel::objects {

/// What a signed upload URL allows: one method on one key, until `expires` (epoch seconds),
/// with exactly this content type and size.
struct UploadGrant {
    std::string method = "PUT";
    std::string key;
    std::int64_t expires = 0;
    std::string content_type;
    std::int64_t size = 0;
};

/// HMAC-SHA256 signatures for object-store URLs, keyed by a server secret kept in a 0600 file.
/// Stateless after construction; thread-safe.
class UrlSigner {
  public:
    /// Reads the secret from `path`, creating 32 random bytes there when absent. Throws
    /// std::runtime_error when the file cannot be read or written.
    static UrlSigner fromSecretFile(const std::string& path);
    explicit UrlSigner(std::string secret) : secret_(std::move(secret)) {}

    /// base64url signature of the grant.
    std::string sign(const UploadGrant& grant) const;
    /// Constant-time check of `signature` against the grant.
    bool verify(const UploadGrant& grant, const std::string& signature) const;

    /// `{base_url}/objects/<key>?expires=..&size=..&content_type=..&signature=..`
    std::string url(const std::string& base_url, const UploadGrant& grant) const;

  private:
    std::string secret_;
};

}  // namespace docintel::objects
