// LLM mode of Summarizer (docs/knowledge.md "LLM mode for summaries", decision 0058): the
// numbered chunks go to the LLM (map-reduce over parts of llm_map_chunks chunks for long
// documents), the reduce streams `token` frames, and every sentence of every draft is checked
// against the chunks it cites with the answers' check (checkCitedSentences: SupportChecker);
// unsupported sentences are removed and counted. Failure, timeout or nothing supported → the
// extractive summary, with `llm_fallback`.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>

#include "common/clock.h"
#include "common/log.h"
#include "ingest/text_util.h"
#include "knowledge/cited_check.h"
#include "knowledge/summarizer.h"

namespace docintel::knowledge {
namespace {

using nlohmann::json;

std::string joinPath(const std::vector<std::string>& path) {
    std::string out;
    for (const auto& p : path) out += (out.empty() ? "" : " > ") + p;
    return out;
}

/// A line-level piece of the LLM's text: a `#` heading, a bullet, or a paragraph.
struct Block {
    enum Kind { kHeading, kBullet, kParagraph } kind = kParagraph;
    std::string text;
};

/// The length of a list enumerator opening `line` ("1. ", "12) "), else 0.
std::size_t enumeratorLength(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && i < 3 && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i == 0 || i + 1 >= line.size() || (line[i] != '.' && line[i] != ')') ||
        line[i + 1] != ' ') {
        return 0;
    }
    return i + 2;
}

std::vector<Block> layoutBlocks(const std::string& text) {
    std::vector<Block> out;
    bool open_paragraph = false;
    std::size_t from = 0;
    while (from <= text.size()) {
        std::size_t to = text.find('\n', from);
        if (to == std::string::npos) to = text.size();
        std::string line = ingest::trimmed(text.substr(from, to - from));
        from = to + 1;
        if (line.empty()) {
            open_paragraph = false;
            continue;
        }
        if (line[0] == '#') {
            out.push_back(
                {Block::kHeading, ingest::trimmed(line.substr(line.find_first_not_of('#')))});
            open_paragraph = false;
        } else if (line.rfind("- ", 0) == 0 || line.rfind("* ", 0) == 0 ||
                   line.rfind("\xE2\x80\xA2", 0) == 0) {
            const std::size_t skip = line[0] == '\xE2' ? 3 : 2;
            out.push_back({Block::kBullet, ingest::trimmed(line.substr(skip))});
            open_paragraph = false;
        } else if (const std::size_t skip = enumeratorLength(line); skip > 0) {
            // "1. …", "2) …": a numbered list is shown as bullets; its numbers are not claims.
            out.push_back({Block::kBullet, ingest::trimmed(line.substr(skip))});
            open_paragraph = false;
        } else if (line[0] == '[' && line.size() > 1 &&
                   std::isdigit(static_cast<unsigned char>(line[1]))) {
            // "[2] …": a line the model opened with its source's number stands alone, so the
            // number stays with it (not with the sentence of the line before).
            out.push_back({Block::kParagraph, line});
            open_paragraph = false;
        } else if (open_paragraph) {
            out.back().text += " " + line;
        } else {
            out.push_back({Block::kParagraph, line});
            open_paragraph = true;
        }
    }
    return out;
}

/// A draft after the check: the text with the supported sentences only (layout kept, each
/// sentence followed by the numbers of the sources supporting it), their citations, and what
/// was removed.
struct CheckedDraft {
    std::string text;
    json citations = json::array();
    json sections = json::array();  ///< per `#` heading: section, section_path, summary, citations
    int kept = 0;
    int removed = 0;
    json unsupported = json::array();
};

/// Checks `draft` against `sources` (as numbered for the LLM; `texts` = what it saw of each).
plugin::Result<CheckedDraft> checkDraft(const SupportChecker& support, const std::string& draft,
                                        const std::vector<Source>& sources,
                                        const std::vector<std::string>& texts,
                                        redact::Redactor* redactor) {
    const std::vector<Block> blocks = layoutBlocks(draft);
    std::vector<DraftedSentence> drafted;
    std::vector<std::size_t> block_of;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (blocks[b].kind == Block::kHeading) continue;
        for (auto& d : draftedSentences(blocks[b].text)) {
            drafted.push_back(std::move(d));
            block_of.push_back(b);
        }
    }
    auto checked = checkCitedSentences(support, drafted, texts);
    if (!checked) return checked.error();

