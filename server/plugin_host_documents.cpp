#include "server/plugin_host_documents.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "common/clock.h"
#include "common/id.h"
#include "ingest/ocr.h"
#include "knowledge/evaluation_service.h"
#include "redact/pii_redactor.h"
#include "services/document_service.h"
#include "services/ingestion_service.h"
#include "services/upload_service.h"

namespace docintel::server::plugin_documents {
namespace {

constexpr std::size_t kMaxQuestionDocuments = 50;

plugin::Error noDocuments() {
    return plugin::Error::unavailable("documents_unavailable", "this node has no document store");
}
plugin::Error noKnowledge() {
    return plugin::Error::unavailable("search_unavailable", "this node does not search");
}

/// The ChatRequest of a plugin's question. Restricted to the named documents, so it is never
/// widened to the workspace, and without agent_mode's workflow-run sources.
plugin::Result<knowledge::QueryPlan> plan(knowledge::KnowledgeService& knowledge,
                                          const plugin::Principal& p,
                                          const plugin::GroundedQuestion& q) {
    if (q.question.empty()) {
        return plugin::Error::unprocessable("invalid_question", "the question is empty");
    }
    if (q.document_ids.empty() || q.document_ids.size() > kMaxQuestionDocuments) {
        return plugin::Error::unprocessable(
            "invalid_question", "a plugin's question names 1 to 50 documents it is grounded in");
    }
    Json request = {{"question", q.question},
                    {"document_ids", q.document_ids},
                    {"history", q.history.is_array() ? q.history : Json::array()},
                    {"redact_pii", q.redact_pii},
                    {"agent_mode", "off"}};
    if (!q.response_language.empty()) request["response_language"] = q.response_language;
    const std::string trace = q.trace_id.empty() ? common::newUuid() : q.trace_id;
    return knowledge.prepare(p, q.workspace_id, request, trace);
}

plugin::Error noObjects() {
    return plugin::Error::unavailable("objects_unavailable", "this node has no object store");
}

/// `plugins/<plugin>/<name>` when `name` is a clean relative path, else invalid_object_name.
plugin::Result<std::string> objectKey(const std::string& plugin, const std::string& name) {
    const auto bad = [] {
        return plugin::Error::unprocessable(
            "invalid_object_name",
            "object names are relative paths of [A-Za-z0-9._-] segments, at most 200 characters");
    };
    if (name.empty() || name.size() > 200 || name.front() == '/' || name.back() == '/') {
        return bad();
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        auto end = name.find('/', start);
        if (end == std::string::npos) end = name.size();
        const std::string segment = name.substr(start, end - start);
        if (segment.empty() || segment == "." || segment == "..") return bad();
        for (const char c : segment) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            if (!ok) return bad();
        }
        start = end + 1;
    }
    // A plugin's objects about a document live under the document's own prefix, so deleting
    // the document removes them (DocumentService::remove), whichever plugins are loaded.
    const std::string documents = "documents/";
    if (name.rfind(documents, 0) == 0) {
        const auto slash = name.find('/', documents.size());
        const std::string id = name.substr(documents.size(), slash - documents.size());
        if (slash == std::string::npos || !common::isUuid(id)) return bad();
        return documents + id + "/plugins/" + plugin + name.substr(slash);
    }
    return "plugins/" + plugin + "/" + name;
}

}  // namespace

plugin::Result<Json> list(PluginHostBackends& b, const plugin::Principal& p,
                          const std::string& workspace_id) {
    if (!b.documents()) return noDocuments();
    return b.documents()->list(p, workspace_id);
}

plugin::Result<Json> get(PluginHostBackends& b, const plugin::Principal& p,
                         const std::string& document_id) {
    if (!b.documents()) return noDocuments();
    return b.documents()->get(p, document_id);
}

plugin::Result<Json> chunks(PluginHostBackends& b, const plugin::Principal& p,
                            const std::string& document_id) {
    if (!b.documents()) return noDocuments();
    return b.documents()->chunks(p, document_id);
}

plugin::Result<Json> create(PluginHostBackends& b, const plugin::Principal& p,
                            const plugin::NewDocument& document) {
    if (!b.documents() || !b.uploads() || !b.objects()) return noDocuments();
    if (document.filename.empty() || document.content_type.empty() || document.bytes.empty()) {
        return plugin::Error::unprocessable("invalid_document",
                                            "a document needs a file name, a type and bytes");
    }
    const auto size = static_cast<std::int64_t>(document.bytes.size());
    auto session = b.uploads()->create(p, document.workspace_id,
                                       {{"filename", document.filename},
                                        {"content_type", document.content_type},
                                        {"file_size", size},
                                        {"redact_pii", document.redact_pii}});
    if (!session) return session.error();
    const std::string id = (*session)["doc_id"].get<std::string>();
    const std::string key = (*session)["storage_source_path"].get<std::string>();
    std::istringstream bytes(document.bytes);
    auto stored = b.objects()->put(key, bytes, size, document.content_type);
    if (!stored) return stored.error();
    auto completed = b.uploads()->complete(
        p, document.workspace_id,
        {{"doc_id", id}, {"storage_source_path", key}, {"redact_pii", document.redact_pii}});
    if (!completed) return completed.error();
    return b.documents()->get(p, id);
}

