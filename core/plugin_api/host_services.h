#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "documents.h"
#include "plugin_storage.h"
#include "workflow.h"

namespace docintel::plugin {

/// A member of a team workspace (ABI minor 3). `role` is owner, editor or viewer.
struct WorkspaceMember {
    std::string workspace_id;
    std::string user_id;
    std::string email;
    std::string display_name;
    std::string role;
};

/// What the host lends a plugin: the only way a plugin reaches logging, documents, retrieval,
/// runs and storage. Implemented by the host; valid for the life of the process. Methods are
/// thread-safe and never throw.
class HostServices {
  public:
    virtual ~HostServices() = default;

    /// Writes a `key=value` log line tagged with the plugin's name. Never pass document text,
    /// tokens or secrets.
    virtual void log(const std::string& plugin, const std::string& level,
                     const std::string& message) = 0;

    /// The server's data directory (for plugin caches); the plugin owns `<dir>/plugins/<name>`.
    virtual std::string dataDir() const = 0;

    /// Evidence lookup for workflow steps; null when the host has none (a bare test host).
    virtual EvidenceFinder* evidence() { return nullptr; }
    /// The workflow engine's run operations, for a plugin's vertical routes and MCP tools; null
    /// when the host has no engine.
    virtual WorkflowRuns* workflowRuns() { return nullptr; }
    /// Sentence vectors of `texts` (one per text, in order) from the server's encoder, for
    /// matching by meaning (e.g. a skill against a requirement). `encoder_unavailable` (503)
    /// when the host has no encoder.
    virtual Result<std::vector<std::vector<float>>> embed(const std::vector<std::string>& texts) {
        (void)texts;
        return Error::unavailable("encoder_unavailable", "the host has no sentence encoder");
    }
    /// Records `event` on the event log and creates the webhook deliveries it matches (ABI
    /// minor 2). A plugin's tables are its own, so the event is written in a transaction of its
    /// own: emit after the change commits. Carries the trace of the calling request.
    virtual Status emitEvent(const PluginEvent& event) {
        (void)event;
        return Error::unavailable("events_unavailable", "the host has no event log");
    }

    // ABI minor 3 (SDK v2, decision 0067). Each plugin gets a HostServices of its own, so
    // these act for the calling plugin: its storage, its prefix, its job kinds.

    /// Runs `fn` in one transaction on the plugin's own storage (a plugin that registered
    /// migrations; see Registrar::addMigration), committing when `fn` returns ok and rolling
    /// back otherwise. `fn` may run more than once (a serialization failure is retried), so
    /// it must only touch the transaction. `storage_unavailable` (503) when the plugin has no
    /// storage, `storage_not_ready` (503) before its migrations are applied (during
    /// registerWith).
    template <typename F>
    auto transact(F&& fn) -> decltype(fn(std::declval<PluginTx&>())) {
        using R = decltype(fn(std::declval<PluginTx&>()));
        std::optional<R> out;
        Status done = runTransaction([&](PluginTx& tx) -> Status {
            out.emplace(fn(tx));
            if (!*out) return out->error();
            return {};
        });
        if (!done) return done.error();
        return std::move(*out);
    }

    /// What `transact` runs on; a plugin calls `transact`.
    virtual Status runTransaction(const std::function<Status(PluginTx&)>& fn) {
        (void)fn;
        return Error::unavailable("storage_unavailable", "the host has no plugin storage");
    }

