#include "storage/index_feed_repository.h"

#include <cstring>

#include "storage/pg_array.h"

namespace docintel::storage {
namespace {

constexpr Statement kWatermark{"index_watermark",
                               "SELECT pg_snapshot_xmin(pg_current_snapshot())::text"};
constexpr Statement kChanges{
    "index_changes_since",
    "SELECT document_id::text, xid::text FROM index_changes WHERE xid >= $1::xid8 ORDER BY id"};
constexpr Statement kSearchableIds{
    "index_searchable_ids",
    "SELECT id::text FROM documents WHERE status IN ('chunked', 'embedding', 'embedded') AND "
    "id > $1::uuid ORDER BY id LIMIT $2"};
constexpr Statement kLoad{
    "index_load_documents",
    "SELECT d.id::text, coalesce(d.workspace_id::text, ''), d.owner_id::text, c.chunk_index, "
    "c.text, coalesce(c.model, ''), c.embedding "
    "FROM documents d JOIN chunks c ON c.document_id = d.id "
    "WHERE d.id = ANY($1::uuid[]) AND d.status IN ('chunked', 'embedding', 'embedded') "
    "ORDER BY d.id, c.chunk_index"};

std::vector<IndexedDocument> loadIn(Tx& tx, const std::vector<std::string>& ids) {
    std::vector<IndexedDocument> out;
    if (ids.empty()) return out;
    for (const auto& r : tx.exec(kLoad, pgArray(ids))) {
        const auto id = r[0].as<std::string>();
        if (out.empty() || out.back().id != id) {
            out.push_back(IndexedDocument{
                id, indexScope(r[1].as<std::string>(), r[2].as<std::string>()), {}});
        }
        IndexedChunk c;
        c.chunk_index = r[3].as<int>();
        c.text = r[4].as<std::string>();
        c.model = r[5].as<std::string>();
        if (!r[6].is_null()) {
            const pqxx::binarystring bytes(r[6]);
            c.vector.resize(bytes.size() / sizeof(float));
            std::memcpy(c.vector.data(), bytes.data(), c.vector.size() * sizeof(float));
        }
        out.back().chunks.push_back(std::move(c));
    }
    return out;
}

}  // namespace

std::string indexScope(const std::string& workspace_id, const std::string& owner_id) {
    return workspace_id.empty() ? "p:" + owner_id : "w:" + workspace_id;
}

plugin::Result<FeedBatch> IndexFeedRepository::changesSince(std::uint64_t since) {
    return db_.read([&](Tx& tx) -> plugin::Result<FeedBatch> {
        // The watermark first: a row below it is then surely visible to the second statement.
        FeedBatch batch;
        batch.watermark = tx.exec(kWatermark)[0][0].as<std::uint64_t>();
        for (const auto& r : tx.exec(kChanges, std::to_string(since))) {
            batch.changes.push_back(FeedChange{r[0].as<std::string>(), r[1].as<std::uint64_t>()});
        }
        return batch;
    });
}

plugin::Result<std::vector<IndexedDocument>> IndexFeedRepository::load(
    const std::vector<std::string>& ids) {
    return db_.read(
        [&](Tx& tx) -> plugin::Result<std::vector<IndexedDocument>> { return loadIn(tx, ids); });
}

plugin::Result<std::uint64_t> IndexFeedRepository::scan(
    const std::function<plugin::Status(std::vector<IndexedDocument>&&)>& sink, int batch) {
    return db_.snapshot([&](Tx& tx) -> plugin::Result<std::uint64_t> {
        const auto watermark = tx.exec(kWatermark)[0][0].as<std::uint64_t>();
        std::string after = "00000000-0000-0000-0000-000000000000";
        for (;;) {
            std::vector<std::string> ids;
            for (const auto& r : tx.exec(kSearchableIds, after, batch)) {
                ids.push_back(r[0].as<std::string>());
            }
            if (ids.empty()) break;
            after = ids.back();
            if (auto s = sink(loadIn(tx, ids)); !s) return s.error();
        }
        return watermark;
    });
}

}  // namespace docintel::storage