plugin::Result<Json> remove(PluginHostBackends& b, const plugin::Principal& p,
                            const std::string& document_id) {
    if (!b.documents()) return noDocuments();
    return b.documents()->remove(p, document_id);
}

plugin::Result<Json> createMediaUpload(PluginHostBackends& b, const plugin::Principal& p,
                                       const plugin::MediaUpload& upload) {
    if (!b.uploads()) return noDocuments();
    if (upload.filename.empty() || upload.content_type.empty() || upload.size <= 0 ||
        upload.doc_type.empty() || upload.max_bytes <= 0) {
        return plugin::Error::unprocessable(
            "invalid_upload", "a media upload needs a file name, a type, a size and a doc_type");
    }
    return b.uploads()->createMedia(p, upload.workspace_id,
                                    {{"filename", upload.filename},
                                     {"content_type", upload.content_type},
                                     {"file_size", upload.size},
                                     {"redact_pii", false}},
                                    upload.doc_type, upload.max_bytes);
}

plugin::Result<Json> completeUpload(PluginHostBackends& b, const plugin::Principal& p,
                                    const std::string& workspace_id, const Json& body) {
    if (!b.uploads()) return noDocuments();
    if (!body.is_object() || !body.contains("doc_id") || !body["doc_id"].is_string()) {
        return plugin::Error::unprocessable("invalid_upload", "completing needs the doc_id");
    }
    return b.uploads()->complete(p, workspace_id, body);
}

plugin::Result<std::string> documentFile(PluginHostBackends& b, const plugin::Principal& p,
                                         const std::string& document_id) {
    if (!b.documents()) return noDocuments();
    return b.documents()->mediaFile(p, document_id);
}

plugin::Status setState(PluginHostBackends& b, const plugin::Principal& p,
                        const std::string& document_id, const std::string& state,
                        const std::string& error_code, const std::string& message) {
    if (!b.documents()) return noDocuments();
    return b.documents()->setMediaState(p, document_id, state, error_code, message);
}

plugin::Status storeChunks(PluginHostBackends& b, const plugin::Principal& p,
                           const std::string& document_id,
                           const std::vector<plugin::TimedChunk>& chunks) {
    if (!b.documents()) return noDocuments();
    std::vector<storage::Chunk> rows;
    rows.reserve(chunks.size());
    for (const auto& c : chunks) {
        storage::Chunk row;
        row.text = c.text;
        row.section_path = c.section_path;
        if (c.timed) {
            row.start_seconds = c.start_seconds;
            row.end_seconds = std::max(c.start_seconds, c.end_seconds);
        }
        rows.push_back(std::move(row));
    }
    return b.documents()->storeMediaChunks(p, document_id, std::move(rows));
}

plugin::Status embed(PluginHostBackends& b, const plugin::Principal& p,
                     const std::string& document_id) {
    if (!b.documents() || !b.ingestion()) return noDocuments();
    if (auto ok = b.documents()->requireManage(p, document_id); !ok) return ok;
    return b.ingestion()->embedStored(document_id);
}

plugin::Result<std::string> recognizeText(const plugin::GrayImage& image) {
    if (!image.data || image.width <= 0 || image.height <= 0 || image.stride < image.width) {
        return plugin::Error::unprocessable("invalid_image", "an image needs pixels and a size");
    }
    ingest::GrayImage gray;
    gray.data = image.data;
    gray.width = image.width;
    gray.height = image.height;
    gray.stride = image.stride;
    gray.dpi = 96;  // a screen frame, not a scan
    return ingest::recognizeText(gray);
}

plugin::Result<Json> createPluginDocument(PluginHostBackends& b, const plugin::Principal& p,
                                          const plugin::PluginDocument& document) {
    if (!b.uploads()) return noDocuments();
    return b.uploads()->createPluginDocument(p, document);
}

plugin::Status writeText(PluginHostBackends& b, const plugin::Principal& p,
                         const std::string& document_id, const std::string& text,
                         const std::string& doc_type) {
    if (!b.documents()) return noDocuments();
    return b.documents()->writePluginText(p, document_id, text, doc_type);
}

plugin::Result<std::vector<std::string>> redactPii(const std::vector<std::string>& texts) {
    redact::Redactor redactor;
    std::vector<std::string> out;
    out.reserve(texts.size());
    for (const auto& text : texts) out.push_back(redactor.redact(text).text);
    return out;
}

plugin::Status ask(PluginHostBackends& b, const plugin::Principal& p,
                   const plugin::GroundedQuestion& question,
                   const std::function<bool(const Json&)>& emit) {
    if (!b.knowledge()) return noKnowledge();
    auto prepared = plan(*b.knowledge(), p, question);
    if (!prepared) return prepared.error();
    b.knowledge()->answer(*prepared, emit);
    return {};
}

