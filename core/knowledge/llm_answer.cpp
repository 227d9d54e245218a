// LLM mode of KnowledgeService (docs/knowledge.md "LLM mode", decision 0045): numbered sources
// in, tokens streamed as they arrive, then every sentence's citation checked with the
// groundedness evaluation's SupportChecker; unsupported sentences are removed.

#include <algorithm>
#include <chrono>
#include <regex>

#include "common/clock.h"
#include "common/log.h"
#include "ingest/chunker.h"
#include "knowledge/knowledge_service.h"

namespace docintel::knowledge {
namespace {

std::string languageName(const std::string& code) {
    if (code == "en") return "English";
    if (code == "es") return "Spanish";
    if (code == "bn") return "Bengali";
    if (code == "hi") return "Hindi";
    if (code == "ar") return "Arabic";
    return code;
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

/// A sentence of the LLM's answer: its words without the citation markers, and the sources it
/// cites.
struct Drafted {
    std::string claim;
    std::vector<int> cited;
};

const std::regex& markerPattern() {
    static const std::regex pattern(R"(\[\s*(\d+(?:\s*[,;]\s*\d+)*)\s*\])");
    return pattern;
}

void addNumbers(const std::string& list, std::vector<int>& into) {
    static const std::regex number(R"(\d+)");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), number);
         it != std::sregex_iterator(); ++it) {
        const int n = std::stoi(it->str());
        if (std::find(into.begin(), into.end(), n) == into.end()) into.push_back(n);
    }
}

/// The answer's sentences (ICU boundaries) with their `[n]` / `[n, m]` markers; markers that
/// open a sentence (`… rent. [1] The deposit …`) belong to the one before.
std::vector<Drafted> draftedSentences(const std::string& text) {
    std::vector<Drafted> out;
    for (const auto& [a, b] : ingest::boundaries(text, true)) {
        std::string piece =
            trim(text.substr(static_cast<std::size_t>(a), static_cast<std::size_t>(b - a)));
        std::smatch m;
        while (!out.empty() && std::regex_search(piece, m, markerPattern()) && m.position(0) == 0) {
            addNumbers(m[1].str(), out.back().cited);
            piece = trim(piece.substr(static_cast<std::size_t>(m.length(0))));
        }
        Drafted d;
        std::string claim;
        std::size_t from = 0;
        for (auto it = std::sregex_iterator(piece.begin(), piece.end(), markerPattern());
             it != std::sregex_iterator(); ++it) {
            claim += piece.substr(from, static_cast<std::size_t>(it->position(0)) - from);
            addNumbers((*it)[1].str(), d.cited);
            from = static_cast<std::size_t>(it->position(0) + it->length(0));
        }
        claim += piece.substr(from);
        // "rent is $4,500 [1]." → "rent is $4,500."; collapse the spaces markers leave.
        std::string tidy;
        for (std::size_t i = 0; i < claim.size(); ++i) {
            const char c = claim[i];
            if (c == ' ' && (tidy.empty() || tidy.back() == ' ')) continue;
            if ((c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?') &&
                !tidy.empty() && tidy.back() == ' ') {
                tidy.pop_back();
            }
            tidy += c;
        }
        d.claim = trim(tidy);
        if (d.claim.empty()) {
            if (!out.empty()) {
                for (int n : d.cited) addNumbers(std::to_string(n), out.back().cited);
            }
            continue;
        }
        out.push_back(std::move(d));
    }
    return out;
}

/// A sentence of a source's excerpt (as shown) that may support a claim.
struct Candidate {
    int source_number = 0;
    int start = 0;  ///< bytes in the excerpt
    int end = 0;
};

}  // namespace

