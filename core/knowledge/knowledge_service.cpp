#include "knowledge/knowledge_service.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"
#include "knowledge/reranker.h"
#include "redact/pii_redactor.h"
#include "storage/index_feed_repository.h"

namespace docintel::knowledge {
namespace {

/// A follow-up this short borrows the previous question's words for retrieval.
constexpr std::size_t kFollowUpWords = 6;
/// Sources whose content words overlap this much with a better one are near-duplicates.
constexpr double kDuplicateJaccard = 0.8;

double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
    if (a.empty() && b.empty()) return 1;
    std::size_t shared = 0;
    for (const auto& w : a) shared += b.count(w);
    return static_cast<double>(shared) / static_cast<double>(a.size() + b.size() - shared);
}

nlohmann::json optionalScore(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

/// Where byte `offset` of an original text falls in its redacted form (`spans` from
/// Redactor::redact of that text); an offset inside a replaced span moves to the placeholder's
/// start, or its end when `is_end`.
int shownOffset(int offset, const std::vector<redact::PiiSpan>& spans, bool is_end) {
    long delta = 0;
    for (const auto& sp : spans) {
        const auto start = static_cast<long>(sp.start);
        const auto end = static_cast<long>(sp.end);
        const auto shown = static_cast<long>(sp.placeholder.size());
        if (end <= offset) {
            delta += shown - (end - start);
        } else if (start < offset) {
            return static_cast<int>(start + delta + (is_end ? shown : 0));
        } else {
            break;
        }
    }
    return static_cast<int>(offset + delta);
}

/// With redact_pii, a run source's own texts (its value, the field's excerpt) are redacted
/// like its excerpt, by the same redactor.
void redactRunSource(redact::Redactor& redactor, nlohmann::json& source) {
    if (source.value("type", "") != "workflow_run") return;
    auto& value = source["value"];
    if (value.is_string()) {
        value = redactor.redact(value.get<std::string>()).text;
    } else if (value.is_array()) {
        for (auto& v : value) {
            if (v.is_string()) v = redactor.redact(v.get<std::string>()).text;
        }
    } else if (!value.is_number() && !value.is_boolean()) {
        value = redactor.redact(value.dump()).text;
    }
    source["field_excerpt"] = redactor.redact(source["field_excerpt"].get<std::string>()).text;
}

}  // namespace

KnowledgeService::KnowledgeService(storage::DocumentRepository& documents,
                                   const auth::DocumentAccess& access,
                                   const search::HybridRetriever& retriever,
                                   const embed::EncoderSet& encoders, KnowledgeOptions options)
    : documents_(documents),
      access_(access),
      retriever_(retriever),
      encoders_(encoders),
      encoder_(encoders.primary()),
      options_(options),
      support_(encoder_) {}

plugin::Result<QueryPlan> KnowledgeService::prepare(const plugin::Principal& caller,
                                                    const std::string& header_workspace,
                                                    const nlohmann::json& request,
                                                    const std::string& trace_id) {
    QueryPlan plan;
    plan.question = request.value("question", "");
    plan.redact_pii = request.value("redact_pii", false);
    plan.agent_mode = request.value("agent_mode", "auto");
    if (request.contains("response_language") && request["response_language"].is_string()) {
        plan.response_language = request["response_language"].get<std::string>();
    }
    plan.trace_id = trace_id;
    plan.user_id = caller.user_id;
    plan.caller = caller;

    const auto& ids = request.value("document_ids", nlohmann::json::array());
    std::int64_t latest_change = -1;
    for (const auto& id_json : ids) {
        const std::string id = id_json.get<std::string>();
        if (!common::isUuid(id))
            return plugin::Error{"document_not_found", "document not found", 404};
        auto doc = documents_.find(id);
        if (!doc) return doc.error();
        if (!*doc) return plugin::Error{"document_not_found", "document not found", 404};
        if (auto allowed = access_.require(caller.user_id, **doc, auth::WorkspaceAction::kAsk);
            !allowed) {
            return allowed.error();
        }
        const auto& status = (*doc)->status;
        if (status != "chunked" && status != "embedding" && status != "embedded") {
            return plugin::Error::conflict(
                "document_not_ready",
                "document " + id + " is " + status + "; it can be asked about once it is chunked");
        }
        plan.scope.document_ids.push_back(id);
        latest_change = std::max(latest_change, common::epochSecondsFromIso((*doc)->updated_at));
        if (plan.workspace_id.empty()) plan.workspace_id = (*doc)->workspace_id;
        if (std::find(plan.run_workspaces.begin(), plan.run_workspaces.end(),
                      (*doc)->workspace_id) == plan.run_workspaces.end()) {
            plan.run_workspaces.push_back((*doc)->workspace_id);
        }
    }
    if (index_catch_up_ && latest_change >= 0) index_catch_up_(latest_change);
    if (plan.scope.document_ids.empty()) {
        std::string workspace = header_workspace;
        if (request.contains("workspace_id") && request["workspace_id"].is_string()) {
            workspace = request["workspace_id"].get<std::string>();
        }
        auto scope = access_.scope(caller.user_id, workspace, auth::WorkspaceAction::kAsk);
        if (!scope) return scope.error();
        plan.scope.scope = storage::indexScope(*scope, caller.user_id);
        plan.workspace_id = *scope;
        plan.run_workspaces = {*scope};
    }

    // A short follow-up ("and its side effects?") is retrieved with the last question's words.
    plan.analysis = analyseQuestion(plan.question);
    plan.retrieval_query = plan.question;
    if (plan.analysis.words.size() <= kFollowUpWords) {
        const auto& history = request.value("history", nlohmann::json::array());
        for (auto it = history.rbegin(); it != history.rend(); ++it) {
            if (it->is_object() && it->value("role", "") == "user" && it->contains("content") &&
                (*it)["content"].is_string()) {
                plan.retrieval_query = (*it)["content"].get<std::string>() + " " + plan.question;
                break;
            }
        }
    }
    plan.retrieval_analysis = plan.retrieval_query == plan.question
                                  ? plan.analysis
                                  : analyseQuestion(plan.retrieval_query);
    return plan;
}

plugin::Result<KnowledgeService::Ranked> KnowledgeService::rank(const QueryPlan& plan) {
    Ranked ranked;
    // The question is encoded by the model of the scope's vectors (decision 0075).
    auto models = retriever_.modelsIn(plan.scope);
    if (models.empty() && encoder_) models.push_back(encoder_->modelName());
    for (const auto& model : models) {
        const embed::SentenceEncoder* encoder = encoders_.find(model);
        if (!encoder) continue;
        auto v = encoder->encodeQueries({plan.retrieval_query}, 1);
        if (!v) return v.error();
        if (!ranked.encoder || model == embed::EncoderSet::kMultilingualModel) {
            ranked.encoder = encoder;
            ranked.question_vector = (*v)[0];
        }
        ranked.query[model] = std::move((*v)[0]);
    }
    auto retrieved =
        retriever_.retrieve(plan.retrieval_query, ranked.query, plan.scope, options_.retrieval);
    if (!retrieved) return retrieved.error();
    std::vector<search::Candidate> candidates = std::move(retrieved).value();
    if (static_cast<int>(candidates.size()) > options_.rerank_candidates) {
        candidates.resize(static_cast<std::size_t>(options_.rerank_candidates));
    }
    std::vector<std::pair<std::string, int>> keys;
    for (const auto& c : candidates) keys.emplace_back(c.document_id, c.chunk_index);
    auto passages = documents_.passages(keys);
    if (!passages) return passages.error();

    // Re-rank (reranker.h) the candidates whose passages still exist.
    struct Scored {
        search::Candidate candidate;
        storage::Passage passage;
        std::set<std::string> words;
    };
    std::map<std::pair<std::string, int>, storage::Passage*> by_key;
    for (auto& p : passages.value()) by_key[{p.document_id, p.chunk.chunk_index}] = &p;
    std::vector<search::Candidate> present;
    std::vector<storage::Passage*> present_passages;
    std::vector<std::set<std::string>> words;
    for (auto& c : candidates) {
        const auto p = by_key.find({c.document_id, c.chunk_index});
        if (p == by_key.end()) continue;  // deleted since it was indexed
        present.push_back(c);
        present_passages.push_back(p->second);
        words.push_back(refusalWords(p->second->chunk.text));
    }
    const auto order = rerank(plan.retrieval_analysis, present, words, options_.rerank);
    std::vector<Scored> scored;
    scored.reserve(order.size());
    for (const std::size_t i : order) {
        scored.push_back(Scored{present[i], std::move(*present_passages[i]), std::move(words[i])});
    }
    ranked.retrieved = present;  // with their re-rank scores, for the trace
    std::vector<const Scored*> kept;
    for (const auto& s : scored) {
        if (static_cast<int>(kept.size()) >= options_.sources) break;
        const bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const Scored* k) {
            return jaccard(k->words, s.words) >= kDuplicateJaccard;
        });
        if (!duplicate) kept.push_back(&s);
    }
    for (std::size_t i = 0; i < kept.size(); ++i) {
        ranked.sources.push_back(Source{static_cast<int>(i) + 1, kept[i]->passage});
        ranked.scores.push_back(kept[i]->candidate);
    }
    addRunSources(plan, ranked);
    return ranked;
}

