#include "knowledge/summarizer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "common/clock.h"
#include "common/id.h"

namespace docintel::knowledge {
namespace {

using nlohmann::json;

/// Sentences with fewer content words than this (table cells, captions, fragments) are
/// quoted by a summary only when a part has nothing better.
constexpr std::size_t kMinSummaryWords = 3;
/// ... and fewer words (with a letter) than this: bibliography entries, captions, headings.
constexpr std::size_t kMinSummaryWordCount = 7;

/// Whether a sentence reads as prose worth quoting in a summary: enough content words, mostly
/// letters, no links, starting like a sentence and ending with closing punctuation. Reference
/// lists, table rows and extraction debris fail it (they can dominate a centroid).
bool summaryWorthy(const std::string& text) {
    if (contentWords(text).size() < kMinSummaryWords) return false;
    if (text.find("ttps") != std::string::npos || text.find("http") != std::string::npos ||
        text.find("www.") != std::string::npos) {
        return false;
    }
    // Reference markers cut by the sentence splitter ("2][8] His ...") leave brackets unpaired.
    if (std::count(text.begin(), text.end(), '[') != std::count(text.begin(), text.end(), ']')) {
        return false;
    }
    std::size_t words = 0, numbers = 0;
    bool in_word = false, has_letter = false;
    for (const char ch : text + " ") {
        const auto u = static_cast<unsigned char>(ch);
        if (std::isspace(u)) {
            if (in_word) ++(has_letter ? words : numbers);
            in_word = has_letter = false;
        } else {
            in_word = true;
            has_letter = has_letter || std::isalpha(u) || u >= 0x80;
        }
    }
    // Table rows run together: many bare numbers among the words.
    if (words < kMinSummaryWordCount || numbers * 4 > words) return false;
    std::size_t letters = 0, visible = 0;
    for (const char ch : text) {
        const auto u = static_cast<unsigned char>(ch);
        if (std::isspace(u)) continue;
        ++visible;
        if (std::isalpha(u) || u >= 0x80) ++letters;
    }
    if (visible == 0 || static_cast<double>(letters) < 0.6 * static_cast<double>(visible)) {
        return false;
    }
    const auto first = static_cast<unsigned char>(text.front());
    const auto last = static_cast<unsigned char>(text.back());
    const bool starts = std::isupper(first) || std::isdigit(first) || first >= 0x80 ||
                        first == '"' || first == '\'' || first == '(';
    const bool ends = last == '.' || last == '!' || last == '?' || last == '"' || last == '\'' ||
                      last == ')' || last >= 0x80;
    return starts && ends;
}

/// One part of a summary (the whole summary, or one section of a `sections` summary): a label
/// and the chosen sentences, as (document, sentence index) in document order.
struct Part {
    std::string label;
    std::vector<std::string> section_path;
    std::vector<std::pair<const LoadedDocument*, std::size_t>> sentences;
};

/// What a `custom` summary is focused on.
struct Focus {
    std::vector<float> vector;
    std::set<std::string> words;
};

std::string joinPath(const std::vector<std::string>& path) {
    std::string out;
    for (const auto& p : path) out += (out.empty() ? "" : " > ") + p;
    return out;
}

/// How many sentences a summary (or one section of a `sections` summary) of `n` takes.
std::size_t target(const std::string& type, std::size_t n) {
    auto clamp = [n](std::size_t v, std::size_t lo, std::size_t hi) {
        return std::min(n, std::clamp(v, lo, hi));
    };
    if (type == "detailed") return clamp(n / 4, 4, 15);
    if (type == "bullets") return clamp(n / 6, 3, 8);
    if (type == "sections") return clamp(n / 4, 1, 3);
    return clamp(n / 8, 2, 5);  // executive, custom
}

/// The relevance of each of `pool` for a summary: centrality (cosine to `center`), blended
/// with closeness to the focus of a `custom` summary.
std::vector<double> relevance(const LoadedDocument& doc, const std::vector<std::size_t>& pool,
                              const std::vector<float>& center, const Focus* focus) {
    std::vector<double> out;
    out.reserve(pool.size());
    for (const std::size_t i : pool) {
        const auto& s = doc.sentences[i];
        double r = cosine(s.vector, center);
        if (focus) {
            const double focused = 0.6 * cosine(s.vector, focus->vector) +
                                   0.4 * coverage(focus->words, contentWordSet(s.span.text));
            r = 0.35 * r + 0.65 * focused;
        }
        out.push_back(r);
    }
    return out;
}

/// The summary-worthy of `idx`, or all of them when none is.
std::vector<std::size_t> worthy(const LoadedDocument& doc, std::vector<std::size_t> idx) {
    std::vector<std::size_t> out;
    for (const std::size_t i : idx) {
        if (summaryWorthy(doc.sentences[i].span.text)) out.push_back(i);
    }
    return out.empty() ? idx : out;
}

/// Up to `k` of `pool` (sentence indices of `doc`) by MMR around `center`; document order.
std::vector<std::size_t> choose(const LoadedDocument& doc, std::vector<std::size_t> pool,
                                const std::vector<float>& center, const Focus* focus, std::size_t k,
                                double lambda) {
    pool = worthy(doc, std::move(pool));
    std::vector<const std::vector<float>*> vectors;
    for (const std::size_t i : pool) vectors.push_back(&doc.sentences[i].vector);
    std::vector<std::size_t> chosen;
    for (const std::size_t p : selectMmr(vectors, relevance(doc, pool, center, focus), k, lambda)) {
        chosen.push_back(pool[p]);
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

/// The centroid of the summary-worthy of `idx` (of all when none is).
std::vector<float> centroidOf(const LoadedDocument& doc, const std::vector<std::size_t>& idx) {
    std::vector<const std::vector<float>*> vectors;
    for (const std::size_t i : worthy(doc, idx)) vectors.push_back(&doc.sentences[i].vector);
    return centroid(vectors);
}

/// The sentences of a document's chunks, in order, each once (chunks overlap).
void splitSentences(LoadedDocument& doc) {
    doc.sentences.clear();
    std::set<std::string> seen;
    for (std::size_t c = 0; c < doc.chunks.size(); ++c) {
        const std::string section = joinPath(doc.chunks[c].section_path);
        for (auto& span : quotableSentences(doc.chunks[c], true)) {
            if (!seen.insert(span.text).second) continue;
            doc.sentences.push_back(DocumentSentence{c, std::move(span), section, {}});
        }
    }
}

plugin::Error validationError(const json& detail) {
    return plugin::Error{"validation_error", detail.dump(), 422};
}

/// The summary_type and custom_prompt checks of a request (422 detail items).
json checkType(const json& request, const std::string& loc_root) {
    json detail = json::array();
    const auto& types = Summarizer::summaryTypes();
    const std::string type = request.value("summary_type", "executive");
    if (std::find(types.begin(), types.end(), type) == types.end()) {
        detail.push_back({{"loc", {loc_root, "summary_type"}},
                          {"msg",
                           "Input should be 'executive', 'detailed', 'bullets', 'sections' or "
                           "'custom'"},
                          {"type", "enum"}});
    }
    std::string prompt = request.value("custom_prompt", "");
    const bool blank = prompt.find_first_not_of(" \t\r\n") == std::string::npos;
    if (type == "custom" && blank) {
        detail.push_back({{"loc", {loc_root, "custom_prompt"}},
                          {"msg", "custom_prompt is required when summary_type is 'custom'"},
                          {"type", "missing"}});
    }
    return detail;
}

struct Rendered {
    std::string text;
    json citations = json::array();
    json parts = json::array();
};

/// The summary text in the layout of `type`, each sentence followed by its [n].
Rendered render(const std::string& type, const std::vector<Part>& parts, SourceBook& book,
                redact::Redactor* redactor) {
    Rendered out;
    for (const auto& part : parts) {
        std::string part_text;
        json part_citations = json::array();
        const DocumentSentence* previous = nullptr;
        for (const auto& [doc, index] : part.sentences) {
            const auto& s = doc->sentences[index];
            json c = book.citation(*doc, s, redactor);
            const std::string cited = c["quote"].get<std::string>() + " [" +
                                      std::to_string(c["source_number"].get<int>()) + "]";
            if (type == "bullets") {
                part_text += (part_text.empty() ? "- " : "\n- ") + cited;
            } else if (type == "detailed" && previous && previous->section != s.section) {
                part_text += "\n\n" + cited;
            } else {
                part_text += (part_text.empty() ? "" : " ") + cited;
            }
            previous = &s;
            out.citations.push_back(c);
            part_citations.push_back(std::move(c));
        }
        if (type == "sections") {
            const std::string heading =
                maybeRedact(redactor, part.label.empty() ? "(no heading)" : part.label);
            out.text += (out.text.empty() ? "## " : "\n\n## ") + heading + "\n" + part_text;
            out.parts.push_back({{"section", heading},
                                 {"section_path", part.section_path},
                                 {"summary", part_text},
                                 {"citations", std::move(part_citations)}});
        } else {
            out.text += (out.text.empty() ? "" : "\n") + part_text;
        }
    }
    return out;
}

}  // namespace

// ---- SourceBook and selection helpers ----

int SourceBook::cite(const LoadedDocument& doc, std::size_t chunk) {
    const auto& c = doc.chunks[chunk];
    const auto key = std::make_pair(doc.document.id, c.chunk_index);
    if (const auto it = numbers_.find(key); it != numbers_.end()) return it->second;
    const int number = static_cast<int>(sources_.size()) + 1;
    sources_.push_back(Source{number, storage::Passage{doc.document.id, doc.document.filename, c}});
    numbers_.emplace(key, number);
    return number;
}

json SourceBook::toJson(redact::Redactor* redactor) const {
    json out = json::array();
    for (const auto& s : sources_) {
        out.push_back(sourceJson(s, maybeRedact(redactor, s.passage.chunk.text)));
    }
    return out;
}

json SourceBook::citation(const LoadedDocument& doc, const DocumentSentence& s,
                          redact::Redactor* redactor) {
    const int number = cite(doc, s.chunk);
    const Source& source = sources_[static_cast<std::size_t>(number - 1)];
    const AnswerSentence cited = citeSentence(source, s.span);
    return {{"source_number", number},
            {"document_id", doc.document.id},
            {"doc_name", doc.document.filename},
            {"chunk_index", source.passage.chunk.chunk_index},
            {"page", cited.page},
            {"char_start", cited.char_start},
            {"char_end", cited.char_end},
            {"section", s.section},
            {"quote", maybeRedact(redactor, cited.text)}};
}

std::vector<float> centroid(const std::vector<const std::vector<float>*>& vectors) {
    std::vector<float> sum;
    for (const auto* v : vectors) {
        if (v->empty()) continue;
        if (sum.empty()) sum.assign(v->size(), 0.0f);
        for (std::size_t i = 0; i < v->size() && i < sum.size(); ++i) sum[i] += (*v)[i];
    }
    normalise(sum);
    return sum;
}

std::vector<std::size_t> selectMmr(const std::vector<const std::vector<float>*>& vectors,
                                   const std::vector<double>& relevance, std::size_t k,
                                   double lambda) {
    std::vector<std::size_t> taken;
    std::vector<double> max_similarity(vectors.size(), 0.0);
    std::vector<bool> used(vectors.size(), false);
    k = std::min(k, vectors.size());
    while (taken.size() < k) {
        std::size_t best = vectors.size();
        double best_score = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < vectors.size(); ++i) {
            if (used[i]) continue;
            const double score = lambda * relevance[i] - (1 - lambda) * max_similarity[i];
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
        if (best == vectors.size()) break;
        used[best] = true;
        taken.push_back(best);
        for (std::size_t i = 0; i < vectors.size(); ++i) {
            if (!used[i]) {
                max_similarity[i] =
                    std::max(max_similarity[i], cosine(*vectors[i], *vectors[best]));
            }
        }
    }
    return taken;
}

std::string maybeRedact(redact::Redactor* redactor, const std::string& text) {
    return redactor ? redactor->redact(text).text : text;
}

bool emitTokens(const std::string& text, const std::function<bool(const json&)>& emit) {
    std::size_t from = 0;
    while (from < text.size()) {
        std::size_t to = text.find(' ', from);
        to = to == std::string::npos ? text.size() : to + 1;
        if (!emit({{"type", "token"}, {"content", text.substr(from, to - from)}})) return false;
        from = to;
    }
    return true;
}

// ---- Summarizer ----

const std::vector<std::string>& Summarizer::summaryTypes() {
    static const std::vector<std::string> types = {"executive", "detailed", "bullets", "sections",
                                                   "custom"};
    return types;
}

Summarizer::Summarizer(storage::DocumentRepository& documents, const auth::DocumentAccess& access,
                       const embed::SentenceEncoder* encoder, SummaryOptions options)
    : documents_(documents),
      access_(access),
      encoder_(encoder),
      options_(options),
      cache_(std::make_unique<SentenceVectorCache>(options.vector_cache_bytes)),
      support_(encoder) {}

void Summarizer::enableLlm(const LlmConfig& config) {
    if (config.enabled()) llm_ = std::make_unique<LlmClient>(config);
}

plugin::Result<LoadedDocument> Summarizer::load(const plugin::Principal& caller,
                                                const std::string& id) const {
    const plugin::Error not_found{"document_not_found", "document not found", 404};
    if (!common::isUuid(id)) return not_found;
    auto doc = documents_.find(id);
    if (!doc) return doc.error();
    if (!*doc) return not_found;
    if (auto allowed = access_.require(caller.user_id, **doc, auth::WorkspaceAction::kAsk);
        !allowed) {
        return allowed.error();
    }
    const auto& status = (*doc)->status;
    if (status != "chunked" && status != "embedding" && status != "embedded") {
        return plugin::Error::conflict("document_not_ready", "document " + id + " is " + status +
                                                                 "; it can be summarised once it "
                                                                 "is chunked");
    }
    LoadedDocument out;
    out.document = std::move(**doc);
    auto chunks = documents_.chunks(id);
    if (!chunks) return chunks.error();
    out.chunks = std::move(chunks).value();
    splitSentences(out);
    return out;
}

plugin::Status Summarizer::encode(LoadedDocument& doc, std::size_t from, std::size_t to) const {
    if (!encoder_) {
        return plugin::Error::unavailable("encoder_unavailable",
                                          "summaries need the sentence encoder on this node");
    }
    if (from >= to) return {};
    // Vectors of this document's sentences computed by an earlier request are reused.
    const std::string key =
        SentenceVectorCache::key(doc.document.id, doc.document.version, encoder_->modelName());
    std::vector<std::string> texts;
    for (std::size_t i = from; i < to; ++i) texts.push_back(doc.sentences[i].span.text);
    auto cached = cache_->lookup(key, texts);
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (cached[i].empty()) missing.push_back(texts[i]);
    }
    if (!missing.empty()) {
        auto vectors = encoder_->encode(missing, 32);
        if (!vectors) return vectors.error();
        cache_->store(key, missing, *vectors);
        std::size_t next = 0;
        for (auto& v : cached) {
            if (v.empty()) v = std::move((*vectors)[next++]);
        }
    }
    for (std::size_t i = from; i < to; ++i) doc.sentences[i].vector = std::move(cached[i - from]);
    return {};
}

plugin::Result<SummaryPlan> Summarizer::prepare(const plugin::Principal& caller,
                                                const std::string& document_id, const json& request,
                                                const std::string& trace_id) const {
    if (auto detail = checkType(request, "body"); !detail.empty()) return validationError(detail);
    SummaryPlan plan;
    plan.summary_type = request.value("summary_type", "executive");
    plan.custom_prompt = request.value("custom_prompt", "");
    plan.redact_pii = request.value("redact_pii", false);
    plan.trace_id = trace_id;
    auto doc = load(caller, document_id);
    if (!doc) return doc.error();
    plan.doc = std::move(doc).value();

    const auto& indices = request.value("chunk_indices", json::array());
    if (!indices.empty()) {
        std::set<int> have;
        for (const auto& c : plan.doc.chunks) have.insert(c.chunk_index);
        std::set<int> wanted;
        json detail = json::array();
        for (std::size_t i = 0; i < indices.size(); ++i) {
            const int index = indices[i].is_number_integer() ? indices[i].get<int>() : -1;
            if (!have.count(index)) {
                detail.push_back(
                    {{"loc", {"body", "chunk_indices", i}},
                     {"msg", "the document has no chunk " + indices[i].dump() + " (it has " +
                                 std::to_string(have.size()) + " chunks, numbered from 0)"},
                     {"type", "value_error"}});
            }
            wanted.insert(index);
        }
        if (!detail.empty()) return validationError(detail);
        std::vector<storage::Chunk> kept;
        for (auto& c : plan.doc.chunks) {
            if (wanted.count(c.chunk_index)) kept.push_back(std::move(c));
        }
        plan.doc.chunks = std::move(kept);
        plan.chunk_indices.assign(wanted.begin(), wanted.end());
        splitSentences(plan.doc);
    }
    return plan;
}

void Summarizer::summarize(SummaryPlan plan, const std::function<bool(const json&)>& emit) const {
    Handoff handoff;
    if (llm_ && summarizeWithLlm(plan, emit, handoff)) return;
    summarizeExtractive(std::move(plan), emit, handoff);
}

void Summarizer::summarizeExtractive(SummaryPlan plan, const std::function<bool(const json&)>& emit,
                                     Handoff& handoff) const {
    const auto started = std::chrono::steady_clock::now();
    auto fail = [&](const plugin::Error& e) {
        emit({{"type", "error"},
              {"code", e.code},
              {"message", e.message},
              {"trace_id", plan.trace_id}});
    };
    LoadedDocument& doc = plan.doc;
    const std::string& type = plan.summary_type;

    std::optional<Focus> focus;
    if (type == "custom") {
        if (!encoder_)
            return fail(plugin::Error::unavailable("encoder_unavailable",
                                                   "summaries need the sentence "
                                                   "encoder on this node"));
        auto v = encoder_->encode({plan.custom_prompt}, 1);
        if (!v) return fail(v.error());
        focus = Focus{std::move((*v)[0]), contentWordSet(plan.custom_prompt)};
    }

    const std::size_t group_chunks =
        static_cast<std::size_t>(std::max(1, options_.map_group_chunks));
    const std::size_t n_chunks = doc.chunks.size();
    const std::size_t groups =
        n_chunks > group_chunks ? (n_chunks + group_chunks - 1) / group_chunks : 1;
    const bool map_reduce = groups > 1;
    if (!handoff.sources_sent && !emit({{"type", "meta"},
                                        {"stage", "plan"},
                                        {"document_id", doc.document.id},
                                        {"summary_type", type},
                                        {"chunks", n_chunks},
                                        {"sentences", doc.sentences.size()},
                                        {"map_reduce", map_reduce},
                                        {"groups", groups}})) {
        return;
    }

    // Parts: one per section for `sections`, else one.
    const bool by_section = type == "sections";
    std::vector<std::string> part_order;
    std::map<std::string, std::vector<std::size_t>> part_sentences;
    for (std::size_t i = 0; i < doc.sentences.size(); ++i) {
        const std::string key = by_section ? doc.sentences[i].section : std::string();
        auto [it, fresh] = part_sentences.try_emplace(key);
        if (fresh) part_order.push_back(key);
        it->second.push_back(i);
    }

    // Map: encode group by group; in map-reduce, each group keeps its own best sentences.
    std::vector<std::size_t> candidates;
    std::size_t from = 0;
    double encode_ms = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t chunk_end = std::min(n_chunks, (g + 1) * group_chunks);
        std::size_t to = from;
        while (to < doc.sentences.size() && doc.sentences[to].chunk < chunk_end) ++to;
        const auto encode_started = std::chrono::steady_clock::now();
        if (auto s = encode(doc, from, to); !s) return fail(s.error());
        encode_ms += common::millisecondsSince(encode_started);
        if (map_reduce) {
            std::map<std::string, std::vector<std::size_t>> local;
            for (std::size_t i = from; i < to; ++i) {
                local[by_section ? doc.sentences[i].section : std::string()].push_back(i);
            }
            std::size_t selected = 0;
            for (const auto& [key, pool] : local) {
                const std::size_t k =
                    std::min(pool.size(), target(type, part_sentences[key].size()));
                auto picks = choose(doc, pool, centroidOf(doc, pool), focus ? &*focus : nullptr, k,
                                    options_.mmr_lambda);
                selected += picks.size();
                candidates.insert(candidates.end(), picks.begin(), picks.end());
            }
            if (!emit({{"type", "meta"},
                       {"stage", "map"},
                       {"group", g + 1},
                       {"groups", groups},
                       {"chunk_start", doc.chunks[g * group_chunks].chunk_index},
                       {"chunk_end", doc.chunks[chunk_end - 1].chunk_index},
                       {"sentences", to - from},
                       {"selected", selected}})) {
                return;
            }
        }
        from = to;
    }
    if (map_reduce) {
        std::sort(candidates.begin(), candidates.end());
        if (!emit({{"type", "meta"}, {"stage", "reduce"}, {"candidates", candidates.size()}})) {
            return;
        }
    }

