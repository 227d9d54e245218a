#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "embed/packed_gemm.h"
#include "embed/weight_source.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// The shape of a BERT encoder, as config.json gives it.
struct BertConfig {
    int hidden_size = 384;
    int num_layers = 6;
    int num_heads = 12;
    int intermediate_size = 1536;
    int max_positions = 512;
    int type_vocab_size = 2;
    int vocab_size = 30522;
    float layer_norm_eps = 1e-12f;
};

/// Token sequences packed end to end: sequence i holds rows [offsets[i], offsets[i+1]).
struct PackedBatch {
    std::vector<int32_t> offsets;
    size_t tokens() const { return offsets.empty() ? 0 : static_cast<size_t>(offsets.back()); }
    size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
};

/// A BERT encoder (embeddings, then self-attention + GELU feed-forward layers, post-LayerNorm)
/// on F32 weights. Every Linear layer's weight is packed once at load for gemm::linear (our
/// AVX-512 kernels, or OpenBLAS where the CPU lacks AVX-512), the query, key and value
/// projections fused into one product. Sequences of a batch are packed without padding: the
/// dense layers run over real tokens only and attention is computed per sequence and head,
/// which is the same as padding with an attention mask.
/// Immutable after load; forward() keeps its work buffers in the calling thread, so any number
/// of threads may call it at once. Owns its weight source (the mapped safetensors file, or a
/// quantised file whose word embeddings are dequantised a row at a time as tokens need them).
class BertEncoder {
  public:
    /// Errors: `model_unreadable`, `model_tensor_missing`, `model_dtype_unsupported`, or
    /// `model_config_invalid` when a tensor's shape disagrees with `config`.
    static plugin::Result<std::unique_ptr<BertEncoder>> load(const std::string& weights_path,
                                                             const BertConfig& config);
    /// The same from any source of BertModel's tensors (e.g. E5ModelFile). Errors: as above.
    static plugin::Result<std::unique_ptr<BertEncoder>> load(std::unique_ptr<WeightSource> weights,
                                                             const BertConfig& config);

    /// Runs the encoder over `sequences` (token ids; ids past max_positions are ignored) on
    /// `threads` threads (the caller's and threads - 1 more, for this call only) and returns
    /// the last hidden states, tokens() x hidden_size row-major, packed as `batch`. Expects
    /// OpenBLAS (used only without AVX-512) to run single-threaded: the parallelism is ours.
    std::vector<float> forward(std::span<const std::vector<int32_t>* const> sequences,
                               PackedBatch& batch, int threads = 1) const;

    const BertConfig& config() const { return config_; }

  private:
    struct Layer {
        std::vector<float> qkv_weight;  ///< [3H, H]: query, key, value rows stacked (fallback)
        std::vector<float> qkv_bias;    ///< [3H]
        PackedWeights qkv;
        PackedWeights out;
        PackedWeights ffn_in;
        PackedWeights ffn_out;
        const float* out_bias = nullptr;
        const float* attn_ln_gamma = nullptr;
        const float* attn_ln_beta = nullptr;
        const float* ffn_in_bias = nullptr;
        const float* ffn_out_bias = nullptr;
        const float* ffn_ln_gamma = nullptr;
        const float* ffn_ln_beta = nullptr;
    };
    BertEncoder() = default;
    void attention(const PackedBatch& batch, const float* qkv, float* context, int tid,
                   int threads) const;
    void embed(std::span<const std::vector<int32_t>* const> sequences, const PackedBatch& batch,
               float* x, size_t row_begin, size_t row_end) const;

    BertConfig config_;
    std::unique_ptr<WeightSource> weights_;
    RowReader word_embeddings_;
    const float* position_embeddings_ = nullptr;
    const float* type_embeddings_ = nullptr;
    const float* embed_ln_gamma_ = nullptr;
    const float* embed_ln_beta_ = nullptr;
    std::vector<Layer> layers_;
};

}  // namespace docintel::embed