nlohmann::json KnowledgeService::sourcesJson(const Ranked& ranked) {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < ranked.scores.size(); ++i) {
        const auto& s = ranked.sources[i];
        const auto& c = ranked.scores[i];
        auto source = sourceJson(s, s.passage.chunk.text);
        source["type"] = "document";
        source["similarity"] = optionalScore(c.similarity);
        source["bm25"] = optionalScore(c.bm25);
        source["rerank_score"] = c.rerank_score;
        source["match_type"] = c.match_type;
        out.push_back(std::move(source));
    }
    // agent_mode's run fields: the fact as the excerpt, the field's own citation as
    // document_id/page/chunk_id (document_id null when a reviewer typed the value).
    for (std::size_t r = 0; r < ranked.runs.size(); ++r) {
        const auto& s = ranked.sources[ranked.scores.size() + r];
        const RunFact& f = ranked.runs[r];
        auto source = sourceJson(s, s.passage.chunk.text);
        source["type"] = "workflow_run";
        if (f.document_id.empty()) source["document_id"] = nullptr;
        source["chunk_index"] = nullptr;
        source["chunk_id"] = f.chunk_id.empty() ? nlohmann::json() : nlohmann::json(f.chunk_id);
        source["workflow"] = f.workflow;
        source["vertical"] = f.vertical;
        source["run_id"] = f.run_id;
        source["status"] = f.status;
        source["field"] = f.field;
        source["label"] = f.label;
        source["value"] = f.value;
        source["confidence"] = f.confidence;
        source["field_excerpt"] = f.excerpt;
        source["similarity"] = nullptr;
        source["bm25"] = nullptr;
        source["rerank_score"] = nullptr;
        source["match_type"] = "workflow_run";
        out.push_back(std::move(source));
    }
    return out;
}

