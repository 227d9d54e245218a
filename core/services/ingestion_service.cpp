#include "services/ingestion_service.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/clock.h"
#include "common/log.h"
#include "common/metrics.h"
#include "ingest/chunker.h"
#include "ingest/language_guess.h"
#include "ingest/parser.h"
#include "redact/pii_redactor.h"
#include "services/upload_service.h"

namespace docintel::services {

namespace {

constexpr int kEmbedBatch = 32;
/// Chunks read, encoded and stored per round: a long document's vectors are never all held.
constexpr int kEmbedPage = 256;
/// Chunks whose language decides a scope's model (ingest::readsAsEnglish).
constexpr std::size_t kLanguageChunks = 16;

/// Replaces personal data in every block and heading path of the page (docs/redaction.md);
/// returns how many spans were replaced.
std::size_t redactPage(ingest::Page& page, redact::Redactor& redactor) {
    std::size_t spans = 0;
    for (auto& block : page.blocks) {
        auto r = redactor.redact(block.text);
        spans += r.spans.size();
        block.text = std::move(r.text);
        for (auto& heading : block.section_path) heading = redactor.redact(heading).text;
    }
    return spans;
}

/// A scope settled on a model this node cannot load: vectors of another would not compare.
plugin::Error modelMissing(const std::string& model) {
    return plugin::Error::unavailable(
        "encoder_unavailable", "the workspace's embedding model " + model + " is not installed");
}

}  // namespace

plugin::Status IngestionService::ingest(jobs::JobContext& context) {
    const std::string id = context.payload().value("document_id", "");
    auto found = documents_.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return {};  // deleted meanwhile: nothing to do
    const storage::Document& d = **found;
    if (d.status == "error") return {};
    if (!context.done("chunked")) {
        if (auto ok = chunk(d, context); !ok) return ok;
        auto again = documents_.find(id);
        if (!again) return again.error();
        if (!again->has_value() || (*again)->status == "error") return {};
    }
    return embedChunks(id, context);
}

plugin::Status IngestionService::embed(jobs::JobContext& context) {
    const std::string id = context.payload().value("document_id", "");
    auto found = documents_.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return {};
    return embedChunks(id, context);
}

plugin::Status IngestionService::embedChunks(const std::string& id, jobs::JobContext& context) {
    if (context.done("embedded")) return {};
    if (auto ok = embedStored(id); !ok) return ok;
    return context.mark("embedded");
}

plugin::Status IngestionService::embedStored(const std::string& id) {
    if (!encoder_) {
        common::log(common::LogLevel::kWarning, "embedding_skipped",
                    {{"document_id", id}, {"reason", "no encoder model loaded"}});
        auto chunks = documents_.chunks(id, 0, classify::ClassifierOptions{}.chunks);
        if (chunks) classifyDocument(id, *chunks, {});
        return {};
    }
    auto found = documents_.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return {};  // deleted meanwhile
    // An embedded document re-embedded because its scope moved to another model stays
    // embedded (and classified) throughout.
    const bool embedded_before = (*found)->status == "embedded";
    if (!embedded_before) {
        if (auto ok = documents_.setStatus(id, "embedding"); !ok) return ok;
    }
    const auto started = std::chrono::steady_clock::now();
    // The first page of chunks decides the scope's model (its language) and is the first encoded.
    auto first_page = documents_.chunks(id, 0, kEmbedPage);
    if (!first_page) return first_page.error();
    auto chosen = encoderFor(id, *first_page);
    if (!chosen) return chosen.error();
    const embed::SentenceEncoder* encoder = *chosen;
    auto embedded = storeVectors(id, *encoder, std::move(first_page).value(),
                                 embedded_before ? "" : "embedded", !embedded_before);
    if (!embedded) return embedded.error();
    // The scope moved to another model while this document was encoded: once more in it.
    auto now = spaces_.modelOf(id);
    if (!now) return now.error();
    if (*now != encoder->modelName()) {
        encoder = encoders_.find(*now);
        if (!encoder) return modelMissing(*now);
        auto again = documents_.chunks(id, 0, kEmbedPage);
        if (!again) return again.error();
        embedded = storeVectors(id, *encoder, std::move(again).value(), "", false);
        if (!embedded) return embedded.error();
    }
    // embed_ms: this document's embedding, waits for the encoder included; encoder_busy_ms and
    // encoder_calls: the encoding threads' totals so far, encoder_threads how many there are
    // (bench/ingest reads the share of wall time spent inside the encoder from them).
    const auto totals = batcher(*encoder).stats();
    auto& metrics = common::Metrics::instance();
    metrics.add("docintel_documents_embedded_total", "Documents whose chunks were embedded.", {});
    metrics.add("docintel_chunks_embedded_total", "Chunks embedded by ingestion.", {},
                static_cast<double>(*embedded));
    common::log(common::LogLevel::kInfo, "document_embedded",
                {{"document_id", id},
                 {"chunks", std::to_string(*embedded)},
                 {"embed_ms", std::to_string(std::llround(common::millisecondsSince(started)))},
                 {"encoder_busy_ms", std::to_string(std::llround(totals.busy_ms))},
                 {"encoder_calls", std::to_string(totals.calls)},
                 {"encoder_threads", std::to_string(totals.encoders)},
                 {"model", encoder->modelName()}});
    return {};
}

plugin::Result<const embed::SentenceEncoder*> IngestionService::encoderFor(
    const std::string& id, const std::vector<storage::Chunk>& first_chunks) {
    auto settled = spaces_.modelOf(id);
    if (!settled) return settled.error();
    std::string model = *settled;
    const std::string multilingual = embed::EncoderSet::kMultilingualModel;
    if (model != multilingual) {
        // Only a non-English document can move the scope, so only then is its language read.
        std::vector<std::string> texts;
        for (std::size_t i = 0; i < first_chunks.size() && i < kLanguageChunks; ++i) {
            texts.push_back(first_chunks[i].text);
        }
        const bool english = ingest::readsAsEnglish(texts);
        if (!english || model.empty()) {
            const std::string wanted =
                !english && encoders_.multilingual() ? multilingual : encoder_->modelName();
            auto chosen = spaces_.settle(id, wanted, multilingual, kEmbedJob);
            if (!chosen) return chosen.error();
            model = *chosen;
        }
    }
    if (const auto* encoder = encoders_.find(model)) return encoder;
    return modelMissing(model);
}

plugin::Result<std::size_t> IngestionService::storeVectors(const std::string& id,
                                                           const embed::SentenceEncoder& encoder,
                                                           std::vector<storage::Chunk> first_page,
                                                           const std::string& status,
                                                           bool classify) {
    std::size_t embedded = 0;
    plugin::Result<std::vector<storage::Chunk>> chunks = std::move(first_page);
    for (int first = 0;; first += kEmbedPage) {
        if (first > 0) chunks = documents_.chunks(id, first, kEmbedPage);
        if (!chunks) return chunks.error();
        const bool last = chunks->size() < static_cast<std::size_t>(kEmbedPage);
        std::vector<std::string> texts;
        texts.reserve(chunks->size());
        for (const auto& c : *chunks) texts.push_back(c.text);
        auto vectors = batcher(encoder).encode(std::move(texts));
        if (!vectors) return vectors.error();
        // Before `embedded` is visible, so an embedded document always has its class. The
        // classifier compares the primary model's vectors.
        if (first == 0 && classify) {
            if (&encoder == encoder_) {
                classifyDocument(id, *chunks, *vectors);
            } else if (auto primary = classifierVectors(*chunks)) {
                classifyDocument(id, *chunks, *primary);
            }
        }
        if (auto ok = documents_.storeEmbeddings(id, first, *vectors, encoder.modelName(),
                                                 encoder.modelVersion(), last ? status : "");
            !ok) {
            return ok.error();
        }
        embedded += vectors->size();
        if (last) break;
    }
    return embedded;
}

plugin::Result<std::vector<std::vector<float>>> IngestionService::classifierVectors(
    const std::vector<storage::Chunk>& chunks) const {
    std::vector<std::string> texts;
    const auto n =
        std::min(chunks.size(), static_cast<std::size_t>(classify::ClassifierOptions{}.chunks));
    for (std::size_t i = 0; i < n; ++i) texts.push_back(chunks[i].text);
    return encoder_->encode(texts, kEmbedBatch);
}

embed::BatchingEncoder& IngestionService::batcher(const embed::SentenceEncoder& encoder) {
    std::lock_guard lock(batchers_mutex_);
    auto& b = batchers_[encoder.modelName()];
    if (!b) b = std::make_unique<embed::BatchingEncoder>(encoder);
    return *b;
}

std::optional<embed::BatchingEncoder::Stats> IngestionService::encoderStats() const {
    std::lock_guard lock(batchers_mutex_);
    if (batchers_.empty()) return std::nullopt;
    embed::BatchingEncoder::Stats total;
    total.encoders = 0;
    for (const auto& [_, b] : batchers_) {
        const auto s = b->stats();
        total.calls += s.calls;
        total.requests += s.requests;
        total.texts += s.texts;
        total.busy_ms += s.busy_ms;
        total.encoders += s.encoders;
    }
    return total;
}

plugin::Result<nlohmann::json> IngestionService::reclassify(const std::string& id) {
    auto found = documents_.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return plugin::Error{"document_not_found", "document not found", 404};
    const std::string& status = (*found)->status;
    if (status != "chunked" && status != "embedded") {
        return plugin::Error::conflict("not_chunked", "only chunked documents can be classified");
    }
    if (!classifier()) {
        return plugin::Error::unavailable("classifier_unavailable", "no document classifier");
    }
    auto chunks = documents_.chunks(id);
    if (!chunks) return chunks.error();
    std::vector<std::vector<float>> vectors;
    if (encoder_ && !chunks->empty()) {
        auto encoded = classifierVectors(*chunks);
        if (!encoded) return encoded.error();
        vectors = std::move(encoded).value();
    }
    classifyDocument(id, *chunks, vectors);
    auto after = documents_.find(id);
    if (!after) return after.error();
    if (!after->has_value()) return plugin::Error{"document_not_found", "document not found", 404};
    return nlohmann::json{{"document_id", id},
                          {"doc_type", (*after)->doc_type},
                          {"confidence", (*after)->doc_type_confidence.value_or(0.0)}};
}

const classify::DocumentClassifier* IngestionService::classifier() {
    std::call_once(classifier_once_, [this] {
        auto created = classify::DocumentClassifier::create(encoder_);
        if (created) {
            classifier_ = std::move(created).value();
            if (llm_config_.enabled()) {
                llm_classifier_ =
                    std::make_unique<classify::LlmClassifier>(*classifier_, llm_config_);
            }
        } else {
            common::log(common::LogLevel::kWarning, "classifier_unavailable",
                        {{"reason", created.error().message}});
        }
    });
    return classifier_.get();
}

void IngestionService::classifyDocument(const std::string& id,
                                        const std::vector<storage::Chunk>& chunks,
                                        const std::vector<std::vector<float>>& vectors) {
    const classify::DocumentClassifier* classifier = this->classifier();
    auto found = documents_.find(id);
    if (!classifier || !found || !found->has_value() || chunks.empty()) return;
    if (UploadService::processedByPlugin((*found)->detected_type)) return;  // its plugin typed it
    classify::ClassifierInput input;
    input.detected_type = (*found)->detected_type;
    const std::size_t n =
        std::min(chunks.size(), static_cast<std::size_t>(classify::ClassifierOptions{}.chunks));
    for (std::size_t i = 0; i < n; ++i) {
        input.texts.push_back(chunks[i].text);
        if (i < vectors.size()) input.vectors.push_back(vectors[i]);
    }
    classify::SourcedClassification sourced;
    if (llm_classifier_) {
        sourced = llm_classifier_->classify(input);
    } else {
        sourced.classification = classifier->classify(input);
    }
    const auto& result = sourced.classification;
    const std::string type = classify::toString(result.type);
    if (auto ok = documents_.setClassification(id, type, result.confidence); !ok) {
        common::log(common::LogLevel::kWarning, "classification_not_stored",
                    {{"document_id", id}, {"reason", ok.error().message}});
        return;
    }
    common::log(common::LogLevel::kInfo, "document_classified",
                {{"document_id", id},
                 {"doc_type", type},
                 {"confidence", std::to_string(result.confidence)},
                 {"source", sourced.source},
                 {"llm_rejected", sourced.rejected}});
}

plugin::Status IngestionService::chunk(const storage::Document& d, jobs::JobContext& context) {
    const std::string& id = d.id;
    if (auto ok = documents_.startChunking(id); !ok) return ok;
    const std::string path = objects_.localPath(d.storage_key);
    if (path.empty()) {
        return documents_.fail(id, "unreadable_document", "the stored file is missing");
    }
    const auto type = ingest::parseDocumentType(d.detected_type);
    if (!type) return documents_.fail(id, "unsupported_type", "unknown document type");

    ingest::ChunkerOptions options;
    ingest::TokenCounter count = ingest::approximateTokens;
    if (encoder_) {
        // Room for [CLS] and [SEP]; the tokenizer's own ids include them.
        options.max_tokens = std::min(options.max_tokens, encoder_->maxTokens() - 2);
        count = [this](std::string_view text) { return encoder_->countTokens(std::string(text)); };
    }
    ingest::Chunker chunker(options, count);
    int pages = 0;
    std::size_t stored = 0;
    redact::Redactor redactor;  // one numbering of placeholders for the whole document
    std::size_t redacted = 0;
    // Chunks are stored as pages are read, so a large file's text is never held whole.
    auto store = [&](std::vector<ingest::TextChunk> batch) -> plugin::Status {
        std::vector<storage::Chunk> rows;
        rows.reserve(batch.size());
        for (auto& c : batch) {
            storage::Chunk out;
            out.chunk_index = c.index;
            out.text = std::move(c.text);
            out.page_start = c.page_start;
            out.page_end = c.page_end;
            out.section_path = std::move(c.section_path);
            out.char_start = c.char_start;
            out.char_end = c.char_end;
            out.token_count = c.token_count;
            rows.push_back(std::move(out));
        }
        stored += rows.size();
        return documents_.appendChunks(id, rows);
    };
    const plugin::Status parsed =
        ingest::parseFilePages(path, *type, [&](ingest::Page&& page) -> plugin::Status {
            if (d.redact_pii) redacted += redactPage(page, redactor);
            chunker.addPage(page);
            pages = std::max(pages, page.number);
            return store(chunker.take());
        });
    if (!parsed) {
        if (parsed.error().http_status >= 500) return parsed;  // retried
        common::log(common::LogLevel::kInfo, "document_unreadable",
                    {{"document_id", id}, {"code", parsed.error().code}});
        return documents_.fail(id, parsed.error().code, parsed.error().message);
    }
    if (auto ok = store(chunker.finish()); !ok) return ok;
    if (stored == 0) {
        return documents_.fail(id, "no_text_found", "no text could be extracted from the file");
    }
    if (auto ok = documents_.finishChunking(id, pages, "chunked"); !ok) return ok;
    common::log(common::LogLevel::kInfo, "document_chunked",
                {{"document_id", id},
                 {"chunks", std::to_string(stored)},
                 {"pages", std::to_string(pages)},
                 {"pii_redacted", std::to_string(redacted)}});
    return context.mark("chunked");
}

}  // namespace docintel::services
