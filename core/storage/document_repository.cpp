#include "storage/document_repository.h"

#include "common/metrics.h"
#include "storage/event_repository.h"
#include "storage/job_repository.h"
#include "storage/pg_array.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_DOC_COLUMNS                                                                    \
    "d.id, d.owner_id, d.workspace_id, d.filename, d.content_type, d.declared_size, "           \
    "d.size_bytes, d.sha256, d.storage_key, d.detected_type, d.doc_type, d.status, "            \
    "d.error_code, d.error_message, d.pages, d.redact_pii, d.version, d.previous_document_id, " \
    "d.change_summary, d.changed_pages::text, NOT EXISTS (SELECT 1 FROM documents n WHERE "     \
    "n.previous_document_id = "                                                                 \
    "d.id), d.created_at, d.updated_at, d.doc_type_confidence"

constexpr Statement kInsert{
    "document_insert",
    "INSERT INTO documents AS d (id, owner_id, workspace_id, filename, content_type, "
    "declared_size, storage_key, status, redact_pii, detected_type, doc_type) VALUES ($1, $2, "
    "NULLIF($3, '')::uuid, $4, $5, $6, $7, 'uploading', $8, NULLIF($9, ''), NULLIF($10, '')) "
    "RETURNING " DOCINTEL_DOC_COLUMNS};
constexpr Statement kFind{"document_find",
                          "SELECT " DOCINTEL_DOC_COLUMNS " FROM documents d WHERE d.id = $1"};
constexpr Statement kListPersonal{
    "document_list_personal", "SELECT " DOCINTEL_DOC_COLUMNS
                              " FROM documents d WHERE d.owner_id = $1 AND d.workspace_id IS NULL "
                              "ORDER BY d.created_at DESC, d.id"};
constexpr Statement kListWorkspace{"document_list_workspace",
                                   "SELECT " DOCINTEL_DOC_COLUMNS
                                   " FROM documents d WHERE d.workspace_id = $1 "
                                   "ORDER BY d.created_at DESC, d.id"};
constexpr Statement kComplete{
    "document_complete_upload",
    "UPDATE documents SET size_bytes = $2, sha256 = $3, detected_type = $4, "
    "redact_pii = redact_pii OR $5, updated_at = now() "
    "WHERE id = $1 AND size_bytes IS NULL AND status = 'uploading'"};
constexpr Statement kStartEmbedding{"document_start_embedding",
                                    "UPDATE documents SET status = 'embedding', updated_at = now() "
                                    "WHERE id = $1 AND status IN ('chunked', 'embedded')"};
constexpr Statement kFail{
    "document_fail",
    "UPDATE documents SET status = 'error', error_code = $2, error_message = $3, "
    "updated_at = now() WHERE id = $1"};
constexpr Statement kSetStatus{
    "document_set_status",
    "UPDATE documents SET status = $2, error_code = NULL, error_message = NULL, "
    "updated_at = now() WHERE id = $1"};
constexpr Statement kDeleteChunks{"document_delete_chunks",
                                  "DELETE FROM chunks WHERE document_id = $1"};
constexpr Statement kInsertChunk{
    "document_insert_chunk",
    "INSERT INTO chunks (id, document_id, chunk_index, text, page_start, page_end, "
    "section_path, char_start, char_end, token_count, start_seconds, end_seconds) "
    "VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11)"};
constexpr Statement kSetChunked{
    "document_set_chunked",
    "UPDATE documents SET status = $2, pages = $3, error_code = NULL, error_message = NULL, "
    "updated_at = now() WHERE id = $1"};
/// What a document event says about its document (never its text).
constexpr Statement kEventFacts{
    "document_event_facts",
    "SELECT owner_id::text, coalesce(workspace_id::text, ''), filename, status, "
    "coalesce(error_code, ''), coalesce(pages, 0), "
    "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) FROM documents d WHERE id = $1"};
constexpr Statement kChunks{
    "document_chunks",
    "SELECT id, chunk_index, text, page_start, page_end, section_path::text, char_start, "
    "char_end, token_count, coalesce(model, ''), coalesce(model_version, ''), start_seconds, "
    "end_seconds FROM chunks "
    "WHERE document_id = $1 AND chunk_index >= $2 ORDER BY chunk_index LIMIT $3"};
