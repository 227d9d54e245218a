#include "services/upload_service.h"

#include <Poco/URI.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "common/clock.h"
#include "common/digest.h"
#include "common/id.h"
#include "common/log.h"
#include "ingest/type_sniffer.h"
#include "services/document_service.h"

namespace docintel::services {
namespace {

/// A file name safe as the last part of a storage key.
std::string safeName(const std::string& filename) {
    std::string out;
    for (const char c : filename) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        out += ok ? c : '_';
    }
    while (!out.empty() && out.front() == '.') out.erase(0, 1);
    if (out.empty()) out = "file";
    return out.substr(0, 120);
}

/// A new document row of `owner` in `scope`, its bytes stored under documents/<id>/.
storage::Document newRow(const std::string& owner, const std::string& scope,
                         const std::string& filename, const std::string& content_type) {
    storage::Document d;
    d.id = common::newUuid();
    d.owner_id = owner;
    d.workspace_id = scope;
    d.filename = filename;
    d.content_type = content_type;
    d.storage_key = "documents/" + d.id + "/" + safeName(filename);
    return d;
}

/// Whether the file starts like a video container: ISO media (MP4, MOV, M4V: an `ftyp`,
/// `moov`, `mdat`, `free` or `wide` box first), Matroska/WebM (EBML) or AVI (RIFF....AVI ).
bool looksLikeMedia(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[12] = {0};
    if (!in.read(head, sizeof head)) return false;
    const std::string box(head + 4, 4);
    if (box == "ftyp" || box == "moov" || box == "mdat" || box == "free" || box == "wide") {
        return true;
    }
    if (static_cast<unsigned char>(head[0]) == 0x1A &&
        static_cast<unsigned char>(head[1]) == 0x45 &&
        static_cast<unsigned char>(head[2]) == 0xDF &&
        static_cast<unsigned char>(head[3]) == 0xA3) {
        return true;
    }
    return std::string(head, 4) == "RIFF" && std::string(head + 8, 4) == "AVI ";
}

plugin::HttpResponse failure(int status, const std::string& code, const std::string& message) {
    return plugin::HttpResponse::json(status, {{"detail", message}, {"code", code}});
}

std::string workspaceOf(const nlohmann::json& body, const std::string& header_workspace) {
    const auto it = body.find("workspace_id");
    if (it != body.end() && it->is_string() && !it->get<std::string>().empty() &&
        it->get<std::string>() != "personal") {
        return it->get<std::string>();
    }
    return header_workspace;
}

}  // namespace

plugin::Result<nlohmann::json> UploadService::create(const plugin::Principal& caller,
                                                     const std::string& workspace_id,
                                                     const nlohmann::json& body) {
    return open(caller, workspace_id, body, "", limits_.max_bytes);
}

std::string UploadService::uploadUrl(const objects::UploadGrant& grant) const {
    // An S3 store signs its own PUT, so the bytes go straight to the bucket.
    const std::string direct =
        objects_.presignedUrl("PUT", grant.key, grant.content_type, grant.size,
                              static_cast<int>(grant.expires - common::nowEpochSeconds()));
    return direct.empty() ? signer_.url(base_url_, grant) : direct;
}

plugin::Result<nlohmann::json> UploadService::createMedia(const plugin::Principal& caller,
                                                          const std::string& workspace_id,
                                                          const nlohmann::json& body,
                                                          const std::string& doc_type,
                                                          std::int64_t max_bytes) {
    return open(caller, workspace_id, body, doc_type, max_bytes);
}

