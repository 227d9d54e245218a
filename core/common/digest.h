#pragma once

// SHA-256 and HMAC-SHA256 (OpenSSL), the one place the signers (object URLs, webhooks, S3
// SigV4) and content hashes compute them. Pure; thread-safe.

#include <string>
#include <string_view>

namespace docintel::common {

/// The 32 raw bytes of SHA-256(`data`).
std::string sha256(std::string_view data);
/// The 32 raw bytes of HMAC-SHA256(`key`, `message`).
std::string hmacSha256(std::string_view key, std::string_view message);
/// The hex SHA-256 of the file at `path`, read in pieces; empty when it cannot be read.
std::string sha256FileHex(const std::string& path);
/// `bytes` as lower-case hexadecimal.
std::string toHex(std::string_view bytes);

}  // namespace docintel::common
