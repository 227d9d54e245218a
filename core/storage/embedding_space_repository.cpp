#include "storage/embedding_space_repository.h"

#include <optional>

#include "storage/index_feed_repository.h"
#include "storage/job_repository.h"

namespace docintel::storage {
namespace {

constexpr Statement kScopeOf{
    "embedding_space_scope_of",
    "SELECT coalesce(workspace_id::text, ''), owner_id::text FROM documents WHERE id = $1"};
constexpr Statement kCreate{"embedding_space_create",
                            "INSERT INTO embedding_spaces (scope, model) VALUES ($1, $2) "
                            "ON CONFLICT (scope) DO NOTHING"};
constexpr Statement kLock{"embedding_space_lock",
                          "SELECT model FROM embedding_spaces WHERE scope = $1 FOR UPDATE"};
constexpr Statement kModel{"embedding_space_model",
                           "SELECT model FROM embedding_spaces WHERE scope = $1"};
constexpr Statement kMove{
    "embedding_space_move",
    "UPDATE embedding_spaces SET model = $2, updated_at = now() WHERE scope = $1"};
// The scope's other embedded documents: a workspace's, or the owner's personal ones.
constexpr Statement kOthers{
    "embedding_space_other_documents",
    "SELECT id::text FROM documents WHERE id <> $1 AND status = 'embedded' AND "
    "(CASE WHEN $2::text = '' THEN workspace_id IS NULL AND owner_id = $3::uuid "
    "ELSE workspace_id = nullif($2::text, '')::uuid END)"};

/// The document's scope (indexScope) and its parts; nullopt when the document is unknown.
struct Scope {
    std::string key;
    std::string workspace_id;
    std::string owner_id;
};

std::optional<Scope> scopeOf(Tx& tx, const std::string& document_id) {
    const auto rows = tx.exec(kScopeOf, document_id);
    if (rows.empty()) return std::nullopt;
    Scope s{"", rows[0][0].as<std::string>(), rows[0][1].as<std::string>()};
    s.key = indexScope(s.workspace_id, s.owner_id);
    return s;
}

plugin::Error notFound() { return plugin::Error{"document_not_found", "document not found", 404}; }

}  // namespace

plugin::Result<std::string> EmbeddingSpaceRepository::settle(const std::string& document_id,
                                                             const std::string& wanted,
                                                             const std::string& preferred,
                                                             const std::string& job_kind) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> {
        const auto scope = scopeOf(tx, document_id);
        if (!scope) return notFound();
        tx.exec(kCreate, scope->key, wanted);
        const auto model = tx.exec(kLock, scope->key)[0][0].as<std::string>();
        if (wanted != preferred || model == preferred) return model;
        tx.exec(kMove, scope->key, preferred);
        for (const auto& r : tx.exec(kOthers, document_id, scope->workspace_id, scope->owner_id)) {
            JobRepository::enqueue(tx, job_kind, {{"document_id", r[0].as<std::string>()}});
        }
        return preferred;
    });
}

plugin::Result<std::string> EmbeddingSpaceRepository::modelOf(const std::string& document_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::string> {
        const auto scope = scopeOf(tx, document_id);
        if (!scope) return notFound();
        const auto rows = tx.exec(kModel, scope->key);
        return rows.empty() ? std::string() : rows[0][0].as<std::string>();
    });
}

}  // namespace docintel::storage
