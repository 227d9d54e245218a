#include "knowledge/evaluation_service.h"

#include <algorithm>
#include <map>
#include <set>

#include "ingest/chunker.h"
#include "knowledge/extractive_answerer.h"

namespace docintel::knowledge {
namespace {

plugin::Error traceNotFound() { return {"trace_not_found", "trace not found", 404}; }

double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) sum += a[i] * b[i];
    return sum;
}

nlohmann::json ratio(int part, int whole) {
    return whole == 0 ? nlohmann::json() : nlohmann::json(static_cast<double>(part) / whole);
}

/// Texts to embed, deduplicated; index() gives a text's row.
class TextTable {
  public:
    std::size_t add(const std::string& text) {
        const auto [it, added] = rows_.emplace(text, texts_.size());
        if (added) texts_.push_back(text);
        return it->second;
    }
    const std::vector<std::string>& texts() const { return texts_; }

  private:
    std::map<std::string, std::size_t> rows_;
    std::vector<std::string> texts_;
};

}  // namespace

plugin::Result<nlohmann::json> EvaluationService::evaluate(const plugin::Principal& caller,
                                                           const nlohmann::json& input) {
    const std::string type = input.value("evaluation_type", "groundedness");
    if (std::find(std::begin(kTypes), std::end(kTypes), type) == std::end(kTypes)) {
        return plugin::Error::unprocessable(
            "unknown_evaluation_type",
            "evaluation_type must be one of groundedness, citation, retrieval");
    }
    const std::string trace_id = input.value("trace_id", "");
    if (caller.user_id.empty() || trace_id.empty()) return traceNotFound();
    auto found = traces_.findForUser(trace_id, caller.user_id);
    if (!found) return found.error();
    if (!*found) return traceNotFound();
    const storage::AnswerTrace& trace = **found;
    if (!trace.workspace_id.empty() &&
        !access_.scope(caller.user_id, trace.workspace_id, auth::WorkspaceAction::kAsk)) {
        return traceNotFound();
    }

    // The sources by number, the cited spans, and every sentence of every cited excerpt.
    std::map<int, const nlohmann::json*> sources;
    for (const auto& s : trace.sources) sources[s.value("source_number", 0)] = &s;
    struct Row {
        std::string text;
        int source_number = 0;
        std::string span;
        std::size_t text_row = 0, span_row = 0;
        std::vector<std::string> excerpt_sentences;
        std::vector<std::size_t> excerpt_rows;
    };
    TextTable table;
    std::vector<Row> rows;
    for (const auto& s : trace.sentences) {
        Row row;
        row.text = s.value("text", "");
        row.source_number = s.value("source_number", 0);
        const auto it = sources.find(row.source_number);
        if (it != sources.end()) {
            const std::string excerpt = it->second->value("excerpt", "");
            const int from = s.value("span_start", -1);
            const int to = s.value("span_end", -1);
            if (from >= 0 && to > from && static_cast<std::size_t>(to) <= excerpt.size()) {
                row.span = excerpt.substr(static_cast<std::size_t>(from),
                                          static_cast<std::size_t>(to - from));
            }
            for (const auto& [a, b] : ingest::boundaries(excerpt, true)) {
                row.excerpt_sentences.push_back(
                    excerpt.substr(static_cast<std::size_t>(a), static_cast<std::size_t>(b - a)));
            }
        }
        row.text_row = table.add(row.text);
        row.span_row = table.add(row.span);
        for (const auto& e : row.excerpt_sentences) row.excerpt_rows.push_back(table.add(e));
        rows.push_back(std::move(row));
    }
    std::vector<std::vector<float>> vectors;
    if (encoder_ && !table.texts().empty()) {
        auto encoded = encoder_->encode(table.texts(), 32);
        if (!encoded) return encoded.error();
        vectors = std::move(encoded).value();
    }

    struct Support {
        double lexical = 0;
        double cosine = 0;
        bool supported = false;
    };
    const auto support = [&](const std::string& sentence, std::size_t sentence_row,
                             const std::string& text, std::size_t text_row) {
        Support out;
        if (sentence.empty() || text.empty()) return out;
        out.lexical = coverage(contentWordSet(sentence), contentWordSet(text));
        if (vectors.empty()) {
            out.supported = out.lexical >= thresholds_.lexical_alone;
            return out;
        }
        out.cosine = dot(vectors[sentence_row], vectors[text_row]);
        out.supported =
            (out.lexical >= thresholds_.lexical && out.cosine >= thresholds_.cosine_with_lexical) ||
            out.cosine >= thresholds_.cosine_alone;
        return out;
    };

    int supported = 0;
    int citations = 0;
    int precise = 0;
    nlohmann::json details = nlohmann::json::array();
    std::set<std::pair<std::string, int>> cited;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const Support span = support(row.text, row.text_row, row.span, row.span_row);
        Support best;
        for (std::size_t k = 0; k < row.excerpt_sentences.size(); ++k) {
            const Support s =
                support(row.text, row.text_row, row.excerpt_sentences[k], row.excerpt_rows[k]);
            if (s.supported > best.supported ||
                (s.supported == best.supported &&
                 s.lexical + s.cosine > best.lexical + best.cosine)) {
                best = s;
            }
        }
        const bool has_citation = sources.count(row.source_number) > 0;
        supported += span.supported ? 1 : 0;
        if (has_citation) {
            ++citations;
            precise += best.supported ? 1 : 0;
            const auto& src = *sources.at(row.source_number);
            cited.emplace(src.value("document_id", ""), src.value("chunk_index", 0));
        }
        details.push_back({{"index", i},
                           {"text", row.text},
                           {"source_number", row.source_number},
                           {"span", row.span},
                           {"lexical", span.lexical},
                           {"cosine", span.cosine},
                           {"supported", span.supported},
                           {"citation_precise", has_citation && best.supported},
                           {"best_source_lexical", best.lexical},
                           {"best_source_cosine", best.cosine}});
    }

    // Retrieval agreement: cited sources among the top k of first-stage retrieval.
    const int k = std::max<int>(thresholds_.top_k, static_cast<int>(cited.size()));
    std::set<std::pair<std::string, int>> top;
    for (const auto& c : trace.candidates) {
        if (c.value("rank", 0) > k) continue;
        top.emplace(c.value("document_id", ""), c.value("chunk_index", 0));
    }
    int agreeing = 0;
    for (const auto& key : cited) agreeing += top.count(key) ? 1 : 0;

    const int sentences = static_cast<int>(rows.size());
    nlohmann::json metrics = {
        {"groundedness", ratio(supported, sentences)},
        {"citation_precision", ratio(precise, citations)},
        {"retrieval_agreement", ratio(agreeing, static_cast<int>(cited.size()))},
        {"sentences", sentences},
        {"supported_sentences", supported},
        {"citations", citations},
        {"precise_citations", precise},
        {"cited_sources", cited.size()},
        {"cited_sources_in_top_k", agreeing},
        {"refused", trace.refused}};
    const char* metric = type == "groundedness" ? "groundedness"
                         : type == "citation"   ? "citation_precision"
                                                : "retrieval_agreement";
    storage::AnswerEvaluation evaluation;
    evaluation.trace_row_id = trace.id;
    evaluation.trace_id = trace.trace_id;
    evaluation.evaluation_type = type;
    if (metrics[metric].is_number()) evaluation.score = metrics[metric].get<double>();
    evaluation.metrics = metrics;
    evaluation.details = {{"sentences", std::move(details)},
                          {"top_k", k},
                          {"encoder", encoder_ ? encoder_->modelName() : ""},
                          {"thresholds",
                           {{"lexical", thresholds_.lexical},
                            {"cosine_with_lexical", thresholds_.cosine_with_lexical},
                            {"cosine_alone", thresholds_.cosine_alone},
                            {"lexical_alone", thresholds_.lexical_alone}}}};
    evaluation.created_by = caller.user_id;
    auto stored = traces_.insertEvaluation(evaluation);
    if (!stored) return stored.error();
    nlohmann::json out = stored->toJson();
    out["question"] = trace.question;
    return out;
}

}  // namespace docintel::knowledge