    /// The role (`owner`, `editor` or `viewer`) of `principal` in the team workspace.
    /// `workspace_not_found` (404) when there is no such workspace or the principal is not a
    /// member, so workspace ids do not leak.
    virtual Result<std::string> workspaceRole(const Principal& principal,
                                              const std::string& workspace_id) {
        (void)principal;
        (void)workspace_id;
        return Error::unavailable("access_unavailable", "the host has no workspaces");
    }
    /// The member of the team workspace whose e-mail is `email` (case-insensitive), as
    /// `principal` — who must be a member (else `workspace_not_found`, 404) — sees the
    /// members. `member_not_found` (404) when no member has that e-mail but a user has (the
    /// account is outside the workspace), `user_not_found` (404) when no user has it.
    virtual Result<WorkspaceMember> findWorkspaceMember(const Principal& principal,
                                                        const std::string& workspace_id,
                                                        const std::string& email) {
        (void)principal;
        (void)workspace_id;
        (void)email;
        return Error::unavailable("access_unavailable", "the host has no workspaces");
    }

    /// The members of the team workspace as `principal` — who must be a member (else
    /// `workspace_not_found`, 404) — sees them.
    virtual Result<std::vector<WorkspaceMember>> workspaceMembers(const Principal& principal,
                                                                  const std::string& workspace_id) {
        (void)principal;
        (void)workspace_id;
        return Error::unavailable("access_unavailable", "the host has no workspaces");
    }

    // Documents and knowledge, always as `principal` sees them; the JSON is the REST shape
    // of the same operation (Document, DocumentList, ChunkList, AnswerStreamFrame).

    /// The principal's personal documents, or the team workspace's when `workspace_id` is set
    /// (GET /documents).
    virtual Result<nlohmann::json> listDocuments(const Principal& principal,
                                                 const std::string& workspace_id) {
        (void)principal;
        (void)workspace_id;
        return unavailableDocuments();
    }
    /// One document (GET /documents/{id}); `not_found` when not visible.
    virtual Result<nlohmann::json> getDocument(const Principal& principal,
                                               const std::string& document_id) {
        (void)principal;
        (void)document_id;
        return unavailableDocuments();
    }
    /// Its chunks with pages and offsets (GET /documents/{id}/chunks).
    virtual Result<nlohmann::json> documentChunks(const Principal& principal,
                                                  const std::string& document_id) {
        (void)principal;
        (void)document_id;
        return unavailableDocuments();
    }
    /// Creates a document from bytes through the normal ingestion (as an upload would);
    /// returns the Document, `status` uploading/chunking until it is `embedded`.
    virtual Result<nlohmann::json> createDocument(const Principal& principal,
                                                  const NewDocument& document) {
        (void)principal;
        (void)document;
        return unavailableDocuments();
    }
    /// Deletes a document the principal may manage (DELETE /documents/{id}); rows of plugins
    /// that reference it go with it (ON DELETE CASCADE).
    virtual Result<nlohmann::json> deleteDocument(const Principal& principal,
                                                  const std::string& document_id) {
        (void)principal;
        (void)document_id;
        return unavailableDocuments();
    }
    /// A grounded, cited answer from `question.document_ids` only, streamed as the frames of
    /// /knowledge/query/stream (`sources`, `token`, `done`, `error`) — the same retrieval,
    /// answerer, refusal and citation checks. `emit` returns false to stop. Errors before the
    /// first frame (not visible, not ready, no documents named) are returned, not emitted.
    virtual Status askGrounded(const Principal& principal, const GroundedQuestion& question,
                               const std::function<bool(const nlohmann::json&)>& emit) {
        (void)principal;
        (void)question;
        (void)emit;
        return unavailableKnowledge();
    }
    /// The ranked sources the answer would draw on (search_knowledgebase's shape).
    virtual Result<nlohmann::json> retrieve(const Principal& principal,
                                            const GroundedQuestion& question) {
        (void)principal;
        (void)question;
        return unavailableKnowledge();
    }
    /// For each claim, whether one of its texts supports it (the check LLM mode and the
    /// groundedness evaluation use), so a plugin can drop what it generated unsupported.
    virtual Result<std::vector<SupportVerdict>> checkSupport(
        const std::vector<SupportClaim>& claims) {
        (void)claims;
        return unavailableKnowledge();
    }
    /// A summary of one document (the `done` frame of the summary stream, with `sources`);
    /// `request` is a SummaryRequest body.
    virtual Result<nlohmann::json> summarize(const Principal& principal,
                                             const std::string& document_id,
                                             const nlohmann::json& request) {
        (void)principal;
        (void)document_id;
        (void)request;
        return unavailableKnowledge();
    }

