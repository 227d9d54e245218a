#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "embed/sentence_encoder.h"
#include "knowledge/extractive_answerer.h"
#include "knowledge/reranker.h"
#include "plugin_api/http_types.h"
#include "search/hybrid_retriever.h"
#include "storage/answer_trace_repository.h"
#include "storage/document_repository.h"

namespace docintel::knowledge {

/// A question checked and resolved to what the caller may search.
struct QueryPlan {
    std::string question;
    std::string retrieval_query;  ///< the question with the context a follow-up needs
    search::SearchScope scope;
    bool redact_pii = false;
    std::string response_language;
    std::string agent_mode = "auto";
    std::string trace_id;
    std::string user_id;       ///< who asks (the trace's owner)
    std::string workspace_id;  ///< the scope's workspace ("" = personal), for the trace
    std::string session_id;    ///< the chat session asked in, if any (recorded in the trace)
};

struct KnowledgeOptions {
    int sources = 6;             ///< sources an answer may cite
    int rerank_candidates = 20;  ///< fused candidates re-ranked
    search::RetrievalOptions retrieval;
    RerankWeights rerank;
};

/// Grounded question answering over the documents a caller may see: hybrid retrieval,
/// re-ranking with near-duplicate suppression, then the extractive answerer. Frames are the
/// SSE payloads of ARCHITECTURE.md §7 (`sources`, `token`, `done`, `error`); REST streams them
/// and MCP collects them. Thread-safe.
class KnowledgeService {
  public:
    KnowledgeService(storage::DocumentRepository& documents, const auth::DocumentAccess& access,
                     const search::HybridRetriever& retriever,
                     const embed::SentenceEncoder* encoder, KnowledgeOptions options = {});

    /// Checks a ChatRequest: every named document visible (else 404, nothing about it told)
    /// and searchable (`document_not_ready` 409); no documents named = the whole scope
    /// (`workspace_id` of the body, else of the header, else personal).
    plugin::Result<QueryPlan> prepare(const plugin::Principal& caller,
                                      const std::string& header_workspace,
                                      const nlohmann::json& request, const std::string& trace_id);

    /// Answers, calling `emit` with each frame; stops early when `emit` returns false.
    void answer(const QueryPlan& plan, const std::function<bool(const nlohmann::json&)>& emit);

    /// The ranked sources only (search_knowledgebase).
    plugin::Result<nlohmann::json> search(const QueryPlan& plan);

    /// Where every answer's trace is stored (docs/knowledge.md "Traces and evaluations");
    /// null = not stored. Set once before serving.
    void setTraceStore(storage::AnswerTraceRepository* traces) { traces_ = traces; }

  private:
    struct Ranked {
        std::vector<Source> sources;
        std::vector<search::Candidate> scores;  ///< per source, same order
        std::vector<float> question_vector;
        std::vector<search::Candidate> retrieved;  ///< fused order, re-rank scores set
    };
    plugin::Result<Ranked> rank(const QueryPlan& plan);
    static nlohmann::json sourcesJson(const Ranked& ranked);

    storage::DocumentRepository& documents_;
    const auth::DocumentAccess& access_;
    const search::HybridRetriever& retriever_;
    const embed::SentenceEncoder* encoder_;
    const KnowledgeOptions options_;
    const ExtractiveAnswerer answerer_;
    storage::AnswerTraceRepository* traces_ = nullptr;
};

}  // namespace docintel::knowledge