constexpr Statement kPassages{
    "document_passages",
    "SELECT c.id, c.chunk_index, c.text, c.page_start, c.page_end, c.section_path::text, "
    "c.char_start, c.char_end, c.token_count, coalesce(c.model, ''), "
    "coalesce(c.model_version, ''), c.start_seconds, c.end_seconds, c.document_id::text, "
    "d.filename FROM chunks c "
    "JOIN documents d ON d.id = c.document_id "
    "JOIN unnest($1::uuid[], $2::int[]) AS k(document_id, chunk_index) "
    "ON k.document_id = c.document_id AND k.chunk_index = c.chunk_index"};
constexpr Statement kLinkVersion{
    "document_link_version",
    "UPDATE documents d SET previous_document_id = p.id, version = p.version + 1, "
    "change_summary = $3, changed_pages = $4::jsonb, updated_at = now() FROM documents p "
    "WHERE d.id = $1 AND p.id = $2"};
constexpr Statement kDescribeVersion{
    "document_describe_version",
    "UPDATE documents SET change_summary = $2, changed_pages = $3::jsonb, updated_at = now() "
    "WHERE id = $1"};
// Walk to the first version, then forward along successors.
constexpr Statement kVersionChain{
    "document_version_chain",
    "WITH RECURSIVE back AS (SELECT id, previous_document_id FROM documents WHERE id = $1 "
    "UNION ALL SELECT p.id, p.previous_document_id FROM documents p JOIN back b "
    "ON p.id = b.previous_document_id), "
    "root AS (SELECT id FROM back WHERE previous_document_id IS NULL), "
    "fwd AS (SELECT id FROM root UNION ALL SELECT n.id FROM documents n JOIN fwd f "
    "ON n.previous_document_id = f.id) "
    "SELECT " DOCINTEL_DOC_COLUMNS
    " FROM documents d JOIN fwd ON fwd.id = d.id "
    "ORDER BY d.version, d.created_at"};
constexpr Statement kStoreEmbedding{
    "document_store_embedding",
    "UPDATE chunks SET embedding = decode($3, 'hex'), model = $4, model_version = $5 "
    "WHERE document_id = $1 AND chunk_index = $2"};
constexpr Statement kSetClassification{
    "document_set_classification",
    "UPDATE documents SET doc_type = $2, doc_type_confidence = $3, updated_at = now() "
    "WHERE id = $1 AND (doc_type IS NULL OR doc_type_confidence IS NOT NULL)"};
constexpr Statement kStoreContent{
    "document_store_content",
    "UPDATE documents SET size_bytes = $2, sha256 = $3, doc_type = $4, doc_type_confidence = 1, "
    "updated_at = now() WHERE id = $1"};
// What answers kept of a deleted document goes with it: its sources and candidates leave the
// traces, and an answer that cited it (its text may quote the document) is replaced by a note.
constexpr Statement kScrubTraces{
    "document_scrub_traces",
    "UPDATE answer_traces SET "
    "answer = CASE WHEN sources @> jsonb_build_array(jsonb_build_object('document_id', $1::text)) "
    "THEN '' ELSE answer END, "
    "sentences = CASE WHEN sources @> jsonb_build_array(jsonb_build_object('document_id', "
    "$1::text)) THEN '[]'::jsonb ELSE sentences END, "
    "sources = coalesce((SELECT jsonb_agg(s) FROM jsonb_array_elements(sources) s "
    "WHERE s->>'document_id' IS DISTINCT FROM $1::text), '[]'::jsonb), "
    "candidates = coalesce((SELECT jsonb_agg(c) FROM jsonb_array_elements(candidates) c "
    "WHERE c->>'document_id' IS DISTINCT FROM $1::text), '[]'::jsonb), "
    "document_ids = coalesce((SELECT jsonb_agg(d) FROM jsonb_array_elements(document_ids) d "
    "WHERE d #>> '{}' IS DISTINCT FROM $1::text), '[]'::jsonb) "
    "WHERE document_ids @> to_jsonb($1::text) OR candidates @> "
    "jsonb_build_array(jsonb_build_object('document_id', $1::text))"};
