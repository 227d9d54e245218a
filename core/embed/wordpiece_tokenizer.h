#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "embed/tokenizer.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// BERT's tokenizer, matching Hugging Face's (fast) BertTokenizer token for token: special
/// tokens in the raw text kept whole; clean-up of control characters and whitespace; spaces
/// around CJK ideographs; with lower-casing, NFD plus removal of non-spacing marks and then
/// lower-case; split on whitespace and BERT punctuation; greedy longest-match-first WordPiece
/// with "##" continuations, a word over 100 characters or with no match becoming [UNK];
/// [CLS] ... [SEP] around the result, truncated to `max_tokens` in all.
/// Immutable after load: encode() may run on many threads at once.
class WordpieceTokenizer : public Tokenizer {
  public:
    struct Options {
        bool lower_case = true;
        bool strip_accents = true;  ///< HF's default: follows lower_case
        bool split_cjk = true;
        int max_tokens = 512;  ///< including [CLS] and [SEP]
    };

    /// Reads vocab.txt (one token a line, id = line number). Errors: `model_unreadable` when
    /// the file is missing or lacks [CLS], [SEP], [UNK] or [PAD].
    static plugin::Result<std::unique_ptr<WordpieceTokenizer>> load(const std::string& vocab_path,
                                                                    Options options);

    /// Token ids of one text, [CLS] first and [SEP] last. Invalid UTF-8 bytes are dropped.
    std::vector<int32_t> encode(const std::string& text) const override;
    /// Word pieces in `text` without special tokens and without truncation (for chunking).
    int countTokens(const std::string& text) const override;

    int32_t padId() const override { return pad_id_; }
    int maxTokens() const override { return options_.max_tokens; }
    size_t vocabSize() const override { return vocab_.size(); }

  private:
    WordpieceTokenizer() = default;
    void encodeSegment(const std::u32string& text, std::vector<int32_t>& out) const;
    /// [CLS] followed by the word pieces of `text`, untruncated, without [SEP].
    std::vector<int32_t> encodeUntruncated(const std::string& text) const;
    void normalize(const std::u32string& in, std::u32string& out) const;
    void wordpiece(const std::u32string& word, std::vector<int32_t>& out) const;

    Options options_;
    std::unordered_map<std::string, int32_t> vocab_;
    std::vector<std::pair<std::u32string, int32_t>> specials_;  ///< matched in raw text
    int32_t cls_id_ = 0;
    int32_t sep_id_ = 0;
    int32_t unk_id_ = 0;
    int32_t pad_id_ = 0;
};

}  // namespace docintel::embed