bool KnowledgeService::generate(const QueryPlan& plan, const Ranked& ranked,
                                const nlohmann::json& sources, redact::Redactor* redactor,
                                const std::function<bool(const nlohmann::json&)>& emit,
                                Composed& out) const {
    const std::string language =
        plan.response_language.empty() ? "" : languageName(plan.response_language);
    std::string system =
        "You answer questions using only the numbered sources given by the user. After every "
        "sentence, cite the source or sources it comes from by number in square brackets, for "
        "example: \"The rent is $4,500 per month [1].\" Use only facts stated in the sources; "
        "add nothing from outside them. Keep the answer short: at most five sentences. If the "
        "sources do not contain the answer, reply exactly: \"";
    system += ExtractiveAnswerer::kRefusal;
    system += "\"";
    system += language.empty()
                  ? " Answer in the language of the question."
                  : " Answer in " + language + " (language code " + plan.response_language + ").";
    std::string user = "Sources:\n";
    for (const auto& s : sources) {
        user += "\n[" + std::to_string(s.value("source_number", 0)) + "] " +
                s.value("doc_name", "") + ", page " + std::to_string(s.value("page", 1)) + "\n" +
                s.value("excerpt", "") + "\n";
    }
    user += "\nQuestion: " + plan.question;
    if (plan.retrieval_query != plan.question) {
        user += "\n(A follow-up; the conversation so far asked: " + plan.retrieval_query + ")";
    }
    if (!language.empty()) user += "\nAnswer in " + language + ".";
    const nlohmann::json messages = nlohmann::json::array(
        {{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", user}}});

    bool client_gone = false;
    auto completion = llm_->complete(messages, [&](const std::string& piece) {
        out.streamed = true;
        out.streamed_text += piece;
        if (!emit({{"type", "token"}, {"content", piece}})) {
            client_gone = true;
            return false;
        }
        return true;
    });
    if (client_gone) return false;
    out.llm_model = completion ? completion->model : llm_->config().model;
    if (!completion) {
        common::log(common::LogLevel::kWarning, "llm_fallback",
                    {{"trace_id", plan.trace_id},
                     {"code", completion.error().code},
                     {"reason", completion.error().message}});
        out.done_extra["llm_fallback"] = {{"code", completion.error().code},
                                          {"message", completion.error().message}};
        out.done_extra["unsupported_removed"] = 0;
        return true;
    }
    out.timings["llm"] = completion->total_ms;
    out.timings["llm_first_token"] = completion->first_token_ms;

    // Every sentence against the sentences of the sources it cites.
    const auto check_started = std::chrono::steady_clock::now();
    const std::vector<Drafted> drafted = draftedSentences(completion->text);
    std::vector<std::vector<Candidate>> candidates(drafted.size());
    std::vector<SupportChecker::Claim> claims;
    std::vector<std::size_t> claim_of;  // drafted index → claims index (npos: nothing cited)
    for (std::size_t i = 0; i < drafted.size(); ++i) {
        SupportChecker::Claim claim{drafted[i].claim, {}};
        for (const int n : drafted[i].cited) {
            if (n < 1 || n > static_cast<int>(sources.size())) continue;
            const std::string excerpt = sources[static_cast<std::size_t>(n - 1)]["excerpt"];
            for (const auto& [a, b] : ingest::boundaries(excerpt, true)) {
                candidates[i].push_back(Candidate{n, a, b});
                claim.texts.push_back(
                    excerpt.substr(static_cast<std::size_t>(a), static_cast<std::size_t>(b - a)));
            }
        }
        claim_of.push_back(claim.texts.empty() ? std::string::npos : claims.size());
        if (!claim.texts.empty()) claims.push_back(std::move(claim));
    }
    auto judged = support_.judge(claims);
    if (!judged) {
        out.done_extra["llm_fallback"] = {{"code", judged.error().code},
                                          {"message", judged.error().message}};
        out.done_extra["unsupported_removed"] = 0;
        return true;
    }

    std::string text;
    int removed = 0;
    bool refused = false;
    nlohmann::json unsupported = nlohmann::json::array();
    for (std::size_t i = 0; i < drafted.size(); ++i) {
        const std::string shown =
            redactor ? redactor->redact(drafted[i].claim).text : drafted[i].claim;
        if (drafted[i].claim.find(ExtractiveAnswerer::kRefusal) != std::string::npos &&
            drafted[i].cited.empty()) {
            refused = true;  // the refusal is not a claim
            continue;
        }
        std::vector<int> supporting;  // sources with a supporting sentence, as cited
        int best_at = -1;
        if (claim_of[i] != std::string::npos) {
            const auto& each = (*judged)[claim_of[i]];
            best_at = SupportChecker::best(each);
            if (best_at >= 0 && !each[static_cast<std::size_t>(best_at)].supported) best_at = -1;
            for (std::size_t k = 0; k < each.size(); ++k) {
                const int n = candidates[i][k].source_number;
                if (each[k].supported &&
                    std::find(supporting.begin(), supporting.end(), n) == supporting.end()) {
                    supporting.push_back(n);
                }
            }
        }
        if (best_at < 0) {
            ++removed;
            unsupported.push_back({{"text", shown}, {"cited", drafted[i].cited}});
            continue;
        }
        std::sort(supporting.begin(), supporting.end());
        const auto& each = (*judged)[claim_of[i]];
        const auto& best = each[static_cast<std::size_t>(best_at)];
        const Candidate& span = candidates[i][static_cast<std::size_t>(best_at)];
        if (!text.empty()) text += " ";
        text += shown + " ";
        for (const int n : supporting) text += "[" + std::to_string(n) + "]";

        // One citation per supporting source, at its best sentence.
        for (const int n : supporting) {
            int at = -1;
            for (std::size_t k = 0; k < each.size(); ++k) {
                if (candidates[i][k].source_number != n || !each[k].supported) continue;
                if (at < 0 || each[k].lexical + each[k].cosine >
                                  each[static_cast<std::size_t>(at)].lexical +
                                      each[static_cast<std::size_t>(at)].cosine) {
                    at = static_cast<int>(k);
                }
            }
            const Candidate& c = candidates[i][static_cast<std::size_t>(at)];
            const auto& source = ranked.sources[static_cast<std::size_t>(n - 1)];
            const auto& chunk = source.passage.chunk;
            const std::string excerpt = sources[static_cast<std::size_t>(n - 1)]["excerpt"];
            // Page offsets are exact when the excerpt is shown as stored; a redacted excerpt's
            // offsets no longer match the page, so the citation spans the whole chunk.
            const int char_start = redactor ? chunk.char_start : chunk.char_start + c.start;
            const int char_end = redactor ? chunk.char_end : chunk.char_start + c.end;
            const double score = each[static_cast<std::size_t>(at)].cosine;
            out.citations.push_back(
                {{"source_number", n},
                 {"document_id", source.passage.document_id},
                 {"doc_name", source.passage.filename},
                 {"chunk_index", chunk.chunk_index},
                 {"page", chunk.page_start},
                 {"char_start", char_start},
                 {"char_end", char_end},
                 {"quote", excerpt.substr(static_cast<std::size_t>(c.start),
                                          static_cast<std::size_t>(c.end - c.start))},
                 {"sentence", shown},
                 {"support", score}});
        }
        const auto& source = ranked.sources[static_cast<std::size_t>(span.source_number - 1)];
        const auto& chunk = source.passage.chunk;
        out.sentences.push_back(
            {{"text", shown},
             {"source_number", span.source_number},
             {"page", chunk.page_start},
             {"char_start", redactor ? chunk.char_start : chunk.char_start + span.start},
             {"char_end", redactor ? chunk.char_end : chunk.char_start + span.end},
             {"span_start", span.start},
             {"span_end", span.end},
             {"support", best.cosine},
             {"lexical", best.lexical}});
    }
    out.timings["check"] = common::millisecondsSince(check_started);
    out.done_extra["unsupported_removed"] = removed;
    out.done_extra["unsupported_sentences"] = unsupported;

    if (text.empty() && !(refused && removed == 0)) {
        // Never less grounded than without the LLM: nothing supported → the extractive answer.
        out.citations = nlohmann::json::array();
        out.sentences = nlohmann::json::array();
        out.done_extra["llm_fallback"] = {
            {"code", "llm_unsupported"},
            {"message", "no sentence of the LLM's answer is supported by the source it cites"}};
        return true;
    }
    out.answerer = "llm";
    if (text.empty()) {
        out.text = ExtractiveAnswerer::kRefusal;
        out.refused = true;
    } else {
        out.text = std::move(text);
    }
    return true;
}

}  // namespace docintel::knowledge
