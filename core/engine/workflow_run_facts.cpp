// agent_mode's source of run results (docs/knowledge.md "agent_mode", decision 0055): the
// extracted fields of the runs a caller may read, over the documents a question selects.

#include <map>
#include <optional>
#include <set>

#include "engine/workflow_service.h"

namespace docintel::engine {
namespace {

/// Runs read per scope: the newest ones are the ones that matter.
constexpr int kRunsPerScope = 200;

/// Statuses whose packet is a finished extraction (running has none yet, failed none usable).
bool usable(const std::string& status) {
    return status == "pending_review" || status == "changes_requested" || status == "approved";
}

/// Every document id a run reads: `document_ids` and the strings of its inputs (the document
/// inputs hold ids; other strings never equal a document id).
std::set<std::string> runDocuments(const storage::WorkflowRun& run) {
    std::set<std::string> out;
    for (const auto& id : run.document_ids) {
        if (id.is_string()) out.insert(id.get<std::string>());
    }
    for (const auto& [_, value] : run.inputs.items()) {
        if (value.is_string()) out.insert(value.get<std::string>());
        if (value.is_array()) {
            for (const auto& v : value) {
                if (v.is_string()) out.insert(v.get<std::string>());
            }
        }
    }
    return out;
}

}  // namespace

plugin::Result<std::vector<knowledge::RunFact>> WorkflowService::runFacts(
    const plugin::Principal& caller, const knowledge::RunFactQuery& query) {
    const std::set<std::string> selected(query.document_ids.begin(), query.document_ids.end());
    std::vector<knowledge::RunFact> out;
    // A document a fact cites: its name when the caller may read it, nullopt when not.
    std::map<std::string, std::optional<std::string>> names;
    auto visibleName = [&](const std::string& id) -> plugin::Result<std::optional<std::string>> {
        if (const auto it = names.find(id); it != names.end()) return it->second;
        auto doc = p_.documents.find(id);
        if (!doc) return doc.error();
        std::optional<std::string> name;
        if (*doc &&
            p_.document_access.require(caller.user_id, **doc, auth::WorkspaceAction::kRead).ok()) {
            name = (*doc)->filename;
        }
        names[id] = name;
        return name;
    };

    std::set<std::string> scopes(query.workspace_ids.begin(), query.workspace_ids.end());
    for (const auto& scope : scopes) {
        auto runs = p_.runs.list(caller.user_id, scope, "", "", "", kRunsPerScope);
        if (!runs) return runs.error();
        std::set<std::string> workflows_seen;  // newest usable run of each workflow only
        for (const auto& run : *runs) {
            if (!usable(run.status) || !canRead(caller, run)) continue;
            if (!selected.empty()) {
                const auto docs = runDocuments(run);
                const bool over = std::any_of(docs.begin(), docs.end(), [&](const std::string& d) {
                    return selected.count(d) > 0;
                });
                if (!over) continue;
            }
            if (!workflows_seen.insert(run.workflow).second) continue;
            for (auto& fact : knowledge::packetFacts(run.packet)) {
                if (!fact.document_id.empty()) {
                    auto name = visibleName(fact.document_id);
                    if (!name) return name.error();
                    if (!*name) continue;  // never cite what the caller cannot read
                    fact.doc_name = **name;
                }
                fact.workflow = run.workflow;
                fact.vertical = run.vertical;
                fact.run_id = run.id;
                fact.status = run.status;
                fact.updated_at = run.updated_at;
                out.push_back(std::move(fact));
            }
        }
    }
    return out;
}

}  // namespace docintel::engine