    /// Queues a job of one of the plugin's kinds (Registrar::addJobKind) with `payload`;
    /// returns the job id. `unknown_job_kind` (404) for a kind the plugin did not register.
    virtual Result<std::string> enqueueJob(const std::string& kind, const nlohmann::json& payload) {
        (void)kind;
        (void)payload;
        return Error::unavailable("jobs_unavailable", "the host has no job engine");
    }

    // Objects under the plugin's own prefix of the object store (`plugins/<plugin>/<name>`).
    // `name` is a relative path of [A-Za-z0-9._-] segments separated by '/', at most 200
    // characters, without "." or ".." segments (`invalid_object_name`, 422).

    /// Stores `bytes` as the object `name` (replacing it); returns `{name, size, sha256}`.
    virtual Result<nlohmann::json> putObject(const std::string& name, const std::string& bytes,
                                             const std::string& content_type) {
        (void)name;
        (void)bytes;
        (void)content_type;
        return unavailableObjects();
    }
    /// The bytes of the object `name`; `not_found` (404) when there is none.
    virtual Result<std::string> readObject(const std::string& name) {
        (void)name;
        return unavailableObjects();
    }
    /// Removes the object `name` (ok when there was none).
    virtual Status removeObject(const std::string& name) {
        (void)name;
        return unavailableObjects();
    }
    /// A signed URL a client PUTs exactly `size` bytes of `content_type` to, within
    /// `ttl_seconds` (1..86400), to store them as the object `name` (the object store checks
    /// the signature, expiry, type and size) — bytes never pass through the plugin.
    virtual Result<std::string> signedUploadUrl(const std::string& name,
                                                const std::string& content_type, std::int64_t size,
                                                int ttl_seconds) {
        (void)name;
        (void)content_type;
        (void)size;
        (void)ttl_seconds;
        return unavailableObjects();
    }

    /// A signed URL that answers a GET with the bytes of the object `name` as `content_type`
    /// for `ttl_seconds` (1..86400), so a client downloads it straight from the object store.
    /// `not_found` (404) when there is no such object.
    virtual Result<std::string> signedDownloadUrl(const std::string& name,
                                                  const std::string& content_type,
                                                  int ttl_seconds) {
        (void)name;
        (void)content_type;
        (void)ttl_seconds;
        return unavailableObjects();
    }

    /// True when the server has an LLM endpoint configured (DOCINTEL_LLM_BASE_URL/_MODEL).
    virtual bool hasLlm() { return false; }
    /// One chat completion from the configured OpenAI-compatible endpoint: `messages` is the
    /// OpenAI `messages` array; `on_token`, when set, sees each piece as it streams and returns
    /// false to stop (`llm_cancelled`). Returns the whole text. `llm_unavailable` (503) when no
    /// LLM is configured or the endpoint fails, `llm_timeout`. What it writes is not grounded:
    /// check each sentence with `checkSupport` against its sources before keeping it.
    virtual Result<std::string> completeChat(
        const nlohmann::json& messages,
        const std::function<bool(const std::string&)>& on_token = nullptr) {
        (void)messages;
        (void)on_token;
        return Error::unavailable("llm_unavailable", "no LLM is configured");
    }

    // ABI minor 4: media documents a feature plugin processes itself (decision 0068). The
    // document is a row like any other (listed, deleted, searched, cited); the plugin turns
    // its bytes into timed chunks. Each call acts as `principal`: reads need read access,
    // changes need the right to manage the document (`not_found`, 404, otherwise).