    CheckedDraft out;
    std::vector<std::string> block_text(blocks.size());
    std::vector<json> block_citations(blocks.size(), json::array());
    for (std::size_t i = 0; i < checked->size(); ++i) {
        const auto& sentence = (*checked)[i];
        const std::string shown = maybeRedact(redactor, sentence.drafted.claim);
        if (!sentence.supported) {
            ++out.removed;
            out.unsupported.push_back({{"text", shown}, {"cited", sentence.drafted.cited}});
            continue;
        }
        ++out.kept;
        std::string& into = block_text[block_of[i]];
        into += (into.empty() ? "" : " ") + shown + " ";
        for (const auto& s : sentence.supporting) {
            into += "[" + std::to_string(s.source_number) + "]";
            const auto at = static_cast<std::size_t>(s.source_number - 1);
            const Source& source = sources[at];
            const auto& chunk = source.passage.chunk;
            const AnswerSentence cited = citeSentence(
                source, SentenceSpan{s.start, s.end,
                                     texts[at].substr(static_cast<std::size_t>(s.start),
                                                      static_cast<std::size_t>(s.end - s.start))});
            // A redacted chunk's offsets no longer match the page: the citation spans the chunk.
            block_citations[block_of[i]].push_back(
                {{"source_number", s.source_number},
                 {"document_id", source.passage.document_id},
                 {"doc_name", source.passage.filename},
                 {"chunk_index", chunk.chunk_index},
                 {"page", cited.page},
                 {"char_start", redactor ? chunk.char_start : cited.char_start},
                 {"char_end", redactor ? chunk.char_end : cited.char_end},
                 {"section", joinPath(chunk.section_path)},
                 {"quote", cited.text},
                 {"sentence", shown},
                 {"support", s.cosine}});
        }
    }

    // The layout again, without the blocks (and headings) left empty.
    std::optional<std::size_t> heading;
    json section_citations = json::array();
    std::string section_text;
    const auto close_section = [&] {
        if (!heading || section_text.empty()) return;
        std::vector<std::string> path;
        if (!section_citations.empty()) {
            const auto n = section_citations[0]["source_number"].get<std::size_t>();
            path = sources[n - 1].passage.chunk.section_path;
        }
        out.sections.push_back({{"section", maybeRedact(redactor, blocks[*heading].text)},
                                {"section_path", path},
                                {"summary", section_text},
                                {"citations", section_citations}});
    };
    std::string pending_heading;
    Block::Kind previous = Block::kHeading;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (blocks[b].kind == Block::kHeading) {
            close_section();
            heading = b;
            section_citations = json::array();
            section_text.clear();
            pending_heading = "## " + maybeRedact(redactor, blocks[b].text);
            previous = Block::kHeading;
            continue;
        }
        if (block_text[b].empty()) continue;
        std::string line = (blocks[b].kind == Block::kBullet ? "- " : "") + block_text[b];
        if (!pending_heading.empty()) {
            out.text += (out.text.empty() ? "" : "\n\n") + pending_heading + "\n" + line;
            pending_heading.clear();
        } else if (out.text.empty()) {
            out.text = line;
        } else {
            const bool list = blocks[b].kind == Block::kBullet && previous == Block::kBullet;
            out.text += (list ? "\n" : "\n\n") + line;
        }
        section_text += (section_text.empty() ? "" : "\n") + line;
        for (auto& c : block_citations[b]) {
            section_citations.push_back(c);
            out.citations.push_back(std::move(c));
        }
        previous = blocks[b].kind;
    }
    close_section();
    return out;
}

std::string instruction(const std::string& type, const std::string& custom_prompt) {
    if (type == "detailed") {
        return "Write a detailed summary: up to fifteen sentences in short paragraphs separated "
               "by a blank line, following the order of the document.";
    }
    if (type == "bullets") {
        return "Write three to eight bullet points, one sentence each, every line starting with "
               "\"- \".";
    }
    if (type == "sections") {
        return "The passages are labelled with their section. For each section, write a line "
               "\"## <section name>\" followed by one to three sentences summarising that "
               "section.";
    }
    if (type == "custom") {
        return "Write a summary of two to six sentences focused on this request: " + custom_prompt;
    }
    return "Write an executive summary: one paragraph of two to five sentences with the main "
           "points of the document.";
}

const char* kSystem =
    "You summarise documents using only the numbered passages given by the user. After every "
    "sentence, cite the passage or passages it comes from by number in square brackets, for "
    "example: \"The tenant pays $4,500 a month [3].\" State only what the passages say; add "
    "nothing from outside them. No preamble, no closing remarks.";

