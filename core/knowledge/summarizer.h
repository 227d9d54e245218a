#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "embed/sentence_encoder.h"
#include "knowledge/evaluation_service.h"
#include "knowledge/extractive_answerer.h"
#include "knowledge/llm_client.h"
#include "knowledge/sentence_vector_cache.h"
#include "plugin_api/http_types.h"
#include "redact/pii_redactor.h"
#include "storage/document_repository.h"

namespace docintel::knowledge {

/// A quotable sentence of a document, where it sits and (once encoded) its vector.
struct DocumentSentence {
    std::size_t chunk = 0;  ///< index into LoadedDocument::chunks
    SentenceSpan span;      ///< bytes of that chunk's text
    std::string section;    ///< the chunk's section path joined by " > " ("" = none)
    std::vector<float> vector;
};

/// A document read for summarising or comparing: metadata, chunks (in order) and their
/// sentences in document order, a sentence repeated by overlapping chunks kept once.
struct LoadedDocument {
    storage::Document document;
    std::vector<storage::Chunk> chunks;
    std::vector<DocumentSentence> sentences;
};

/// Numbers the chunks a summary or comparison cites, [1], [2], ... in order of first citation,
/// and writes the `sources` and citation objects (the same fields as the query stream's).
class SourceBook {
  public:
    /// The source number of chunk `chunk` of `doc`, assigning the next one when new.
    int cite(const LoadedDocument& doc, std::size_t chunk);
    const std::vector<Source>& sources() const { return sources_; }
    /// The sources, excerpts redacted through `redactor` when it is set.
    nlohmann::json toJson(redact::Redactor* redactor) const;
    /// A citation of sentence `s` of `doc` (cites its chunk): source_number, document_id,
    /// doc_name, chunk_index, page, char_start, char_end (in the page's text), quote.
    nlohmann::json citation(const LoadedDocument& doc, const DocumentSentence& s,
                            redact::Redactor* redactor);

  private:
    std::vector<Source> sources_;
    std::map<std::pair<std::string, int>, int> numbers_;
};

/// The normalised mean of unit vectors (their centroid direction); empty when none.
std::vector<float> centroid(const std::vector<const std::vector<float>*>& vectors);

/// Maximal marginal relevance: up to `k` of the items, each step taking the one with the best
/// `lambda`·relevance − (1 − `lambda`)·(highest cosine to one already taken). Returns indices
/// into `vectors` in the order taken.
std::vector<std::size_t> selectMmr(const std::vector<const std::vector<float>*>& vectors,
                                   const std::vector<double>& relevance, std::size_t k,
                                   double lambda);

/// Redacts with `redactor` when it is set, else returns `text` unchanged.
std::string maybeRedact(redact::Redactor* redactor, const std::string& text);

/// Streams `text` word by word as `token` frames; false when the client went away.
bool emitTokens(const std::string& text, const std::function<bool(const nlohmann::json&)>& emit);

struct SummaryOptions {
    /// A document with more chunks than this is summarised map-reduce: groups of this many
    /// consecutive chunks are summarised on their own (map), then their picks together (reduce).
    int map_group_chunks = 8;
    double mmr_lambda = 0.7;  ///< relevance against redundancy in selectMmr
    int max_documents = 20;   ///< summarize_documents
    /// LLM mode: at most this many chunks go to the LLM in one request; longer documents are
    /// summarised map-reduce (a cited summary per part, then one that combines them).
    int llm_map_chunks = 16;
    /// Bound of the sentence-vector cache (SentenceVectorCache; DOCINTEL_SUMMARY_CACHE_MB).
    std::size_t vector_cache_bytes = 64u << 20;
};

/// A SummarizeRequest checked against a document the caller may summarise.
struct SummaryPlan {
    LoadedDocument doc;  ///< restricted to `chunk_indices` when given; not yet encoded
    std::string summary_type = "executive";
    std::string custom_prompt;
    std::vector<int> chunk_indices;
    bool redact_pii = false;
    std::string trace_id;
};

/// Extractive summaries (no LLM): sentences chosen by centrality — cosine to the centroid of
/// the document's (or section's) sentence vectors under the local encoder — with redundancy
/// removed by MMR, ordered by position and each cited [n] to its chunk, page and span.
/// `custom` blends centrality with closeness to `custom_prompt`. Long documents go map-reduce
/// with `meta` progress frames. Frames are the SSE payloads of ARCHITECTURE.md §7 plus `meta`;
/// REST streams them and MCP collects them. Thread-safe.
class Summarizer {
  public:
    /// The values of `summary_type`.
    static const std::vector<std::string>& summaryTypes();

