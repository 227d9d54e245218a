#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "embed/sentence_encoder.h"

namespace docintel::embed {

/// The node's built-in sentence encoders by model name (docs/decisions/0075): the primary one
/// (DOCINTEL_MODEL, all-MiniLM-L6-v2 by default), which every feature that compares texts it
/// encodes itself uses, and the multilingual one that a scope holding non-English documents
/// keeps its vectors in, loaded on first use (most nodes never need it). A question is encoded
/// by the model of the vectors it is compared with (find()).
///
/// Owns the encoders. Thread-safe: the multilingual model is loaded once, under a once-flag.
class EncoderSet {
  public:
    static constexpr const char* kMultilingualModel = "multilingual-e5-small";

    /// Loads `primary` from `models_dir` now; a missing or unreadable model is logged and left
    /// out (no primary: documents stop at `chunked`, questions are answered from keywords).
    EncoderSet(std::string models_dir, const std::string& primary,
               SentenceEncoder::Options options);
    EncoderSet(const EncoderSet&) = delete;
    EncoderSet& operator=(const EncoderSet&) = delete;

    /// Null when the primary model is not loaded.
    const SentenceEncoder* primary() const { return primary_.get(); }
    /// The multilingual model (the primary when it is that one); null when its weights are not
    /// installed.
    const SentenceEncoder* multilingual() const;
    /// The encoder of `model`: the primary's or the multilingual one; null for any other.
    const SentenceEncoder* find(const std::string& model) const;

  private:
    const std::string models_dir_;
    const SentenceEncoder::Options options_;
    std::unique_ptr<SentenceEncoder> primary_;
    mutable std::once_flag multilingual_once_;
    mutable std::unique_ptr<SentenceEncoder> multilingual_;  ///< set once, under the flag
};

}  // namespace docintel::embed