plugin::Result<nlohmann::json> UploadService::createPluginDocument(
    const plugin::Principal& caller, const plugin::PluginDocument& document) {
    if (document.filename.empty() || document.doc_type.empty()) {
        return plugin::Error::unprocessable("invalid_document",
                                            "a plugin document needs a file name and a doc_type");
    }
    auto scope = access_.scope(caller.user_id, document.workspace_id,
                               auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();
    storage::Document d =
        newRow(caller.user_id, *scope, document.filename,
               document.content_type.empty() ? "text/plain" : document.content_type);
    d.redact_pii = document.redact_pii;
    d.doc_type = document.doc_type;
    d.detected_type = kPluginTextType;
    if (auto created = documents_.create(d); !created) return created.error();
    if (auto ok = documents_.setStatus(d.id, "uploaded"); !ok) return ok.error();
    auto stored = documents_.find(d.id);
    if (!stored) return stored.error();
    if (!stored->has_value()) return plugin::Error::notFound("document not found");
    return DocumentService::toJson(**stored);
}

plugin::Result<nlohmann::json> UploadService::open(const plugin::Principal& caller,
                                                   const std::string& workspace_id,
                                                   const nlohmann::json& body,
                                                   const std::string& doc_type,
                                                   std::int64_t max_bytes) {
    const std::int64_t size = body["file_size"].get<std::int64_t>();
    if (size > max_bytes) {
        return plugin::Error{"file_too_large",
                             "files may be at most " + std::to_string(max_bytes) + " bytes", 413};
    }
    auto scope = access_.scope(caller.user_id, workspaceOf(body, workspace_id),
                               auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();

    storage::Document d = newRow(caller.user_id, *scope, body["filename"].get<std::string>(),
                                 body["content_type"].get<std::string>());
    d.declared_size = size;
    d.redact_pii = body.value("redact_pii", false);
    if (!doc_type.empty()) {
        d.doc_type = doc_type;
        d.detected_type = kMediaType;
    }
    auto created = documents_.create(d);
    if (!created) return created.error();

    objects::UploadGrant grant{"PUT", d.storage_key,
                               common::nowEpochSeconds() + limits_.url_ttl_seconds, d.content_type,
                               size};
    return nlohmann::json{{"doc_id", d.id},
                          {"document_id", d.id},
                          {"upload_url", uploadUrl(grant)},
                          {"upload_method", "PUT"},
                          {"upload_headers", {{"Content-Type", d.content_type}}},
                          {"storage_source_path", d.storage_key},
                          {"gcs_source_path", d.storage_key},
                          {"expires_at", common::isoFromEpoch(grant.expires)},
                          {"max_size", max_bytes},
                          {"status", created->status}};
}

plugin::HttpResponse UploadService::receive(const std::string& method, const std::string& path,
                                            const std::string& query,
                                            const std::string& content_type,
                                            std::int64_t content_length, std::istream& body) {
    if (method != "PUT" && method != "GET") {
        return failure(405, "method_not_allowed", "objects accept a signed PUT or GET");
    }
    objects::UploadGrant grant;
    grant.method = method;
    std::string signature;
    try {
        Poco::URI::decode(path.substr(std::string("/objects/").size()), grant.key);
        Poco::URI uri("/?" + query);
        for (const auto& [k, v] : uri.getQueryParameters()) {
            if (k == "expires") grant.expires = std::stoll(v);
            if (k == "size") grant.size = std::stoll(v);
            if (k == "content_type") grant.content_type = v;
            if (k == "signature") signature = v;
        }
    } catch (const std::exception&) {
        return failure(403, "invalid_signature", "malformed upload URL");
    }
    if (signature.empty() || !signer_.verify(grant, signature)) {
        return failure(403, "invalid_signature", "the upload URL signature does not match");
    }
    if (grant.expires < common::nowEpochSeconds()) {
        return failure(403, "upload_url_expired", "the upload URL has expired");
    }
    if (method == "GET") return serve(grant);
    if (content_type != grant.content_type) {
        return failure(400, "content_type_mismatch", "Content-Type must be " + grant.content_type);
    }
    if (content_length >= 0 && content_length != grant.size) {
        return failure(400, "size_mismatch",
                       "Content-Length must be the declared size " + std::to_string(grant.size));
    }
    auto stored = objects_.put(grant.key, body, grant.size, grant.content_type);
    if (!stored)
        return failure(stored.error().http_status, stored.error().code, stored.error().message);
    return plugin::HttpResponse::json(
        200, {{"stored", true}, {"size", stored->size}, {"sha256", stored->sha256}});
}

plugin::HttpResponse UploadService::serve(const objects::UploadGrant& grant) const {
    std::ifstream in(objects_.localPath(grant.key), std::ios::binary);
    if (!objects_.stat(grant.key) || !in) return failure(404, "not_found", "no such object");
    plugin::HttpResponse r;
    r.status = 200;
    r.content_type = grant.content_type.empty() ? "application/octet-stream" : grant.content_type;
    r.raw_body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    r.headers.emplace_back("Cache-Control", "private, max-age=60");
    return r;
}

plugin::Result<nlohmann::json> UploadService::complete(const plugin::Principal& caller,
                                                       const std::string& workspace_id,
                                                       const nlohmann::json& body) {
    std::string path = body.value("storage_source_path", "");
    if (path.empty()) path = body.value("gcs_source_path", "");
    const std::string id = body["doc_id"].get<std::string>();
    if (!common::isUuid(id)) return plugin::Error{"document_not_found", "document not found", 404};
    auto found = documents_.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return plugin::Error{"document_not_found", "document not found", 404};
    const storage::Document& d = **found;
    if (auto ok = access_.require(caller.user_id, d, auth::WorkspaceAction::kManageDocuments);
        !ok) {
        return ok.error();
    }
    if (path != d.storage_key) {
        return plugin::Error::conflict("storage_path_mismatch",
                                       "storage_source_path does not belong to this document");
    }
    if (d.size_bytes || d.status != "uploading") {
        nlohmann::json j = {{"doc_id", d.id},
                            {"document_id", d.id},
                            {"status", d.status},
                            {"already_completed", true}};
        return j;
    }
    auto info = objects_.stat(d.storage_key);
    if (!info) {
        return plugin::Error::conflict("upload_missing",
                                       "no bytes were uploaded for this document");
    }
    if (info->sha256.empty()) {
        // The client PUT the bytes straight to an S3 bucket: the digest is ours to compute,
        // from the local copy the parsers read anyway.
        info->sha256 = common::sha256FileHex(objects_.localPath(d.storage_key));
    }
    if (const std::string claimed = body.value("sha256", std::string());
        !claimed.empty() && claimed != info->sha256) {
        return plugin::Error::conflict("checksum_mismatch",
                                       "the stored object's SHA-256 is not the one sent");
    }
    if (info->size != d.declared_size) {
        return plugin::Error::conflict("size_mismatch", "the stored object has another size");
    }
    if (d.detected_type == kMediaType) return completeMedia(d, *info);
    const ingest::DocumentType type =
        ingest::sniff(objects_.localPath(d.storage_key), d.content_type, d.filename);
    const std::string type_name = ingest::toString(type);
    if (type == ingest::DocumentType::kUnknown || type == ingest::DocumentType::kLegacyOffice) {
        const std::string message = "files of type '" + type_name +
                                    "' are not supported; accepted: PDF, DOCX, PPTX, XLSX, ODT, "
                                    "HTML, EML, TXT, MD, CSV, RTF";
        (void)documents_.fail(d.id, "unsupported_type", message);
        return plugin::Error{"unsupported_type", message, 415};
    }
    auto done = documents_.completeUpload(d.id, info->size, info->sha256, type_name, kIngestJob,
                                          body.value("redact_pii", false));
    if (!done) return done.error();
    common::log(common::LogLevel::kInfo, "upload_completed",
                {{"document_id", d.id}, {"type", type_name}});
    return nlohmann::json{{"doc_id", d.id},
                          {"document_id", d.id},
                          {"status", "uploading"},
                          {"detected_type", type_name},
                          {"size", info->size},
                          {"sha256", info->sha256},
                          {"already_completed", !*done}};
}

plugin::Result<nlohmann::json> UploadService::completeMedia(const storage::Document& d,
                                                            const objects::ObjectInfo& info) {
    if (!looksLikeMedia(objects_.localPath(d.storage_key))) {
        const std::string message =
            "the uploaded bytes are not a video container (MP4, MOV, M4V, MKV, WebM, AVI)";
        (void)documents_.fail(d.id, "unsupported_type", message);
        return plugin::Error{"unsupported_type", message, 415};
    }
    auto done = documents_.completeUpload(d.id, info.size, info.sha256, kMediaType, "", false);
    if (!done) return done.error();
    common::log(common::LogLevel::kInfo, "upload_completed",
                {{"document_id", d.id}, {"type", d.doc_type}});
    return nlohmann::json{{"doc_id", d.id},
                          {"document_id", d.id},
                          {"status", "uploaded"},
                          {"doc_type", d.doc_type},
                          {"size", info.size},
                          {"sha256", info.sha256},
                          {"already_completed", !*done}};
}

}  // namespace docintel::services
