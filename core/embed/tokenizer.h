#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace docintel::embed {

/// A sentence encoder's tokenizer: WordPiece for BERT models, SentencePiece unigram for
/// XLM-RoBERTa ones. Implementations are immutable after load, so encode() may run on many
/// threads at once.
class Tokenizer {
  public:
    virtual ~Tokenizer() = default;

    /// Token ids of one text with the model's special tokens around them (BERT: [CLS] ...
    /// [SEP]; XLM-R: <s> ... </s>), truncated to maxTokens() in all.
    virtual std::vector<int32_t> encode(const std::string& text) const = 0;
    /// Tokens in `text` without special tokens and without truncation (for chunking).
    virtual int countTokens(const std::string& text) const = 0;
    virtual int32_t padId() const = 0;
    /// Tokens encode() returns at most, special tokens included.
    virtual int maxTokens() const = 0;
    virtual size_t vocabSize() const = 0;
};

}  // namespace docintel::embed