json messages(const std::string& user) {
    return json::array(
        {{{"role", "system"}, {"content", kSystem}}, {{"role", "user"}, {"content", user}}});
}

/// The passages [first, last) of the book as the LLM reads them.
std::string passages(const std::vector<Source>& sources, const std::vector<std::string>& texts,
                     std::size_t first, std::size_t last) {
    std::string out;
    for (std::size_t i = first; i < last; ++i) {
        const auto& chunk = sources[i].passage.chunk;
        out += "\n[" + std::to_string(i + 1) + "] " + sources[i].passage.filename + ", page " +
               std::to_string(chunk.page_start);
        if (!chunk.section_path.empty()) out += ", section: " + joinPath(chunk.section_path);
        out += "\n" + texts[i] + "\n";
    }
    return out;
}

}  // namespace

namespace {

/// One run of LLM drafting over numbered sources: calls, checks, counts.
struct Drafter {
    const LlmClient& llm;
    const SupportChecker& support;
    const std::vector<Source>& sources;
    const std::vector<std::string>& texts;
    redact::Redactor* redactor;
    std::string type;
    std::string custom_prompt;
    int map_chunks;
    std::string model;
    double llm_ms = 0;
    double first_token_ms = -1;
    double check_ms = 0;
    int removed = 0;
    int last_removed = 0;  ///< by the latest request's check (the one whose tokens streamed)
    json unsupported = json::array();

    plugin::Result<CheckedDraft> call(const std::string& user,
                                      const std::function<bool(const std::string&)>& on_token) {
        auto completion = llm.complete(messages(user), on_token);
        if (!completion) return completion.error();
        model = completion->model;
        if (first_token_ms < 0) first_token_ms = llm_ms + completion->first_token_ms;
        llm_ms += completion->total_ms;
        const auto started = std::chrono::steady_clock::now();
        auto checked = checkDraft(support, completion->text, sources, texts, redactor);
        check_ms += common::millisecondsSince(started);
        if (!checked) return checked.error();
        removed += checked->removed;
        last_removed = checked->removed;
        for (auto& u : checked->unsupported) unsupported.push_back(std::move(u));
        return checked;
    }

    /// A summary of the sources [first, last): one request when they fit, else map-reduce.
    /// `on_meta` sees the progress; `on_token` the final request's tokens.
    plugin::Result<CheckedDraft> draft(std::size_t first, std::size_t last, const std::string& what,
                                       const std::function<bool(const json&)>& on_meta,
                                       const std::function<bool(const std::string&)>& on_token,
                                       int* groups_out = nullptr) {
        const auto group = static_cast<std::size_t>(std::max(1, map_chunks));
        const std::size_t n = last - first;
        const std::size_t groups = (n + group - 1) / group;
        if (groups_out) *groups_out = static_cast<int>(groups);
        if (groups <= 1) {
            return call("Passages of " + what + ":\n" + passages(sources, texts, first, last) +
                            "\nTask: " + instruction(type, custom_prompt),
                        on_token);
        }
        std::string parts;
        int kept = 0;
        for (std::size_t g = 0; g < groups; ++g) {
            const std::size_t a = first + g * group;
            const std::size_t b = std::min(last, a + group);
            auto part = call(
                "Passages " + std::to_string(a + 1) + " to " + std::to_string(b) + " (part " +
                    std::to_string(g + 1) + " of " + std::to_string(groups) + ") of " + what +
                    ":\n" + passages(sources, texts, a, b) +
                    "\nTask: summarise this part in at most six sentences with its main points" +
                    (type == "custom" ? " relevant to this request: " + custom_prompt : "") +
                    (type == "sections"
                         ? ", as a line \"## <section name>\" per section followed by its "
                           "sentences"
                         : "") +
                    ".",
                [](const std::string&) { return true; });
            if (!part) return part.error();
            kept += part->kept;
            parts += "\nPart " + std::to_string(g + 1) + " (passages " + std::to_string(a + 1) +
                     " to " + std::to_string(b) + "):\n" + part->text + "\n";
            if (!on_meta({{"type", "meta"},
                          {"stage", "map"},
                          {"group", g + 1},
                          {"groups", groups},
                          {"chunk_start", sources[a].passage.chunk.chunk_index},
                          {"chunk_end", sources[b - 1].passage.chunk.chunk_index},
                          {"answerer", "llm"},
                          {"selected", part->kept},
                          {"unsupported_removed", part->removed}})) {
                return plugin::Error::unavailable("llm_cancelled", "the client went away");
            }
        }
        if (kept == 0) {
            return plugin::Error::unavailable("llm_unsupported",
                                              "no sentence of the LLM's part summaries is "
                                              "supported by the passages it cites");
        }
        if (!on_meta({{"type", "meta"}, {"stage", "reduce"}, {"candidates", kept}})) {
            return plugin::Error::unavailable("llm_cancelled", "the client went away");
        }
        return call("Cited summaries of consecutive parts of " + what + ":\n" + parts +
                        "\nTask: combine them into one summary. " +
                        instruction(type, custom_prompt) +
                        " Keep the citation numbers of the sentences you use exactly as they are.",
                    on_token);
    }
};

}  // namespace