plugin::Result<nlohmann::json> KnowledgeService::search(const QueryPlan& plan) {
    auto ranked = rank(plan);
    if (!ranked) return ranked.error();
    nlohmann::json sources = sourcesJson(*ranked);
    if (plan.redact_pii) {
        redact::Redactor redactor;
        for (auto& source : sources) {
            source["excerpt"] = redactor.redact(source["excerpt"].get<std::string>()).text;
            redactRunSource(redactor, source);
        }
    }
    nlohmann::json out{{"question", plan.question},
                       {"sources", std::move(sources)},
                       {"redacted", plan.redact_pii},
                       {"agent_mode", plan.agent_mode},
                       {"agent_runs", ranked->agent_runs}};
    if (!ranked->agent_note.empty()) out["agent_note"] = ranked->agent_note;
    return out;
}

void KnowledgeService::enableLlm(const LlmConfig& config) {
    if (config.enabled()) llm_ = std::make_unique<LlmClient>(config);
}

KnowledgeService::Composed KnowledgeService::extractive(
    const QueryPlan& plan, const Ranked& ranked,
    const std::vector<std::vector<redact::PiiSpan>>& source_spans,
    redact::Redactor* redactor) const {
    Composed out;
    const auto started = std::chrono::steady_clock::now();
    // Run fields go first: the answerer reads a bounded number of sentences in source order,
    // and six long chunks could otherwise crowd them out. Numbers stay as shown.
    std::vector<Source> ordered;
    const auto first_run = ranked.sources.begin() + static_cast<long>(ranked.scores.size());
    ordered.insert(ordered.end(), first_run, ranked.sources.end());
    ordered.insert(ordered.end(), ranked.sources.begin(), first_run);
    const Answer answer = ExtractiveAnswerer(ranked.encoder, options_.answer)
                              .answer(plan.analysis, ranked.question_vector, ordered);
    out.timings["answer"] = common::millisecondsSince(started);
    out.text = redactor ? redactor->redact(answer.text).text : answer.text;
    out.refused = answer.refused;
    for (const auto& s : answer.sentences) {
        const auto index = static_cast<std::size_t>(s.source_number - 1);
        const auto& source = ranked.sources[index];
        const std::string quote = redactor ? redactor->redact(s.text).text : s.text;
        out.citations.push_back({{"source_number", s.source_number},
                                 {"document_id", source.passage.document_id},
                                 {"doc_name", source.passage.filename},
                                 {"chunk_index", source.passage.chunk.chunk_index},
                                 {"page", s.page},
                                 {"char_start", s.char_start},
                                 {"char_end", s.char_end},
                                 {"quote", quote},
                                 {"support", s.support}});
        // The cited span in the excerpt as shown (offsets moved by any placeholders).
        const int base = source.passage.chunk.char_start;
        out.sentences.push_back(
            {{"text", quote},
             {"source_number", s.source_number},
             {"page", s.page},
             {"char_start", s.char_start},
             {"char_end", s.char_end},
             {"span_start", shownOffset(s.char_start - base, source_spans[index], false)},
             {"span_end", shownOffset(s.char_end - base, source_spans[index], true)},
             {"support", s.support}});
    }
    return out;
}