plugin::Result<Json> retrieve(PluginHostBackends& b, const plugin::Principal& p,
                              const plugin::GroundedQuestion& question) {
    if (!b.knowledge()) return noKnowledge();
    auto prepared = plan(*b.knowledge(), p, question);
    if (!prepared) return prepared.error();
    return b.knowledge()->search(*prepared);
}

plugin::Result<std::vector<plugin::SupportVerdict>> checkSupport(
    PluginHostBackends& b, const std::vector<plugin::SupportClaim>& claims) {
    std::vector<knowledge::SupportChecker::Claim> asked;
    asked.reserve(claims.size());
    for (const auto& c : claims) asked.push_back({c.sentence, c.texts});
    auto judged = knowledge::SupportChecker(b.encoder()).judge(asked);
    if (!judged) return judged.error();
    std::vector<plugin::SupportVerdict> out;
    for (const auto& each : *judged) {
        plugin::SupportVerdict v;
        v.best_text = knowledge::SupportChecker::best(each);
        if (v.best_text >= 0) {
            const auto& s = each[static_cast<std::size_t>(v.best_text)];
            v.supported = s.supported;
            v.lexical = s.lexical;
            v.cosine = s.cosine;
        }
        out.push_back(v);
    }
    return out;
}

plugin::Result<Json> summarize(PluginHostBackends& b, const plugin::Principal& p,
                               const std::string& document_id, const Json& request) {
    if (!b.summaries()) return noKnowledge();
    return b.summaries()->summarizeDocument(
        p, document_id, request.is_object() ? request : Json::object(), common::newUuid());
}

plugin::Result<Json> putObject(PluginHostBackends& b, const std::string& plugin,
                               const std::string& name, const std::string& bytes,
                               const std::string& content_type) {
    if (!b.objects()) return noObjects();
    auto key = objectKey(plugin, name);
    if (!key) return key.error();
    std::istringstream in(bytes);
    auto stored =
        b.objects()->put(*key, in, static_cast<std::int64_t>(bytes.size()),
                         content_type.empty() ? "application/octet-stream" : content_type);
    if (!stored) return stored.error();
    return Json{{"name", name}, {"size", stored->size}, {"sha256", stored->sha256}};
}

plugin::Result<std::string> readObject(PluginHostBackends& b, const std::string& plugin,
                                       const std::string& name) {
    if (!b.objects()) return noObjects();
    auto key = objectKey(plugin, name);
    if (!key) return key.error();
    if (!b.objects()->stat(*key)) return plugin::Error::notFound("no such object");
    std::ifstream in(b.objects()->localPath(*key), std::ios::binary);
    if (!in) return plugin::Error::notFound("no such object");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

plugin::Status removeObject(PluginHostBackends& b, const std::string& plugin,
                            const std::string& name) {
    if (!b.objects()) return noObjects();
    auto key = objectKey(plugin, name);
    if (!key) return key.error();
    (void)b.objects()->remove(*key);
    return {};
}

plugin::Result<std::string> signedUploadUrl(PluginHostBackends& b, const std::string& plugin,
                                            const std::string& name,
                                            const std::string& content_type, std::int64_t size,
                                            int ttl_seconds) {
    if (!b.objects() || !b.signer()) return noObjects();
    auto key = objectKey(plugin, name);
    if (!key) return key.error();
    if (content_type.empty() || size <= 0 || ttl_seconds < 1 || ttl_seconds > 86400) {
        return plugin::Error::unprocessable(
            "invalid_upload",
            "a signed upload needs a content type, a size > 0 and a ttl 1..86400");
    }
    if (auto direct = b.objects()->presignedUrl("PUT", *key, content_type, size, ttl_seconds);
        !direct.empty()) {
        return direct;
    }
    objects::UploadGrant grant{"PUT", *key, common::nowEpochSeconds() + ttl_seconds, content_type,
                               size};
    return b.signer()->url(b.baseUrl(), grant);
}

plugin::Result<std::string> signedDownloadUrl(PluginHostBackends& b, const std::string& plugin,
                                              const std::string& name,
                                              const std::string& content_type, int ttl_seconds) {
    if (!b.objects() || !b.signer()) return noObjects();
    auto key = objectKey(plugin, name);
    if (!key) return key.error();
    if (ttl_seconds < 1 || ttl_seconds > 86400) {
        return plugin::Error::unprocessable("invalid_download",
                                            "a signed download needs a ttl 1..86400");
    }
    if (!b.objects()->stat(*key)) return plugin::Error::notFound("no such object");
    if (auto direct = b.objects()->presignedUrl("GET", *key, content_type, 0, ttl_seconds);
        !direct.empty()) {
        return direct;
    }
    objects::UploadGrant grant{"GET", *key, common::nowEpochSeconds() + ttl_seconds,
                               content_type.empty() ? "application/octet-stream" : content_type, 0};
    return b.signer()->url(b.baseUrl(), grant);
}

}  // namespace docintel::server::plugin_documents