bool Summarizer::summarizeWithLlm(SummaryPlan& plan, const std::function<bool(const json&)>& emit,
                                  Handoff& handoff) const {
    const auto started = std::chrono::steady_clock::now();
    LoadedDocument& doc = plan.doc;
    if (plan.redact_pii) handoff.redactor = std::make_unique<redact::Redactor>();
    redact::Redactor* r = handoff.redactor.get();

    // Every chunk numbered in order: the LLM cites these numbers, the `sources` frame lists them.
    handoff.book = std::make_unique<SourceBook>();
    for (std::size_t c = 0; c < doc.chunks.size(); ++c) handoff.book->cite(doc, c);
    const json sources_json = handoff.book->toJson(r);
    std::vector<std::string> texts;  // as shown (redacted with redact_pii): PII never reaches it
    for (const auto& s : sources_json) texts.push_back(s.value("excerpt", ""));

    const auto group = static_cast<std::size_t>(std::max(1, options_.llm_map_chunks));
    const std::size_t groups = (doc.chunks.size() + group - 1) / group;
    handoff.sources_sent = true;
    if (!emit({{"type", "meta"},
               {"stage", "plan"},
               {"document_id", doc.document.id},
               {"summary_type", plan.summary_type},
               {"chunks", doc.chunks.size()},
               {"sentences", doc.sentences.size()},
               {"map_reduce", groups > 1},
               {"groups", groups},
               {"answerer", "llm"}}) ||
        !emit({{"type", "sources"}, {"sources", sources_json}})) {
        return true;
    }

    Drafter drafter{*llm_,
                    support_,
                    handoff.book->sources(),
                    texts,
                    r,
                    plan.summary_type,
                    plan.custom_prompt,
                    options_.llm_map_chunks,
                    llm_->config().model};
    bool client_gone = false;
    int used_groups = 1;
    auto result = drafter.draft(
        0, doc.chunks.size(), "the document \"" + doc.document.filename + "\"", emit,
        [&](const std::string& piece) {
            handoff.tokens_sent = true;
            if (!emit({{"type", "token"}, {"content", piece}})) {
                client_gone = true;
                return false;
            }
            return true;
        },
        &used_groups);
    if (client_gone || (!result && result.error().code == "llm_cancelled")) return true;

    handoff.done_extra["llm_model"] = drafter.model;
    handoff.done_extra["unsupported_removed"] = drafter.removed;
    handoff.done_extra["unsupported_sentences"] = drafter.unsupported;
    handoff.done_extra["revised"] = handoff.tokens_sent;
    if (result && result->kept == 0) {
        result = plugin::Error::unavailable(
            "llm_unsupported",
            "no sentence of the LLM's summary is supported by the passage it "
            "cites");
    }
    if (!result) {
        common::log(common::LogLevel::kWarning, "llm_fallback",
                    {{"trace_id", plan.trace_id},
                     {"code", result.error().code},
                     {"reason", result.error().message},
                     {"what", "summary"}});
        handoff.done_extra["llm_fallback"] = {{"code", result.error().code},
                                              {"message", result.error().message}};
        return false;
    }

    json done{{"type", "done"},
              {"summary", result->text},
              {"answer", result->text},
              {"summary_type", plan.summary_type},
              {"document_id", doc.document.id},
              {"doc_name", doc.document.filename},
              {"citations", result->citations},
              {"chunk_indices", plan.chunk_indices},
              {"map_reduce", {{"used", used_groups > 1}, {"groups", used_groups}}},
              {"redacted", plan.redact_pii},
              {"answerer", "llm"},
              {"model", drafter.model},
              {"llm_model", drafter.model},
              {"encoder_model", encoder_ ? encoder_->modelName() : ""},
              {"unsupported_removed", drafter.removed},
              {"unsupported_sentences", drafter.unsupported},
              // As for answers: sentences were removed from the streamed (unchecked) text.
              {"revised", handoff.tokens_sent && drafter.last_removed > 0},
              {"timings_ms",
               {{"total", common::millisecondsSince(started)},
                {"llm", drafter.llm_ms},
                {"llm_first_token", drafter.first_token_ms},
                {"check", drafter.check_ms}}},
              {"trace_id", plan.trace_id}};
    if (plan.summary_type == "sections") done["sections"] = result->sections;
    if (plan.summary_type == "custom") done["custom_prompt"] = plan.custom_prompt;
    emit(done);
    return true;
}

