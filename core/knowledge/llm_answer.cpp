// LLM mode of KnowledgeService (docs/knowledge.md "LLM mode", decision 0045): numbered sources
// in, tokens streamed as they arrive, then every sentence's citation checked with the
// groundedness evaluation's SupportChecker; unsupported sentences are removed.

#include <algorithm>
#include <chrono>

#include "common/clock.h"
#include "common/log.h"
#include "knowledge/cited_check.h"
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
    std::vector<std::string> excerpts;
    for (const auto& s : sources) excerpts.push_back(s.value("excerpt", ""));
    auto checked = checkCitedSentences(support_, draftedSentences(completion->text), excerpts);
    if (!checked) {
        out.done_extra["llm_fallback"] = {{"code", checked.error().code},
                                          {"message", checked.error().message}};
        out.done_extra["unsupported_removed"] = 0;
        return true;
    }

    std::string text;
    int removed = 0;
    bool refused = false;
    nlohmann::json unsupported = nlohmann::json::array();
    for (const auto& sentence : *checked) {
        const auto& drafted = sentence.drafted;
        const std::string shown = redactor ? redactor->redact(drafted.claim).text : drafted.claim;
        if (drafted.claim.find(ExtractiveAnswerer::kRefusal) != std::string::npos &&
            drafted.cited.empty()) {
            refused = true;  // the refusal is not a claim
            continue;
        }
        if (!sentence.supported) {
            ++removed;
            unsupported.push_back({{"text", shown}, {"cited", drafted.cited}});
            continue;
        }
        if (!text.empty()) text += " ";
        text += shown + " ";
        for (const auto& s : sentence.supporting)
            text += "[" + std::to_string(s.source_number) + "]";

        // One citation per supporting source, at its best sentence.
        for (const auto& c : sentence.supporting) {
            const int n = c.source_number;
            const auto& source = ranked.sources[static_cast<std::size_t>(n - 1)];
            const auto& chunk = source.passage.chunk;
            const std::string& excerpt = excerpts[static_cast<std::size_t>(n - 1)];
            // Page offsets are exact when the excerpt is shown as stored; a redacted excerpt's
            // offsets no longer match the page, so the citation spans the whole chunk.
            const int char_start = redactor ? chunk.char_start : chunk.char_start + c.start;
            const int char_end = redactor ? chunk.char_end : chunk.char_start + c.end;
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
                 {"support", c.cosine}});
        }
        const auto& span = sentence.best;
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
             {"support", span.cosine},
             {"lexical", span.lexical}});
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