    Summarizer(storage::DocumentRepository& documents, const auth::DocumentAccess& access,
               const embed::SentenceEncoder* encoder, SummaryOptions options = {});

    /// A document the caller may ask about (404 otherwise, nothing told) that is chunked
    /// (`document_not_ready` 409 otherwise), with its chunks and sentences (not encoded).
    plugin::Result<LoadedDocument> load(const plugin::Principal& caller,
                                        const std::string& document_id) const;
    /// Fills the vectors of sentences [from, to) of `doc`.
    plugin::Status encode(LoadedDocument& doc, std::size_t from, std::size_t to) const;

    /// Checks a SummarizeRequest for `document_id`. Errors as load(), plus
    /// `validation_error` (422; the message is the JSON `detail` array) for `custom` without
    /// `custom_prompt`, an unknown `summary_type` or a chunk index the document does not have.
    plugin::Result<SummaryPlan> prepare(const plugin::Principal& caller,
                                        const std::string& document_id,
                                        const nlohmann::json& request,
                                        const std::string& trace_id) const;

    /// Summarises, calling `emit` with each frame (`meta`*, `sources`, `token`*, `done`, or
    /// `error`); stops early when `emit` returns false.
    void summarize(SummaryPlan plan, const std::function<bool(const nlohmann::json&)>& emit) const;

    /// summarize_document: prepare + summarize, the `done` frame with `sources` and the `meta`
    /// frames (`progress`).
    /// `on_meta` sees each `meta` frame as it happens (MCP progress notifications).
    plugin::Result<nlohmann::json> summarizeDocument(
        const plugin::Principal& caller, const std::string& document_id,
        const nlohmann::json& request, const std::string& trace_id,
        const std::function<void(const nlohmann::json&)>& on_meta = {}) const;

    /// summarize_documents: each document summarised on its own, then one summary across them
    /// (the per-document picks reduced against the mean of the documents' centroids), every
    /// sentence cited to its document.
    plugin::Result<nlohmann::json> summarizeDocuments(const plugin::Principal& caller,
                                                      const std::vector<std::string>& document_ids,
                                                      const nlohmann::json& request,
                                                      const std::string& trace_id) const;

    const embed::SentenceEncoder* encoder() const { return encoder_; }

    /// LLM mode (docs/knowledge.md "LLM mode for summaries"): summaries are written by the
    /// endpoint over the numbered chunks, every sentence checked against the chunks it cites
    /// (the answers' check); the extractive summary stays the fallback. A config that is not
    /// enabled() leaves LLM mode off. Set once before serving.
    void enableLlm(const LlmConfig& config);

    const SentenceVectorCache& vectorCache() const { return *cache_; }

    /// What an LLM attempt leaves to the extractive summary that replaces it.
    struct Handoff {
        bool sources_sent = false;  ///< `meta` plan and `sources` went out (numbering in book)
        std::unique_ptr<SourceBook> book;
        /// The redactor the sent excerpts went through (redact_pii), so placeholders match.
        std::unique_ptr<redact::Redactor> redactor;
        bool tokens_sent = false;
        nlohmann::json done_extra = nlohmann::json::object();
    };

  private:
    /// The LLM summary of `plan`; true when it finished (done, or the client went away),
    /// false when the extractive summary must replace it (`handoff` says why).
    bool summarizeWithLlm(SummaryPlan& plan, const std::function<bool(const nlohmann::json&)>& emit,
                          Handoff& handoff) const;
    void summarizeExtractive(SummaryPlan plan,
                             const std::function<bool(const nlohmann::json&)>& emit,
                             Handoff& handoff) const;
    plugin::Result<nlohmann::json> summarizeDocumentsWithLlm(
        const std::vector<LoadedDocument>& docs, const nlohmann::json& request,
        const std::string& trace_id) const;

    storage::DocumentRepository& documents_;
    const auth::DocumentAccess& access_;
    const embed::SentenceEncoder* encoder_;
    const SummaryOptions options_;
    std::unique_ptr<SentenceVectorCache> cache_;
    std::unique_ptr<LlmClient> llm_;
    SupportChecker support_;
};

}  // namespace docintel::knowledge
