#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "embed/bert_encoder.h"
#include "embed/wordpiece_tokenizer.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// A sentence-transformers model on the built-in BERT encoder: loads a model folder as
/// `make model` unpacks it (config.json, vocab.txt, tokenizer_config.json,
/// sentence_bert_config.json, modules.json, the pooling config, model.safetensors and
/// MODEL_VERSION) and turns texts into pooled, optionally L2-normalised vectors that match
/// the reference Python implementation.
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
    /// `model_unreadable`, `model_config_invalid` (bad JSON, unsupported pooling or
    /// architecture), `model_dtype_unsupported` (weights other than F32).
    static plugin::Result<std::unique_ptr<SentenceEncoder>> load(const std::string& model_dir,
                                                                 Options options);
    static plugin::Result<std::unique_ptr<SentenceEncoder>> load(const std::string& model_dir) {
        return load(model_dir, Options{});
    }

    /// One vector of dimension() floats per text, in the order given. Texts are sorted by
    /// token count and encoded `batch_size` at a time, so similar lengths share a batch.
    /// Texts longer than maxTokens() are truncated. `threads` > 0 overrides Options::threads
    /// for this call. Errors: `invalid_batch_size` (< 1).
    plugin::Result<std::vector<std::vector<float>>> encode(const std::vector<std::string>& texts,
                                                           int batch_size = 32,
                                                           int threads = 0) const;

    /// The token ids encode() feeds the encoder for `text`, [CLS] ... [SEP], truncated.
    std::vector<int32_t> tokenize(const std::string& text) const {
        return tokenizer_->encode(text);
    }
    /// Word pieces in `text`, untruncated, without [CLS]/[SEP].
    int countTokens(const std::string& text) const { return tokenizer_->countTokens(text); }

    /// The model folder's name, e.g. "all-MiniLM-L6-v2".
    const std::string& modelName() const { return name_; }
    /// MODEL_VERSION's line: package, version and sha256 of the weights ("unknown" if absent).
    const std::string& modelVersion() const { return version_; }
    int dimension() const { return encoder_->config().hidden_size; }
    int maxTokens() const { return tokenizer_->maxTokens(); }
    int threads() const { return threads_; }  ///< Options::threads
    Pooling pooling() const { return pooling_; }
    bool normalizes() const { return normalize_; }

  private:
    SentenceEncoder() = default;
    void pool(const float* hidden, const PackedBatch& batch, size_t index,
              std::vector<float>& out) const;

    std::string name_;
    std::string version_;
    Pooling pooling_ = Pooling::kMean;
    bool normalize_ = false;
    int threads_ = 1;
    std::unique_ptr<WordpieceTokenizer> tokenizer_;
    std::unique_ptr<BertEncoder> encoder_;
};

}  // namespace docintel::embed
