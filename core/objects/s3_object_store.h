#pragma once

// Objects in an S3-compatible store (issue 19, decision 0070): SeaweedFS in the tests, any S3
// in production. Requests are signed with SigV4 (objects/sigv4.h); uploads are staged in a
// local file first, so their size and SHA-256 are known before the PUT (sent signed, with the
// digest kept as the object's `x-amz-meta-sha256`). Readers that need a path get a local copy
// in the cache folder.

#include <map>
#include <string>

#include "objects/object_store.h"
#include "objects/sigv4.h"

namespace docintel::objects {

struct S3Settings {
    std::string endpoint;  ///< scheme and authority, e.g. http://127.0.0.1:18433
    std::string region = "us-east-1";
    std::string bucket;
    std::string access_key;
    std::string secret_key;
    /// true: <endpoint>/<bucket>/<key> (SeaweedFS, MinIO); false: <bucket>.<host>/<key>.
    bool path_style = true;
    std::string cache_dir;  ///< local copies for localPath and staged uploads
};

/// Thread-safe: each request opens its own connection.
class S3ObjectStore final : public ObjectStore {
  public:
    explicit S3ObjectStore(S3Settings settings);

    plugin::Result<ObjectInfo> put(const std::string& key, std::istream& in,
                                   std::int64_t expected_size,
                                   const std::string& content_type) override;
    std::optional<ObjectInfo> stat(const std::string& key) const override;
    /// Downloads the object into the cache folder (once; again when its size changed) and
    /// returns that path; empty when there is no such object.
    std::string localPath(const std::string& key) const override;
    bool remove(const std::string& key) override;
    std::size_t removePrefix(const std::string& prefix) override;

    /// Creates the bucket unless it exists.
    plugin::Status ensureBucket();
    /// A presigned URL for `method` (PUT or GET) of `key`, valid `ttl_seconds`. A PUT binds
    /// `content_type` and `size` (Content-Type and Content-Length are signed headers).
    std::string presignedUrl(const std::string& method, const std::string& key,
                             const std::string& content_type, std::int64_t size,
                             int ttl_seconds) const override;

    struct Response {
        int status = 0;
        std::string body;
        std::map<std::string, std::string> headers;  ///< names lower-cased
    };

  private:
    /// One signed request. `body_file` (when set) is streamed as the body with `payload_hash`.
    plugin::Result<Response> send(const std::string& method, const std::string& key,
                                  const std::map<std::string, std::string>& query,
                                  std::map<std::string, std::string> headers,
                                  const std::string& body_file = {},
                                  const std::string& payload_hash = {},
                                  const std::string& download_to = {}) const;
    /// The request path of `key` ("/<bucket>/<key>" path-style, "/<key>" otherwise).
    std::string pathOf(const std::string& key) const;
    std::string hostHeader() const;

    const S3Settings settings_;
    const SigV4Key sigv4_;
};

}  // namespace docintel::objects
