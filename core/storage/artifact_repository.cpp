#include "storage/artifact_repository.h"

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_ARTIFACT_COLUMNS                                                              \
    "id, artifact_type, title, content::text, status, owner_id, coalesce(workspace_id::text, " \
    "''), source_document_ids::text, coalesce(source_trace_id, ''), created_at, updated_at"

constexpr Statement kInsert{
    "artifact_insert",
    "INSERT INTO artifacts (id, artifact_type, title, content, status, owner_id, workspace_id, "
    "source_document_ids, source_trace_id) VALUES ($1, $2, $3, $4::jsonb, $5, $6, "
    "NULLIF($7, '')::uuid, $8::jsonb, NULLIF($9, '')) RETURNING " DOCINTEL_ARTIFACT_COLUMNS};
constexpr Statement kList{"artifact_list",
                          "SELECT " DOCINTEL_ARTIFACT_COLUMNS
                          " FROM artifacts WHERE "
                          "(($2 = '' AND owner_id = $1 AND workspace_id IS NULL) OR "
                          " ($2 <> '' AND workspace_id = NULLIF($2, '')::uuid)) "
                          "ORDER BY created_at DESC, id LIMIT $3"};

#undef DOCINTEL_ARTIFACT_COLUMNS

Artifact rowToArtifact(const pqxx::row& r) {
    Artifact a;
    a.id = r[0].as<std::string>();
    a.artifact_type = r[1].as<std::string>();
    a.title = r[2].as<std::string>();
    a.content = nlohmann::json::parse(r[3].c_str());
    a.status = r[4].as<std::string>();
    a.owner_id = r[5].as<std::string>();
    a.workspace_id = r[6].as<std::string>();
    a.source_document_ids = nlohmann::json::parse(r[7].c_str());
    a.source_trace_id = r[8].as<std::string>();
    a.created_at = isoTime(r[9]);
    a.updated_at = isoTime(r[10]);
    return a;
}

}  // namespace

plugin::Result<Artifact> ArtifactRepository::create(const Artifact& artifact) {
    Artifact a = artifact;
    if (a.id.empty()) a.id = common::newUuid();
    return db_.transact([&](Tx& tx) -> plugin::Result<Artifact> {
        return rowToArtifact(tx.exec(kInsert, a.id, a.artifact_type, a.title, a.content.dump(),
                                     a.status, a.owner_id, a.workspace_id,
                                     a.source_document_ids.dump(), a.source_trace_id)[0]);
    });
}

plugin::Result<std::vector<Artifact>> ArtifactRepository::list(const std::string& owner_id,
                                                               const std::string& workspace_id,
                                                               int limit) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Artifact>> {
        std::vector<Artifact> out;
        for (const auto& row : tx.exec(kList, owner_id, workspace_id, limit)) {
            out.push_back(rowToArtifact(row));
        }
        return out;
    });
}

}  // namespace docintel::storage
