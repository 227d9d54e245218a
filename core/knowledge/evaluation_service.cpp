#include "knowledge/evaluation_service.h"

#include <algorithm>
#include <map>
#include <set>

#include "ingest/chunker.h"
#include "knowledge/extractive_answerer.h"
#include "knowledge/stated_numbers.h"

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

plugin::Result<std::vector<std::vector<SentenceSupport>>> SupportChecker::judge(
    const std::vector<Claim>& claims) const {
    TextTable table;
    std::vector<std::size_t> sentence_rows;
    std::vector<std::vector<std::size_t>> text_rows;
    for (const auto& claim : claims) {
        sentence_rows.push_back(table.add(claim.sentence));
        text_rows.emplace_back();
        for (const auto& t : claim.texts) text_rows.back().push_back(table.add(t));
    }
    std::vector<std::vector<float>> vectors;
    if (encoder_ && !table.texts().empty()) {
        auto encoded = encoder_->encode(table.texts(), 32);
        if (!encoded) return encoded.error();
        vectors = std::move(encoded).value();
    }
    // The numbers each distinct text states, found once.
    std::vector<std::set<std::string>> numbers(table.texts().size());
    std::vector<bool> numbered(table.texts().size(), false);
    const auto numbersOf = [&](std::size_t row) -> const std::set<std::string>& {
        if (!numbered[row]) {
            numbers[row] = statedNumbers(table.texts()[row]);
            numbered[row] = true;
        }
        return numbers[row];
    };
    std::vector<std::vector<SentenceSupport>> out;
    for (std::size_t c = 0; c < claims.size(); ++c) {
        const auto& claim = claims[c];
        const auto words = contentWordSet(claim.sentence);
        const auto& claimed = numbersOf(sentence_rows[c]);
        out.emplace_back();
        for (std::size_t k = 0; k < claim.texts.size(); ++k) {
            SentenceSupport s;
            const std::string& text = claim.texts[k];
            if (!claim.sentence.empty() && !text.empty()) {
                s.lexical = coverage(words, contentWordSet(text));
                if (vectors.empty()) {
                    s.supported = s.lexical >= thresholds_.lexical_alone;
                } else {
                    s.cosine = dot(vectors[sentence_rows[c]], vectors[text_rows[c][k]]);
                    s.supported = (s.lexical >= thresholds_.lexical &&
                                   s.cosine >= thresholds_.cosine_with_lexical) ||
                                  s.cosine >= thresholds_.cosine_alone;
                }
                // Words and meaning may match while a figure differs ("3 bottles" for "20,000
                // bottles"): every number the sentence states must be in the text.
                const auto& stated = numbersOf(text_rows[c][k]);
                s.supported = s.supported && std::includes(stated.begin(), stated.end(),
                                                           claimed.begin(), claimed.end());
            }
            out.back().push_back(s);
        }
    }
    return out;
}

int SupportChecker::best(const std::vector<SentenceSupport>& each) {
    SentenceSupport best;
    int at = -1;
    for (std::size_t k = 0; k < each.size(); ++k) {
        const SentenceSupport& s = each[k];
        if (s.supported > best.supported ||
            (s.supported == best.supported && s.lexical + s.cosine > best.lexical + best.cosine)) {
            best = s;
            at = static_cast<int>(k);
        }
    }
    return at;
}

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
        std::vector<std::string> excerpt_sentences;
    };
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
        rows.push_back(std::move(row));
    }
    std::vector<SupportChecker::Claim> claims;
    for (const auto& row : rows) {
        SupportChecker::Claim claim{row.text, {row.span}};
        claim.texts.insert(claim.texts.end(), row.excerpt_sentences.begin(),
                           row.excerpt_sentences.end());
        claims.push_back(std::move(claim));
    }
    auto judged = SupportChecker(encoder_, thresholds_).judge(claims);
    if (!judged) return judged.error();

    int supported = 0;
    int citations = 0;
    int precise = 0;
    nlohmann::json details = nlohmann::json::array();
    std::set<std::pair<std::string, int>> cited;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const auto& each = (*judged)[i];
        const SentenceSupport span = each[0];
        const std::vector<SentenceSupport> excerpt(each.begin() + 1, each.end());
        const int best_at = SupportChecker::best(excerpt);
        const SentenceSupport best =
            best_at < 0 ? SentenceSupport{} : excerpt[static_cast<std::size_t>(best_at)];
        const bool has_citation = sources.count(row.source_number) > 0;
        supported += span.supported ? 1 : 0;
        if (has_citation) {
            ++citations;
            precise += best.supported ? 1 : 0;
            const auto& src = *sources.at(row.source_number);
            // agent_mode's run fields were not retrieved: retrieval agreement counts documents.
            if (src.value("type", "document") != "workflow_run") {
                cited.emplace(src.value("document_id", ""), src.value("chunk_index", 0));
            }
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
