#include "services/document_service.h"

#include <sstream>

#include "common/id.h"
#include "ingest/chunker.h"
#include "services/upload_service.h"

namespace docintel::services {
namespace {

nlohmann::json nullable(const std::string& s) {
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

}  // namespace

nlohmann::json DocumentService::toJson(const storage::Document& d) {
    return {{"id", d.id},
            {"document_id", d.id},
            {"filename", d.filename},
            {"content_type", d.content_type},
            {"status", d.status},
            {"error_code", nullable(d.error_code)},
            {"error_message", nullable(d.error_message)},
            {"pages", d.pages ? nlohmann::json(*d.pages) : nlohmann::json(nullptr)},
            {"doc_type", nullable(d.doc_type)},
            {"doc_type_confidence", d.doc_type_confidence ? nlohmann::json(*d.doc_type_confidence)
                                                          : nlohmann::json(nullptr)},
            {"detected_type", nullable(d.detected_type)},
            {"size", d.size_bytes ? nlohmann::json(*d.size_bytes) : nlohmann::json(nullptr)},
            {"declared_size", d.declared_size},
            {"sha256", nullable(d.sha256)},
            {"owner_id", d.owner_id},
            {"workspace_id", nullable(d.workspace_id)},
            {"version", d.version},
            {"previous_document_id", nullable(d.previous_document_id)},
            {"is_latest", d.is_latest},
            {"change_summary", d.change_summary},
            {"changed_pages", d.changed_pages},
            {"redact_pii", d.redact_pii},
            {"created_at", d.created_at},
            {"updated_at", d.updated_at}};
}

plugin::Result<storage::Document> DocumentService::load(const plugin::Principal& caller,
                                                        const std::string& id,
                                                        auth::WorkspaceAction action) {
    if (!common::isUuid(id)) return plugin::Error{"document_not_found", "document not found", 404};
    auto found = documents_.find(id);
    if (!found) return found.error();
    if (!found->has_value()) {
        return plugin::Error{"document_not_found", "document not found", 404};
    }
    if (auto ok = access_.require(caller.user_id, **found, action); !ok) return ok.error();
    return std::move(**found);
}

plugin::Result<nlohmann::json> DocumentService::list(const plugin::Principal& caller,
                                                     const std::string& workspace_id) {
    auto scope = access_.scope(caller.user_id, workspace_id, auth::WorkspaceAction::kRead);
    if (!scope) return scope.error();
    auto rows =
        scope->empty() ? documents_.listPersonal(caller.user_id) : documents_.listWorkspace(*scope);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& d : *rows) items.push_back(toJson(d));
    return nlohmann::json{
        {"workspace_id", nullable(*scope)}, {"documents", items}, {"count", items.size()}};
}

plugin::Result<nlohmann::json> DocumentService::get(const plugin::Principal& caller,
                                                    const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kRead);
    if (!d) return d.error();
    return toJson(*d);
}

plugin::Result<nlohmann::json> DocumentService::chunks(const plugin::Principal& caller,
                                                       const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kRead);
    if (!d) return d.error();
    auto rows = documents_.chunks(id);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& c : *rows) {
        items.push_back({{"id", c.id},
                         {"chunk_id", c.id},
                         {"chunk_index", c.chunk_index},
                         {"text", c.text},
                         {"page", c.page_start},
                         {"page_start", c.page_start},
                         {"page_end", c.page_end},
                         {"section_path", c.section_path},
                         {"char_start", c.char_start},
                         {"char_end", c.char_end},
                         {"token_count", c.token_count},
                         {"model", nullable(c.model)},
                         {"model_version", nullable(c.model_version)}});
        if (c.start_seconds) {
            items.back()["start_seconds"] = *c.start_seconds;
            items.back()["end_seconds"] = c.end_seconds.value_or(*c.start_seconds);
        }
    }
    return nlohmann::json{
        {"document_id", id}, {"status", d->status}, {"chunks", items}, {"count", items.size()}};
}

plugin::Result<nlohmann::json> DocumentService::versions(const plugin::Principal& caller,
                                                         const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kRead);
    if (!d) return d.error();
    auto chain = documents_.versionChain(id);
    if (!chain) return chain.error();
    nlohmann::json items = nlohmann::json::array();
    std::string latest;
    for (const auto& v : *chain) {
        items.push_back(toJson(v));
        if (v.is_latest) latest = v.id;
    }
    return nlohmann::json{{"document_id", id},
                          {"latest_document_id", nullable(latest)},
                          {"versions", items},
                          {"count", items.size()}};
}