void KnowledgeService::answer(const QueryPlan& plan,
                              const std::function<bool(const nlohmann::json&)>& emit) {
    const auto started = std::chrono::steady_clock::now();
    auto ranked = rank(plan);
    if (!ranked) {
        emit({{"type", "error"},
              {"code", ranked.error().code},
              {"message", ranked.error().message},
              {"trace_id", plan.trace_id}});
        return;
    }
    const double retrieval_ms = common::millisecondsSince(started);

    // With redact_pii one redactor covers the excerpts, the answer and its quotes, so a value
    // has the same placeholder everywhere.
    std::optional<redact::Redactor> redactor;
    if (plan.redact_pii) redactor.emplace();
    nlohmann::json sources = sourcesJson(*ranked);
    std::vector<std::vector<redact::PiiSpan>> source_spans(sources.size());
    if (redactor) {
        for (std::size_t i = 0; i < sources.size(); ++i) {
            auto r = redactor->redact(sources[i]["excerpt"].get<std::string>());
            redactRunSource(*redactor, sources[i]);
            sources[i]["excerpt"] = std::move(r.text);
            source_spans[i] = std::move(r.spans);
        }
    }
    if (!emit({{"type", "sources"}, {"sources", sources}})) return;

    redact::Redactor* const redact = redactor ? &*redactor : nullptr;
    Composed composed;
    if (llm_ && !ranked->sources.empty()) {
        if (!generate(plan, *ranked, sources, redact, emit, composed)) return;
    }
    if (composed.answerer != "llm") {
        // No LLM, or it failed or said nothing supported: the extractive answer.
        Composed fallback = extractive(plan, *ranked, source_spans, redact);
        fallback.done_extra = std::move(composed.done_extra);
        fallback.streamed = composed.streamed;
        fallback.streamed_text = std::move(composed.streamed_text);
        fallback.llm_model = std::move(composed.llm_model);
        for (auto& [k, v] : composed.timings.items()) fallback.timings[k] = v;
        composed = std::move(fallback);
    }

    annotateRunCitations(*ranked, sources, composed.citations);
    const std::string encoder_model = ranked->encoder ? ranked->encoder->modelName() : "";
    nlohmann::json timings = composed.timings;
    timings["retrieval"] = retrieval_ms;
    timings["total"] = common::millisecondsSince(started);
    nlohmann::json done{{"type", "done"},
                        {"answer", composed.text},
                        {"citations", composed.citations},
                        {"refused", composed.refused},
                        {"answerer", composed.answerer},
                        {"model", composed.answerer == "llm" ? composed.llm_model : encoder_model},
                        {"agent_mode", plan.agent_mode},
                        {"agent_runs", ranked->agent_runs},
                        {"timings_ms", timings},
                        {"trace_id", plan.trace_id}};
    for (auto& [k, v] : composed.done_extra.items()) done[k] = v;
    if (!ranked->agent_note.empty()) done["agent_note"] = ranked->agent_note;
    if (llm_) {
        done["llm_model"] = composed.llm_model.empty() ? llm_->config().model : composed.llm_model;
        done["encoder_model"] = encoder_model;
        // The streamed text was unchecked: `revised` tells a client that sentences were
        // removed from it or that another answer replaced it (done.answer is what to show).
        done["revised"] = composed.streamed &&
                          (composed.answerer != "llm" || done.value("unsupported_removed", 0) > 0);
    }
    if (plan.redact_pii) done["redacted"] = true;
    if (composed.answerer != "llm" && !plan.response_language.empty() &&
        plan.response_language != "en") {
        done["language_note"] =
            "extractive answers quote the sources in their own language; configure an LLM to "
            "answer in " +
            plan.response_language;
    }

    // The trace is stored before `done`, so it exists once `done` arrives.
    if (traces_) {
        storage::AnswerTrace trace;
        trace.trace_id = plan.trace_id;
        trace.user_id = plan.user_id;
        trace.workspace_id = plan.workspace_id;
        trace.session_id = plan.session_id;
        trace.question = plan.question;
        trace.retrieval_query = plan.retrieval_query;
        trace.document_ids = plan.scope.document_ids;
        trace.candidates = nlohmann::json::array();
        for (std::size_t i = 0; i < ranked->retrieved.size(); ++i) {
            const auto& c = ranked->retrieved[i];
            trace.candidates.push_back({{"rank", i + 1},
                                        {"document_id", c.document_id},
                                        {"chunk_index", c.chunk_index},
                                        {"similarity", optionalScore(c.similarity)},
                                        {"bm25", optionalScore(c.bm25)},
                                        {"fused", c.fused},
                                        {"rerank_score", c.rerank_score},
                                        {"match_type", c.match_type}});
        }
        trace.sources = sources;
        trace.answer = composed.text;
        trace.sentences = composed.sentences;
        trace.refused = composed.refused;
        trace.redacted = plan.redact_pii;
        trace.timings = timings;
        trace.models = {{"encoder", encoder_model},
                        {"answerer", composed.answerer},
                        {"llm", llm_ ? nlohmann::json(done["llm_model"]) : nlohmann::json()}};
        if (auto stored = traces_->insert(trace); !stored) {
            common::log(common::LogLevel::kWarning, "trace_not_stored",
                        {{"trace_id", plan.trace_id}, {"reason", stored.error().message}});
        }
    }

    // Without an LLM stream the answer streams word by word, as an LLM's would.
    if (!composed.streamed) {
        const std::string& text = composed.text;
        std::size_t from = 0;
        while (from < text.size()) {
            std::size_t to = text.find(' ', from);
            to = to == std::string::npos ? text.size() : to + 1;
            if (!emit({{"type", "token"}, {"content", text.substr(from, to - from)}})) return;
            from = to;
        }
    }
    emit(done);
}

}  // namespace docintel::knowledge
