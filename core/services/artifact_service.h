#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "plugin_api/http_types.h"
#include "plugin_api/result.h"
#include "storage/answer_trace_repository.h"
#include "storage/artifact_repository.h"
#include "storage/document_repository.h"

namespace docintel::services {

/// Generic artifacts (`/api/v1/artifacts`, decision 0056): typed JSON results a client keeps
/// in a scope with the documents and the answer trace they came from.
///
/// Authorization: listing a workspace's artifacts needs the workspace's read right; creating
/// one there needs the right to manage its documents (an artifact is shared content like a
/// document); the personal scope is the caller's own. Every source document must be visible
/// to the caller (else 404 `document_not_found`) and in the artifact's scope (else 409
/// `scope_mismatch`, so a team artifact never names a personal document); `source_trace_id`
/// must be a trace of the caller's own answers (else 404 `trace_not_found`). Thread-safe.
class ArtifactService {
  public:
    static constexpr int kListLimit = 500;
    static constexpr std::size_t kMaxContentBytes = 1 << 20;

    ArtifactService(storage::ArtifactRepository& artifacts, storage::DocumentRepository& documents,
                    const auth::DocumentAccess& access, storage::AnswerTraceRepository* traces)
        : artifacts_(artifacts), documents_(documents), access_(access), traces_(traces) {}

    /// POST /api/v1/artifacts (ArtifactInput, validated by the dispatcher) → the record (201).
    plugin::Result<nlohmann::json> create(const plugin::Principal& caller,
                                          const std::string& header_workspace,
                                          const nlohmann::json& body);
    /// GET /api/v1/artifacts: the scope's artifacts, newest first (at most kListLimit).
    plugin::Result<nlohmann::json> list(const plugin::Principal& caller,
                                        const std::string& workspace_id);

    static nlohmann::json toJson(const storage::Artifact& a);

  private:
    storage::ArtifactRepository& artifacts_;
    storage::DocumentRepository& documents_;
    const auth::DocumentAccess& access_;
    storage::AnswerTraceRepository* traces_;
};

}  // namespace docintel::services