plugin::Result<nlohmann::json> DocumentService::registerVersion(const plugin::Principal& caller,
                                                                const std::string& id,
                                                                const nlohmann::json& body) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    const std::string summary = body["change_summary"].get<std::string>();
    const auto pages = body.value("changed_pages", std::vector<int>{});
    const auto prev = body.find("previous_document_id");
    if (prev == body.end() || prev->is_null() || prev->get<std::string>().empty()) {
        if (auto ok = documents_.describeVersion(id, summary, pages); !ok) return ok.error();
        return versions(caller, id);
    }
    const std::string previous_id = prev->get<std::string>();
    if (previous_id == id) {
        return plugin::Error::conflict("version_conflict", "a document cannot follow itself");
    }
    auto previous = load(caller, previous_id, auth::WorkspaceAction::kManageDocuments);
    if (!previous) return previous.error();
    if (previous->workspace_id != d->workspace_id) {
        return plugin::Error::conflict("scope_mismatch", "versions must be in the same scope");
    }
    auto chain = documents_.versionChain(previous_id);
    if (!chain) return chain.error();
    for (const auto& v : *chain) {
        if (v.id == id) {
            return plugin::Error::conflict("version_conflict",
                                           "the document is already in this version chain");
        }
    }
    if (auto ok = documents_.linkVersion(id, previous_id, summary, pages); !ok) return ok.error();
    return versions(caller, id);
}

plugin::Result<nlohmann::json> DocumentService::reembed(const plugin::Principal& caller,
                                                        const std::string& id,
                                                        const std::string& job_kind) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    auto job = documents_.requestEmbedding(id, job_kind);
    if (!job) return job.error();
    return nlohmann::json{{"document_id", id}, {"status", "embedding"}, {"job_id", *job}};
}

plugin::Result<nlohmann::json> DocumentService::remove(const plugin::Principal& caller,
                                                       const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    auto key = documents_.remove(id);
    if (!key) return key.error();
    objects_.remove(*key);
    // What plugins stored about the document (frames, audio, transcripts) goes with it.
    objects_.removePrefix("documents/" + id + "/");
    return nlohmann::json{{"deleted", true}, {"document_id", id}};
}

plugin::Result<std::string> DocumentService::mediaFile(const plugin::Principal& caller,
                                                       const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kRead);
    if (!d) return d.error();
    std::string path = objects_.localPath(d->storage_key);
    if (path.empty() || !objects_.stat(d->storage_key)) {
        return plugin::Error::conflict("upload_missing",
                                       "no bytes were uploaded for this document");
    }
    return path;
}

namespace {
plugin::Status requireMedia(const storage::Document& d) {
    if (UploadService::processedByPlugin(d.detected_type)) return {};
    return plugin::Error::conflict("not_media_document",
                                   "only media and plugin documents are processed by a plugin");
}
}  // namespace

plugin::Status DocumentService::setMediaState(const plugin::Principal& caller,
                                              const std::string& id, const std::string& state,
                                              const std::string& error_code,
                                              const std::string& message) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    if (auto ok = requireMedia(*d); !ok) return ok;
    if (state == "error") {
        return documents_.fail(id, error_code.empty() ? "processing_failed" : error_code, message);
    }
    if (state != "uploaded" && state != "processing") {
        return plugin::Error::unprocessable("invalid_state",
                                            "a media document's state is uploaded, processing "
                                            "or error");
    }
    return documents_.setStatus(id, state);
}

plugin::Status DocumentService::storeMediaChunks(const plugin::Principal& caller,
                                                 const std::string& id,
                                                 std::vector<storage::Chunk> chunks) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    if (auto ok = requireMedia(*d); !ok) return ok;
    if (chunks.empty()) {
        return plugin::Error::unprocessable("no_text_found", "a media document needs chunks");
    }
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        auto& c = chunks[i];
        c.chunk_index = static_cast<int>(i);
        c.page_start = c.page_end = 1;
        c.char_start = 0;
        c.char_end = static_cast<int>(c.text.size());
        c.token_count = ingest::approximateTokens(c.text);
    }
    if (auto ok = documents_.startChunking(id); !ok) return ok;
    if (auto ok = documents_.appendChunks(id, chunks); !ok) return ok;
    return documents_.finishChunking(id, 0, "chunked");
}

plugin::Status DocumentService::writePluginText(const plugin::Principal& caller,
                                                const std::string& id, const std::string& text,
                                                const std::string& doc_type) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    if (d->detected_type != UploadService::kPluginTextType) {
        return plugin::Error::conflict("not_plugin_document",
                                       "only a plugin document's text is written by its plugin");
    }
    std::istringstream in(text);
    auto stored =
        objects_.put(d->storage_key, in, static_cast<std::int64_t>(text.size()), d->content_type);
    if (!stored) return stored.error();
    return documents_.storeContent(id, stored->size, stored->sha256,
                                   doc_type.empty() ? d->doc_type : doc_type);
}

plugin::Status DocumentService::requireManage(const plugin::Principal& caller,
                                              const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!d) return d.error();
    return {};
}

plugin::Result<nlohmann::json> DocumentService::ingestionStatus(const plugin::Principal& caller,
                                                                const std::string& id) {
    auto d = load(caller, id, auth::WorkspaceAction::kRead);
    if (!d) return d.error();
    const std::string& s = d->status;
    return nlohmann::json{
        {"document_id", d->id},
        {"doc_id", d->id},
        {"filename", d->filename},
        {"status", s},
        {"done", s == "embedded" || s == "error"},
        {"failed", s == "error"},
        {"chunks_available", s == "chunked" || s == "embedding" || s == "embedded"},
        {"pages", d->pages ? nlohmann::json(*d->pages) : nlohmann::json(nullptr)},
        {"error_code", nullable(d->error_code)},
        {"error_message", nullable(d->error_message)},
        {"updated_at", d->updated_at}};
}

}  // namespace docintel::services
