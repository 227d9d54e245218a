// Workflow runs as sources of an answer (docs/knowledge.md "agent_mode: workflow run results in
// answers"): the run fields chosen for a question join the retrieved passages, and citations of
// them name their run.

#include "common/log.h"
#include "knowledge/knowledge_service.h"

namespace docintel::knowledge {

void KnowledgeService::addRunSources(const QueryPlan& plan, Ranked& ranked) const {
    if (plan.agent_mode == "off" || !run_facts_) return;
    // Runs are read under workflows:read like GET .../runs: a token without it sees none.
    if (!plan.caller.hasScope("workflows:read")) {
        ranked.agent_note = "agent_mode needs the scope workflows:read to add workflow runs";
        return;
    }
    auto facts =
        run_facts_(plan.caller, RunFactQuery{plan.run_workspaces, plan.scope.document_ids});
    if (!facts) {
        common::log(common::LogLevel::kWarning, "agent_runs_unavailable",
                    {{"trace_id", plan.trace_id}, {"reason", facts.error().message}});
        ranked.agent_note = "workflow runs could not be read";
        return;
    }
    std::vector<RunFact> all = std::move(facts).value();
    const auto chosen = chooseRunFacts(plan.agent_mode, plan.analysis, all, options_.run_sources);
    std::map<std::string, std::size_t> run_index;  // run_id → agent_runs entry
    for (const std::size_t i : chosen) {
        RunFact& fact = all[i];
        const int number = static_cast<int>(ranked.sources.size()) + 1;
        storage::Passage passage;
        passage.document_id = fact.document_id;
        passage.filename = fact.doc_name;
        passage.chunk.id = fact.chunk_id;
        passage.chunk.chunk_index = -1;
        passage.chunk.text = runFactText(fact);
        passage.chunk.page_start = fact.page;
        passage.chunk.page_end = fact.page;
        passage.chunk.char_start = 0;
        passage.chunk.char_end = static_cast<int>(passage.chunk.text.size());
        ranked.sources.push_back(Source{number, std::move(passage)});
        auto [at, added] = run_index.emplace(fact.run_id, ranked.agent_runs.size());
        if (added) {
            ranked.agent_runs.push_back({{"run_id", fact.run_id},
                                         {"workflow", fact.workflow},
                                         {"vertical", fact.vertical},
                                         {"status", fact.status},
                                         {"fields", nlohmann::json::array()},
                                         {"source_numbers", nlohmann::json::array()}});
        }
        ranked.agent_runs[at->second]["fields"].push_back(fact.field);
        ranked.agent_runs[at->second]["source_numbers"].push_back(number);
        ranked.runs.push_back(std::move(fact));
    }
}

void KnowledgeService::annotateRunCitations(const Ranked& ranked, const nlohmann::json& sources,
                                            nlohmann::json& citations) {
    for (auto& c : citations) {
        const int n = c.value("source_number", 0);
        const auto run = static_cast<std::size_t>(n - 1) - ranked.scores.size();
        if (n < 1 || static_cast<std::size_t>(n - 1) < ranked.scores.size() ||
            run >= ranked.runs.size()) {
            continue;
        }
        const RunFact& f = ranked.runs[run];
        c["type"] = "workflow_run";
        c["run_id"] = f.run_id;
        c["workflow"] = f.workflow;
        c["field"] = f.field;
        c["value"] = sources[static_cast<std::size_t>(n - 1)]["value"];  // as shown (redacted)
        c["chunk_index"] = nullptr;
    }
}

}  // namespace docintel::knowledge