    /// Opens a media upload (MediaUpload): returns POST /uploads' session (`doc_id`,
    /// `upload_url`, `storage_source_path`, ...).
    virtual Result<nlohmann::json> createMediaUpload(const Principal& principal,
                                                     const MediaUpload& upload) {
        (void)principal;
        (void)upload;
        return unavailableDocuments();
    }
    /// Completes an upload (POST /uploads/complete's body and answer); a media document is
    /// then `uploaded`.
    virtual Result<nlohmann::json> completeUpload(const Principal& principal,
                                                  const std::string& workspace_id,
                                                  const nlohmann::json& body) {
        (void)principal;
        (void)workspace_id;
        (void)body;
        return unavailableDocuments();
    }
    /// A local file holding the document's uploaded bytes, for readers that need a path
    /// (FFmpeg). Valid while the document exists.
    virtual Result<std::string> documentFile(const Principal& principal,
                                             const std::string& document_id) {
        (void)principal;
        (void)document_id;
        return unavailableDocuments();
    }
    /// Moves a media document to `uploaded`, `processing` or `error` (with `error_code` and
    /// `message`, and the `document.failed` event).
    virtual Status setDocumentState(const Principal& principal, const std::string& document_id,
                                    const std::string& state, const std::string& error_code,
                                    const std::string& message) {
        (void)principal;
        (void)document_id;
        (void)state;
        (void)error_code;
        (void)message;
        return unavailableDocuments();
    }
    /// Replaces the document's chunks with `chunks` (in order) in one transaction; the document
    /// is then `chunked`. `no_text_found` (422) when there are none.
    virtual Status storeDocumentChunks(const Principal& principal, const std::string& document_id,
                                       const std::vector<TimedChunk>& chunks) {
        (void)principal;
        (void)document_id;
        (void)chunks;
        return unavailableDocuments();
    }
    /// Embeds the document's stored chunks in the calling thread with the server's encoder
    /// (`embedding` → `embedded`; it is then searched like any document). Without an encoder
    /// the document stays `chunked`.
    virtual Status embedDocument(const Principal& principal, const std::string& document_id) {
        (void)principal;
        (void)document_id;
        return unavailableDocuments();
    }
    /// The text Tesseract reads in `image` (English; the same OCR as scanned documents).
    virtual Result<std::string> recognizeText(const GrayImage& image) {
        (void)image;
        return Error::unavailable("ocr_unavailable", "the host has no OCR");
    }

    // ABI minor 5: documents whose text a plugin writes (decision 0069).

    /// Creates a PluginDocument as `principal` (who needs the right to add documents in its
    /// scope); returns the Document, `uploaded`, without bytes.
    virtual Result<nlohmann::json> createPluginDocument(const Principal& principal,
                                                        const PluginDocument& document) {
        (void)principal;
        (void)document;
        return unavailableDocuments();
    }
    /// Stores `text` as the bytes of a plugin document (replacing any; a download gives it) and
    /// sets its `doc_type` (the plugin's classification). Chunks are stored separately.
    virtual Status writeDocumentText(const Principal& principal, const std::string& document_id,
                                     const std::string& text, const std::string& doc_type) {
        (void)principal;
        (void)document_id;
        (void)text;
        (void)doc_type;
        return unavailableDocuments();
    }
    /// `texts` with personal data replaced by the documents' placeholders ([EMAIL_1], ...),
    /// numbered across all of them (the same address is the same placeholder in every text).
    virtual Result<std::vector<std::string>> redactPii(const std::vector<std::string>& texts) {
        (void)texts;
        return Error::unavailable("redaction_unavailable", "the host has no redactor");
    }

  protected:
    static Error unavailableObjects() {
        return Error::unavailable("objects_unavailable", "the host has no object store");
    }
    static Error unavailableDocuments() {
        return Error::unavailable("documents_unavailable", "the host has no document store");
    }
    static Error unavailableKnowledge() {
        return Error::unavailable("search_unavailable", "this node does not search");
    }
};

}  // namespace docintel::plugin