plugin::Result<json> Summarizer::summarizeDocumentsWithLlm(const std::vector<LoadedDocument>& docs,
                                                           const json& request,
                                                           const std::string& trace_id) const {
    const auto started = std::chrono::steady_clock::now();
    const std::string type = request.value("summary_type", "executive");
    const bool redact_pii = request.value("redact_pii", false);
    std::optional<redact::Redactor> redactor;
    if (redact_pii) redactor.emplace();
    redact::Redactor* r = redactor ? &*redactor : nullptr;

    // One numbering across the documents, each document's chunks in order.
    SourceBook book;
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const auto& doc : docs) {
        const std::size_t first = book.sources().size();
        for (std::size_t c = 0; c < doc.chunks.size(); ++c) book.cite(doc, c);
        ranges.emplace_back(first, book.sources().size());
    }
    const json sources_json = book.toJson(r);
    std::vector<std::string> texts;
    for (const auto& s : sources_json) texts.push_back(s.value("excerpt", ""));

    Drafter drafter{*llm_,
                    support_,
                    book.sources(),
                    texts,
                    r,
                    type,
                    request.value("custom_prompt", ""),
                    options_.llm_map_chunks,
                    llm_->config().model};
    const auto quiet_meta = [](const json&) { return true; };
    const auto quiet_tokens = [](const std::string&) { return true; };
    json per_document = json::array();
    std::string parts;
    int kept = 0;
    for (std::size_t d = 0; d < docs.size(); ++d) {
        auto written = drafter.draft(ranges[d].first, ranges[d].second,
                                     "the document \"" + docs[d].document.filename + "\"",
                                     quiet_meta, quiet_tokens);
        if (!written) return written.error();
        kept += written->kept;
        json entry{{"document_id", docs[d].document.id},
                   {"doc_name", docs[d].document.filename},
                   {"summary", written->text},
                   {"citations", written->citations}};
        if (type == "sections") entry["sections"] = written->sections;
        per_document.push_back(std::move(entry));
        parts += "\nDocument " + std::to_string(d + 1) + " \"" + docs[d].document.filename +
                 "\" (passages " + std::to_string(ranges[d].first + 1) + " to " +
                 std::to_string(ranges[d].second) + "):\n" + written->text + "\n";
    }
    if (kept == 0) {
        return plugin::Error::unavailable("llm_unsupported",
                                          "no sentence of the LLM's summaries is supported by "
                                          "the passages it cites");
    }
    auto across =
        drafter.call("Cited summaries of " + std::to_string(docs.size()) + " documents:\n" + parts +
                         "\nTask: write one summary across these documents. " +
                         instruction(type == "bullets"  ? "bullets"
                                     : type == "custom" ? "custom"
                                                        : "executive",
                                     request.value("custom_prompt", "")) +
                         " Keep the citation numbers of the sentences you use exactly as they are.",
                     quiet_tokens);
    if (!across) return across.error();
    if (across->kept == 0) {
        return plugin::Error::unavailable("llm_unsupported",
                                          "no sentence of the LLM's summary across the documents "
                                          "is supported by the passages it cites");
    }
    return json{{"summary", across->text},
                {"summary_type", type},
                {"citations", across->citations},
                {"documents", per_document},
                {"sources", sources_json},
                {"redacted", redact_pii},
                {"answerer", "llm"},
                {"model", drafter.model},
                {"llm_model", drafter.model},
                {"encoder_model", encoder_ ? encoder_->modelName() : ""},
                {"unsupported_removed", drafter.removed},
                {"unsupported_sentences", drafter.unsupported},
                {"timings_ms",
                 {{"total", common::millisecondsSince(started)},
                  {"llm", drafter.llm_ms},
                  {"check", drafter.check_ms}}},
                {"trace_id", trace_id}};
}

}  // namespace docintel::knowledge