constexpr Statement kScrubChatTurns{
    "document_scrub_chat_turns",
    "UPDATE chat_turns SET content = '(removed: this answer cited a deleted document)', "
    "citations = '[]'::jsonb "
    "WHERE citations @> jsonb_build_array(jsonb_build_object('document_id', $1::text))"};
constexpr Statement kDelete{"document_delete",
                            "DELETE FROM documents WHERE id = $1 RETURNING storage_key"};

#undef DOCINTEL_DOC_COLUMNS

Document rowToDocument(const pqxx::row& r) {
    Document d;
    d.id = r[0].as<std::string>();
    d.owner_id = r[1].as<std::string>();
    d.workspace_id = r[2].as<std::string>("");
    d.filename = r[3].as<std::string>();
    d.content_type = r[4].as<std::string>();
    d.declared_size = r[5].as<std::int64_t>();
    if (!r[6].is_null()) d.size_bytes = r[6].as<std::int64_t>();
    d.sha256 = r[7].as<std::string>("");
    d.storage_key = r[8].as<std::string>();
    d.detected_type = r[9].as<std::string>("");
    d.doc_type = r[10].as<std::string>("");
    d.status = r[11].as<std::string>();
    d.error_code = r[12].as<std::string>("");
    d.error_message = r[13].as<std::string>("");
    if (!r[14].is_null()) d.pages = r[14].as<int>();
    d.redact_pii = r[15].as<bool>();
    d.version = r[16].as<int>();
    d.previous_document_id = r[17].as<std::string>("");
    d.change_summary = r[18].as<std::string>();
    d.changed_pages = nlohmann::json::parse(r[19].c_str()).get<std::vector<int>>();
    d.is_latest = r[20].as<bool>();
    d.created_at = isoTime(r[21]);
    d.updated_at = isoTime(r[22]);
    if (!r[23].is_null()) d.doc_type_confidence = r[23].as<double>();
    return d;
}

/// A chunk from the columns of kChunks (the first thirteen).
Chunk rowToChunk(const pqxx::row& r) {
    Chunk c;
    c.id = r[0].as<std::string>();
    c.chunk_index = r[1].as<int>();
    c.text = r[2].as<std::string>();
    c.page_start = r[3].as<int>();
    c.page_end = r[4].as<int>();
    c.section_path = nlohmann::json::parse(r[5].c_str()).get<std::vector<std::string>>();
    c.char_start = r[6].as<int>();
    c.char_end = r[7].as<int>();
    c.token_count = r[8].as<int>();
    c.model = r[9].as<std::string>();
    c.model_version = r[10].as<std::string>();
    if (!r[11].is_null()) c.start_seconds = r[11].as<double>();
    if (!r[12].is_null()) c.end_seconds = r[12].as<double>();
    return c;
}

/// Emits `type` for document `id` in `tx` (the transaction of the change it reports).
void emitDocumentEvent(Tx& tx, const std::string& id, const char* type, bool by_owner = false) {
    const auto rows = tx.exec(kEventFacts, id);
    if (rows.empty()) return;
    const auto& r = rows[0];
    Event e;
    e.type = type;
    e.resource_type = "document";
    e.resource_id = id;
    e.user_id = r[0].as<std::string>();
    e.workspace_id = r[1].as<std::string>();
    if (by_owner) e.actor_id = e.user_id;
    e.payload = {{"document_id", id},
                 {"filename", r[2].as<std::string>()},
                 {"status", r[3].as<std::string>()},
                 {"chunk_count", r[6].as<long long>()}};
    if (r[5].as<int>() > 0) e.payload["pages"] = r[5].as<int>();
    if (!r[4].is_null() && !r[4].as<std::string>().empty()) {
        e.payload["error_code"] = r[4].as<std::string>();
    }
    EventRepository::emit(tx, e);
}

