#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "objects/object_store.h"
#include "plugin_api/http_types.h"
#include "storage/document_repository.h"

namespace docintel::services {

/// Reading and deleting documents and their chunks, scoped by DocumentAccess. Results are the
/// JSON records REST and MCP share. Thread-safe.
class DocumentService {
  public:
    DocumentService(storage::DocumentRepository& documents, objects::ObjectStore& objects,
                    const auth::DocumentAccess& access)
        : documents_(documents), objects_(objects), access_(access) {}

    /// The caller's personal documents, or the workspace's when `workspace_id` is set.
    plugin::Result<nlohmann::json> list(const plugin::Principal& caller,
                                        const std::string& workspace_id);
    plugin::Result<nlohmann::json> get(const plugin::Principal& caller, const std::string& id);
    plugin::Result<nlohmann::json> chunks(const plugin::Principal& caller, const std::string& id);
    /// The version chain the document belongs to, oldest first, the latest marked.
    plugin::Result<nlohmann::json> versions(const plugin::Principal& caller, const std::string& id);
    /// Registers the document as the next version of `previous_document_id` (VersionInput);
    /// without one, records the change summary on a first version.
    plugin::Result<nlohmann::json> registerVersion(const plugin::Principal& caller,
                                                   const std::string& id,
                                                   const nlohmann::json& body);
    /// Queues re-embedding of a chunked or embedded document (`not_chunked` otherwise).
    plugin::Result<nlohmann::json> reembed(const plugin::Principal& caller, const std::string& id,
                                           const std::string& job_kind);
    /// Deletes the document, its chunks and its stored object.
    plugin::Result<nlohmann::json> remove(const plugin::Principal& caller, const std::string& id);
    /// Where ingestion of the document stands: its status, whether it has finished (`done`:
    /// embedded or error; a server without an encoder stops at chunked), whether chunks can be
    /// read, and the error when it failed.
    plugin::Result<nlohmann::json> ingestionStatus(const plugin::Principal& caller,
                                                   const std::string& id);

    // Media documents a feature plugin processes (HostServices ABI minor 4, decision 0068).
    // Changes need the right to manage the document, and apply only to media documents
    // (`not_media_document`, 409, for others).

    /// The local file of the document's bytes (read access).
    plugin::Result<std::string> mediaFile(const plugin::Principal& caller, const std::string& id);
    /// `uploaded` or `processing`; or `error` with `error_code` and `message`.
    plugin::Status setMediaState(const plugin::Principal& caller, const std::string& id,
                                 const std::string& state, const std::string& error_code,
                                 const std::string& message);
    /// Replaces the chunks (chunk_index, text and time span of each; the rest is derived) and
    /// marks the document `chunked`.
    plugin::Status storeMediaChunks(const plugin::Principal& caller, const std::string& id,
                                    std::vector<storage::Chunk> chunks);
    /// Stores `text` as a plugin document's bytes and sets its doc_type (HostServices::
    /// writeDocumentText).
    plugin::Status writePluginText(const plugin::Principal& caller, const std::string& id,
                                   const std::string& text, const std::string& doc_type);
    /// Ok when the caller may manage the document.
    plugin::Status requireManage(const plugin::Principal& caller, const std::string& id);

    static nlohmann::json toJson(const storage::Document& d);

  private:
    plugin::Result<storage::Document> load(const plugin::Principal& caller, const std::string& id,
                                           auth::WorkspaceAction action);

    storage::DocumentRepository& documents_;
    objects::ObjectStore& objects_;
    const auth::DocumentAccess& access_;
};

}  // namespace docintel::services
