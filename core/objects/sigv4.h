#pragma once

// AWS Signature Version 4 for an S3-compatible store (issue 19): request signing with the
// Authorization header and presigned URLs (query-string authentication), as the AWS
// documentation defines them; checked against its published examples
// (tests/unit/objects/sigv4_test.cpp). Pure; thread-safe.

#include <map>
#include <string>

namespace docintel::objects {

/// Who signs, and for which region and service.
struct SigV4Key {
    std::string access_key;
    std::string secret_key;
    std::string region = "us-east-1";
    std::string service = "s3";
};

/// A request as it is signed. `path` is the absolute path, not yet encoded (each segment is
/// URI-encoded when signed, `/` kept); `query` holds decoded names and values; `headers` are
/// the headers to sign (names in any case; `host` must be among them).
struct SigV4Request {
    std::string method = "GET";
    std::string path = "/";
    std::map<std::string, std::string> query;
    std::map<std::string, std::string> headers;
    /// Hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
    std::string payload_hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
};

/// RFC 3986 percent-encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ (and `/` when
/// `keep_slash`) as %XY with upper-case hex.
std::string uriEncode(const std::string& text, bool keep_slash);

/// The canonical request of `request`.
std::string canonicalRequest(const SigV4Request& request);
/// `AWS4-HMAC-SHA256\n<amz_date>\n<scope>\n<hex sha256 of the canonical request>`;
/// `amz_date` is `YYYYMMDDTHHMMSSZ`.
std::string stringToSign(const SigV4Key& key, const std::string& amz_date,
                         const std::string& canonical_request);
/// The hex signature of `string_to_sign` with the key derived for the date of `amz_date`.
std::string signature(const SigV4Key& key, const std::string& amz_date,
                      const std::string& string_to_sign);

/// The `Authorization` header value for `request` sent at `amz_date` (the request's headers
/// must already hold `x-amz-date`, and `x-amz-content-sha256` for S3).
std::string authorization(const SigV4Key& key, const SigV4Request& request,
                          const std::string& amz_date);

/// A presigned URL (`<endpoint><path>?X-Amz-...&X-Amz-Signature=...`) valid for
/// `expires_seconds` from `amz_date`. `request.headers` must hold `host` (and whatever else
/// the client must send as signed, e.g. content-type); the payload is UNSIGNED-PAYLOAD.
/// `endpoint` is the scheme and authority, e.g. `https://examplebucket.s3.amazonaws.com`.
std::string presignedUrl(const SigV4Key& key, SigV4Request request, const std::string& endpoint,
                         const std::string& amz_date, long long expires_seconds);

}  // namespace docintel::objects