std::vector<Document> rowsToDocuments(const pqxx::result& rows) {
    std::vector<Document> out;
    out.reserve(rows.size());
    for (const auto& row : rows) out.push_back(rowToDocument(row));
    return out;
}

}  // namespace

plugin::Result<Document> DocumentRepository::create(const Document& d) {
    return db_.transact([&](Tx& tx) -> plugin::Result<Document> {
        return rowToDocument(tx.exec(kInsert, d.id, d.owner_id, d.workspace_id, d.filename,
                                     d.content_type, d.declared_size, d.storage_key, d.redact_pii,
                                     d.detected_type, d.doc_type)[0]);
    });
}

plugin::Result<std::optional<Document>> DocumentRepository::find(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Document>> {
        const auto rows = tx.exec(kFind, id);
        if (rows.empty()) return std::optional<Document>();
        return std::optional<Document>(rowToDocument(rows[0]));
    });
}

plugin::Result<std::vector<Document>> DocumentRepository::listPersonal(
    const std::string& owner_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Document>> {
        return rowsToDocuments(tx.exec(kListPersonal, owner_id));
    });
}

plugin::Result<std::vector<Document>> DocumentRepository::listWorkspace(
    const std::string& workspace_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Document>> {
        return rowsToDocuments(tx.exec(kListWorkspace, workspace_id));
    });
}

plugin::Result<bool> DocumentRepository::completeUpload(const std::string& id, std::int64_t size,
                                                        const std::string& sha256,
                                                        const std::string& detected_type,
                                                        const std::string& job_kind,
                                                        bool redact_pii) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kComplete, id, size, sha256, detected_type, redact_pii).affected_rows() == 0) {
            return false;
        }
        if (job_kind.empty()) {
            tx.exec(kSetStatus, id, "uploaded");  // a media document waits for its plugin
        } else {
            JobRepository::enqueue(tx, job_kind, {{"document_id", id}});
        }
        emitDocumentEvent(tx, id, "document.uploaded", true);
        return true;
    });
}

plugin::Result<std::string> DocumentRepository::requestEmbedding(const std::string& id,
                                                                 const std::string& job_kind) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> {
        if (tx.exec(kStartEmbedding, id).affected_rows() == 0) {
            return plugin::Error::conflict("not_chunked",
                                           "only chunked or embedded documents can be embedded");
        }
        return JobRepository::enqueue(tx, job_kind, {{"document_id", id}});
    });
}

plugin::Status DocumentRepository::fail(const std::string& id, const std::string& code,
                                        const std::string& message) {
    auto failed = toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDeleteChunks, id);  // a failed document has nothing to search or cite
        tx.exec(kFail, id, code, message);
        emitDocumentEvent(tx, id, "document.failed");
        return true;
    }));
    if (failed) {
        common::Metrics::instance().add("docintel_documents_failed_total",
                                        "Documents that ended in the error state, by code.",
                                        {{"code", code}});
    }
    return failed;
}

plugin::Status DocumentRepository::setClassification(const std::string& id,
                                                     const std::string& doc_type,
                                                     double confidence) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kSetClassification, id, doc_type, confidence);
        return true;
    }));
}

plugin::Status DocumentRepository::storeContent(const std::string& id, std::int64_t size,
                                                const std::string& sha256,
                                                const std::string& doc_type) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kStoreContent, id, size, sha256, doc_type);
        return true;
    }));
}

plugin::Status DocumentRepository::setStatus(const std::string& id, const std::string& status) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kSetStatus, id, status);
        return true;
    }));
}

plugin::Status DocumentRepository::startChunking(const std::string& id) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDeleteChunks, id);  // what an interrupted attempt stored
        tx.exec(kSetStatus, id, "chunking");
        return true;
    }));
}

plugin::Status DocumentRepository::appendChunks(const std::string& id,
                                                const std::vector<Chunk>& chunks) {
    if (chunks.empty()) return {};
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        for (const auto& c : chunks) {
            tx.exec(kInsertChunk, id, c.chunk_index, c.text, c.page_start, c.page_end,
                    nlohmann::json(c.section_path).dump(), c.char_start, c.char_end, c.token_count,
                    c.start_seconds, c.end_seconds);
        }
        return true;
    }));
}

