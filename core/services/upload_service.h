#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "objects/object_store.h"
#include "objects/url_signer.h"
#include "plugin_api/documents.h"
#include "plugin_api/http_types.h"
#include "storage/document_repository.h"

namespace docintel::services {

struct UploadLimits {
    std::int64_t max_bytes = 100LL * 1024 * 1024;
    int url_ttl_seconds = 15 * 60;
};

/// Direct upload (spec §3 sequence 1): a document row and a signed PUT URL; the PUT, served by
/// the server's own object store endpoint, streams the bytes to storage; `complete` checks the
/// object, sniffs its real type from its bytes and enqueues ingestion, once. Legacy Office
/// files (.doc, .xls, .msg) and unknown binaries are refused there with `unsupported_type`;
/// encrypted files are accepted and end in `error` with `encrypted_document` when parsed.
/// Thread-safe.
class UploadService {
  public:
    static constexpr const char* kIngestJob = "ingest_document";

    UploadService(storage::DocumentRepository& documents, objects::ObjectStore& objects,
                  objects::UrlSigner signer, const auth::DocumentAccess& access,
                  UploadLimits limits, std::string base_url)
        : documents_(documents),
          objects_(objects),
          signer_(std::move(signer)),
          access_(access),
          limits_(limits),
          base_url_(std::move(base_url)) {}

    /// POST /uploads — `body` is a validated DirectUploadSessionRequest; `workspace_id` the
    /// header's workspace (the body's `workspace_id` wins when set).
    plugin::Result<nlohmann::json> create(const plugin::Principal& caller,
                                          const std::string& workspace_id,
                                          const nlohmann::json& body);
    /// The same session for a media document a feature plugin processes (HostServices::
    /// createMediaUpload): `doc_type` is set from the start, the size limit is `max_bytes`, and
    /// `complete` checks the container and leaves it `uploaded` instead of queueing ingestion.
    plugin::Result<nlohmann::json> createMedia(const plugin::Principal& caller,
                                               const std::string& workspace_id,
                                               const nlohmann::json& body,
                                               const std::string& doc_type, std::int64_t max_bytes);
    /// POST /uploads/complete — a validated DirectUploadCompleteRequest naming the storage
    /// path as `storage_source_path` or `gcs_source_path`. Idempotent.
    plugin::Result<nlohmann::json> complete(const plugin::Principal& caller,
                                            const std::string& workspace_id,
                                            const nlohmann::json& body);
    /// PUT /objects/<key>?expires&size&content_type&signature — streams the body into the
    /// store after checking the signature, expiry, content type and size. A signed GET (a
    /// download URL, HostServices::signedDownloadUrl) answers the object's bytes as
    /// `content_type`.
    plugin::HttpResponse receive(const std::string& method, const std::string& path,
                                 const std::string& query, const std::string& content_type,
                                 std::int64_t content_length, std::istream& body);

    const UploadLimits& limits() const { return limits_; }

    /// A document whose text a feature plugin writes (HostServices::createPluginDocument):
    /// created `uploaded`, without bytes, in a scope the caller may add documents to.
    plugin::Result<nlohmann::json> createPluginDocument(const plugin::Principal& caller,
                                                        const plugin::PluginDocument& document);

    /// The detected_type of media documents (their doc_type says which kind).
    static constexpr const char* kMediaType = "media";
    /// The detected_type of documents whose text a plugin writes (a conversation transcript).
    static constexpr const char* kPluginTextType = "plugin_text";
    /// True for the documents a plugin, not ingestion, reads and chunks.
    static bool processedByPlugin(const std::string& detected_type) {
        return detected_type == kMediaType || detected_type == kPluginTextType;
    }

  private:
    /// Where the client PUTs the bytes: the store's own presigned URL, else our /objects/ one.
    std::string uploadUrl(const objects::UploadGrant& grant) const;
    plugin::Result<nlohmann::json> open(const plugin::Principal& caller,
                                        const std::string& workspace_id, const nlohmann::json& body,
                                        const std::string& doc_type, std::int64_t max_bytes);
    plugin::Result<nlohmann::json> completeMedia(const storage::Document& d,
                                                 const objects::ObjectInfo& info);
    plugin::HttpResponse serve(const objects::UploadGrant& grant) const;
    storage::DocumentRepository& documents_;
    objects::ObjectStore& objects_;
    const objects::UrlSigner signer_;
    const auth::DocumentAccess& access_;
    const UploadLimits limits_;
    const std::string base_url_;
};

}  // namespace docintel::services
