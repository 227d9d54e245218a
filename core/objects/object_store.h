#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>

#include "plugin_api/result.h"

namespace docintel::objects {

struct ObjectInfo {
    std::int64_t size = 0;
    std::string sha256;  ///< hex
    std::string content_type;
};

/// Where document bytes live. Keys are relative paths ("documents/<id>/<name>"). The local
/// filesystem store is the default; an S3 store can implement the same interface.
/// Implementations are thread-safe.
class ObjectStore {
  public:
    virtual ~ObjectStore() = default;

    /// Streams exactly `expected_size` bytes from `in` into `key`, computing the sha256. Fails
    /// with `size_mismatch` (400) when the stream is shorter or longer; nothing is left behind
    /// on failure, and an existing object is replaced only on success.
    virtual plugin::Result<ObjectInfo> put(const std::string& key, std::istream& in,
                                           std::int64_t expected_size,
                                           const std::string& content_type) = 0;
    virtual std::optional<ObjectInfo> stat(const std::string& key) const = 0;
    /// A local file path for readers that need one (parsers); empty when absent.
    virtual std::string localPath(const std::string& key) const = 0;
    /// Removes the object; true when something was removed.
    virtual bool remove(const std::string& key) = 0;
    /// Removes every object whose key starts with `prefix` (which ends in '/'), e.g. all of a
    /// document's under "documents/<id>/"; returns how many were removed.
    virtual std::size_t removePrefix(const std::string& prefix) = 0;
    /// A URL the client uses straight against the store for `method` (PUT: exactly `size`
    /// bytes of `content_type`; GET) within `ttl_seconds`, when the store signs its own (S3's
    /// presigned URLs); empty when uploads and downloads go through the server's /objects/
    /// route (the local store).
    virtual std::string presignedUrl(const std::string& method, const std::string& key,
                                     const std::string& content_type, std::int64_t size,
                                     int ttl_seconds) const {
        (void)method;
        (void)key;
        (void)content_type;
        (void)size;
        (void)ttl_seconds;
        return {};
    }
};

/// Streams exactly `expected_size` bytes of `in` into the file `path` (created or replaced),
/// computing their SHA-256: the staging step of every store's `put`. `size_mismatch` (400), and
/// no file left, when the stream is shorter or longer.
plugin::Result<ObjectInfo> stageStream(std::istream& in, std::int64_t expected_size,
                                       const std::string& path, const std::string& content_type);

/// Objects as files under a root directory, each with a `<file>.meta` JSON sidecar holding
/// size, sha256 and content type. Writes go to a temporary file renamed into place.
class LocalObjectStore final : public ObjectStore {
  public:
    explicit LocalObjectStore(std::string root);

    plugin::Result<ObjectInfo> put(const std::string& key, std::istream& in,
                                   std::int64_t expected_size,
                                   const std::string& content_type) override;
    std::optional<ObjectInfo> stat(const std::string& key) const override;
    std::string localPath(const std::string& key) const override;
    bool remove(const std::string& key) override;
    std::size_t removePrefix(const std::string& prefix) override;

    /// True for keys that are safe relative paths (no "..", no absolute paths, no NUL).
    static bool validKey(const std::string& key);

  private:
    const std::string root_;
};

}  // namespace docintel::objects