plugin::Status DocumentRepository::finishChunking(const std::string& id, int pages,
                                                  const std::string& status) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kSetChunked, id, status, pages);
        emitDocumentEvent(tx, id, "document.chunked");
        return true;
    }));
}

plugin::Result<std::vector<Chunk>> DocumentRepository::chunks(const std::string& id,
                                                              int first_index, int count) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Chunk>> {
        std::vector<Chunk> out;
        for (const auto& r : tx.exec(kChunks, id, first_index, count)) {
            out.push_back(rowToChunk(r));
        }
        return out;
    });
}

plugin::Result<std::vector<Passage>> DocumentRepository::passages(
    const std::vector<std::pair<std::string, int>>& keys) {
    std::vector<std::string> document_ids, chunk_indexes;
    for (const auto& [document_id, chunk_index] : keys) {
        document_ids.push_back(document_id);
        chunk_indexes.push_back(std::to_string(chunk_index));
    }
    const std::string ids = pgArray(document_ids), indexes = pgArray(chunk_indexes);
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Passage>> {
        std::vector<Passage> out;
        for (const auto& r : tx.exec(kPassages, ids, indexes)) {
            out.push_back(Passage{r[13].as<std::string>(), r[14].as<std::string>(), rowToChunk(r)});
        }
        return out;
    });
}

plugin::Status DocumentRepository::linkVersion(const std::string& id,
                                               const std::string& previous_id,
                                               const std::string& change_summary,
                                               const std::vector<int>& changed_pages) {
    auto r = db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kLinkVersion, id, previous_id, change_summary,
                    nlohmann::json(changed_pages).dump())
                .affected_rows() == 0) {
            return plugin::Error{"document_not_found", "document not found", 404};
        }
        return true;
    });
    if (!r && r.error().code == "conflict") {
        return plugin::Error::conflict("version_conflict",
                                       "the previous document already has a newer version");
    }
    return toStatus(r);
}

plugin::Status DocumentRepository::describeVersion(const std::string& id,
                                                   const std::string& change_summary,
                                                   const std::vector<int>& changed_pages) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDescribeVersion, id, change_summary, nlohmann::json(changed_pages).dump());
        return true;
    }));
}

plugin::Result<std::vector<Document>> DocumentRepository::versionChain(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Document>> {
        return rowsToDocuments(tx.exec(kVersionChain, id));
    });
}

plugin::Status DocumentRepository::storeEmbeddings(const std::string& id, int first_index,
                                                   const std::vector<std::vector<float>>& vectors,
                                                   const std::string& model,
                                                   const std::string& model_version,
                                                   const std::string& status) {
    static const char* kHex = "0123456789abcdef";
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        std::string hex;
        for (std::size_t i = 0; i < vectors.size(); ++i) {
            const auto* bytes = reinterpret_cast<const unsigned char*>(vectors[i].data());
            const std::size_t n = vectors[i].size() * sizeof(float);
            hex.resize(n * 2);
            for (std::size_t b = 0; b < n; ++b) {
                hex[2 * b] = kHex[bytes[b] >> 4];
                hex[2 * b + 1] = kHex[bytes[b] & 15];
            }
            const int index = first_index + static_cast<int>(i);
            if (tx.exec(kStoreEmbedding, id, index, hex, model, model_version).affected_rows() !=
                1) {
                return plugin::Error::conflict("conflict", "the chunks changed while embedding");
            }
        }
        if (!status.empty()) tx.exec(kSetStatus, id, status);
        if (status == "embedded") emitDocumentEvent(tx, id, "document.embedded");
        return true;
    }));
}

plugin::Result<std::string> DocumentRepository::remove(const std::string& id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> {
        const auto rows = tx.exec(kDelete, id);
        if (rows.empty()) return plugin::Error::notFound("document not found");
        tx.exec(kScrubTraces, id);
        tx.exec(kScrubChatTurns, id);
        return rows[0][0].as<std::string>();
    });
}

}  // namespace docintel::storage