    // Reduce: per part, the candidates against the centre of the whole part.
    std::vector<Part> parts;
    for (const auto& key : part_order) {
        const auto& all = part_sentences[key];
        std::vector<std::size_t> pool;
        if (map_reduce) {
            for (const std::size_t i : candidates) {
                if ((by_section ? doc.sentences[i].section : std::string()) == key) {
                    pool.push_back(i);
                }
            }
        } else {
            pool = all;
        }
        auto chosen = choose(doc, pool, centroidOf(doc, all), focus ? &*focus : nullptr,
                             target(type, all.size()), options_.mmr_lambda);
        if (chosen.empty()) continue;
        Part part;
        part.label = key;
        part.section_path = doc.chunks[doc.sentences[chosen.front()].chunk].section_path;
        for (const std::size_t i : chosen) part.sentences.emplace_back(&doc, i);
        parts.push_back(std::move(part));
    }

    std::optional<redact::Redactor> own_redactor;
    if (plan.redact_pii && !handoff.redactor) own_redactor.emplace();
    redact::Redactor* redactor =
        handoff.redactor ? handoff.redactor.get() : (own_redactor ? &*own_redactor : nullptr);
    // After a failed LLM attempt the sources went out already, numbered in its book.
    SourceBook own_book;
    SourceBook& book = handoff.book ? *handoff.book : own_book;
    Rendered rendered = render(type, parts, book, redactor);
    if (!handoff.sources_sent && !emit({{"type", "sources"}, {"sources", book.toJson(redactor)}})) {
        return;
    }
    if (!handoff.tokens_sent && !emitTokens(rendered.text, emit)) return;
    json done{
        {"type", "done"},
        {"summary", rendered.text},
        {"answer", rendered.text},
        {"summary_type", type},
        {"document_id", doc.document.id},
        {"doc_name", doc.document.filename},
        {"citations", rendered.citations},
        {"chunk_indices", plan.chunk_indices},
        {"map_reduce",
         {{"used", map_reduce}, {"groups", groups}, {"candidates", candidates.size()}}},
        {"redacted", plan.redact_pii},
        {"answerer", "extractive"},
        {"model", encoder_ ? encoder_->modelName() : ""},
        {"timings_ms", {{"total", common::millisecondsSince(started)}, {"encode", encode_ms}}},
        {"trace_id", plan.trace_id}};
    if (type == "sections") done["sections"] = rendered.parts;
    if (type == "custom") done["custom_prompt"] = plan.custom_prompt;
    for (const auto& [k, v] : handoff.done_extra.items()) done[k] = v;
    emit(done);
}

plugin::Result<json> Summarizer::summarizeDocument(
    const plugin::Principal& caller, const std::string& document_id, const json& request,
    const std::string& trace_id, const std::function<void(const json&)>& on_meta) const {
    auto plan = prepare(caller, document_id, request, trace_id);
    if (!plan) return plan.error();
    json result;
    json progress = json::array();
    json sources = json::array();
    std::optional<plugin::Error> error;
    summarize(std::move(plan).value(), [&](const json& frame) {
        const std::string type = frame.value("type", "");
        if (type == "meta") {
            progress.push_back(frame);
            if (on_meta) on_meta(frame);
        }
        if (type == "sources") sources = frame["sources"];
        if (type == "done") result = frame;
        if (type == "error") {
            error = plugin::Error{frame.value("code", "internal"), frame.value("message", ""), 500};
        }
        return true;
    });
    if (error) return *error;
    result.erase("type");
    result.erase("answer");
    result["sources"] = std::move(sources);
    result["progress"] = std::move(progress);
    return result;
}

plugin::Result<json> Summarizer::summarizeDocuments(const plugin::Principal& caller,
                                                    const std::vector<std::string>& document_ids,
                                                    const json& request,
                                                    const std::string& trace_id) const {
    const auto started = std::chrono::steady_clock::now();
    json detail = checkType(request, "arguments");
    std::vector<std::string> ids;
    for (const auto& id : document_ids) {
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
    if (ids.empty() || static_cast<int>(ids.size()) > options_.max_documents) {
        detail.push_back(
            {{"loc", {"arguments", "document_ids"}},
             {"msg", "give between 1 and " + std::to_string(options_.max_documents) + " documents"},
             {"type", "value_error"}});
    }
    if (!detail.empty()) return validationError(detail);
    const std::string type = request.value("summary_type", "executive");
    const bool redact_pii = request.value("redact_pii", false);

    std::optional<Focus> focus;
    if (type == "custom" && encoder_) {
        const std::string prompt = request.value("custom_prompt", "");
        auto v = encoder_->encode({prompt}, 1);
        if (!v) return v.error();
        focus = Focus{std::move((*v)[0]), contentWordSet(prompt)};
    }

    std::vector<LoadedDocument> docs;
    for (const auto& id : ids) {
        auto doc = load(caller, id);
        if (!doc) return doc.error();
        docs.push_back(std::move(doc).value());
    }
    json llm_fallback;
    if (llm_) {
        auto written = summarizeDocumentsWithLlm(docs, request, trace_id);
        if (written) return written;
        llm_fallback = {{"code", written.error().code}, {"message", written.error().message}};
    }
    for (auto& doc : docs) {
        if (auto s = encode(doc, 0, doc.sentences.size()); !s) return s.error();
    }

    std::optional<redact::Redactor> redactor;
    if (redact_pii) redactor.emplace();
    redact::Redactor* r = redactor ? &*redactor : nullptr;
    SourceBook book;

    // Each document on its own (its picks are the candidates of the summary across them).
    json per_document = json::array();
    std::vector<std::pair<std::size_t, std::size_t>> pool;  // (document, sentence)
    std::vector<std::vector<float>> centers;
    for (std::size_t d = 0; d < docs.size(); ++d) {
        const auto& doc = docs[d];
        std::vector<std::size_t> all(doc.sentences.size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        centers.push_back(centroidOf(doc, all));
        std::vector<Part> parts;
        if (type == "sections") {
            std::vector<std::string> order;
            std::map<std::string, std::vector<std::size_t>> by;
            for (const std::size_t i : all) {
                auto [it, fresh] = by.try_emplace(doc.sentences[i].section);
                if (fresh) order.push_back(doc.sentences[i].section);
                it->second.push_back(i);
            }
            for (const auto& key : order) {
                auto chosen =
                    choose(doc, by[key], centroidOf(doc, by[key]), focus ? &*focus : nullptr,
                           target(type, by[key].size()), options_.mmr_lambda);
                if (chosen.empty()) continue;
                Part part{key, doc.chunks[doc.sentences[chosen.front()].chunk].section_path, {}};
                for (const std::size_t i : chosen) part.sentences.emplace_back(&doc, i);
                parts.push_back(std::move(part));
            }
        } else {
            auto chosen = choose(doc, all, centers.back(), focus ? &*focus : nullptr,
                                 target(type, all.size()), options_.mmr_lambda);
            Part part;
            for (const std::size_t i : chosen) part.sentences.emplace_back(&doc, i);
            parts.push_back(std::move(part));
        }
        for (const auto& part : parts) {
            for (const auto& [_, i] : part.sentences) pool.emplace_back(d, i);
        }
        Rendered rendered = render(type, parts, book, r);
        json entry{{"document_id", doc.document.id},
                   {"doc_name", doc.document.filename},
                   {"summary", rendered.text},
                   {"citations", rendered.citations}};
        if (type == "sections") entry["sections"] = rendered.parts;
        per_document.push_back(std::move(entry));
    }

    // Across the documents: their picks reduced against the mean of their centres, so each
    // document weighs the same whatever its length.
    std::vector<const std::vector<float>*> center_ptrs;
    for (const auto& c : centers) center_ptrs.push_back(&c);
    const std::vector<float> overall_center = centroid(center_ptrs);
    std::vector<const std::vector<float>*> vectors;
    std::vector<double> relevance_scores;
    for (const auto& [d, i] : pool) {
        const auto& s = docs[d].sentences[i];
        vectors.push_back(&s.vector);
        double rel = cosine(s.vector, overall_center);
        if (focus) rel = 0.35 * rel + 0.65 * cosine(s.vector, focus->vector);
        relevance_scores.push_back(rel);
    }
    const std::size_t k = std::clamp<std::size_t>(2 * docs.size(), 3, 10);
    auto picked = selectMmr(vectors, relevance_scores, k, options_.mmr_lambda);
    std::sort(picked.begin(), picked.end(),
              [&](std::size_t a, std::size_t b) { return pool[a] < pool[b]; });
    Part overall;
    for (const std::size_t p : picked)
        overall.sentences.emplace_back(&docs[pool[p].first], pool[p].second);
    Rendered across = render(type == "bullets" ? "bullets" : "executive", {overall}, book, r);

    json out{{"summary", across.text},
             {"summary_type", type},
             {"citations", across.citations},
             {"documents", per_document},
             {"sources", book.toJson(r)},
             {"redacted", redact_pii},
             {"answerer", "extractive"},
             {"model", encoder_ ? encoder_->modelName() : ""},
             {"timings_ms", {{"total", common::millisecondsSince(started)}}},
             {"trace_id", trace_id}};
    if (!llm_fallback.is_null()) out["llm_fallback"] = llm_fallback;
    return out;
}

}  // namespace docintel::knowledge
