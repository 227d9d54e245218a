#include "embed/bert_encoder.h"

#include "embed/vector_math.h"

#include <cblas.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>

namespace docintel::embed {

namespace {

// C = A · Bᵀ + C, with A m×k (row stride lda), B n×k (row stride ldb): a Linear layer whose
// bias has already been written into C.
void matmulTransposed(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                      float beta, float* c, int ldc, float alpha = 1.0f) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, alpha, a, lda, b, ldb, beta, c,
                ldc);
}

void fillRowsWithBias(float* out, size_t rows, const float* bias, size_t width) {
    for (size_t r = 0; r < rows; ++r) std::memcpy(out + r * width, bias, width * sizeof(float));
}

}  // namespace

plugin::Result<std::unique_ptr<BertEncoder>> BertEncoder::load(const std::string& weights_path,
                                                               const BertConfig& config) {
    auto file = SafetensorsFile::open(weights_path);
    if (!file) return file.error();
    std::unique_ptr<BertEncoder> enc(new BertEncoder());
    enc->config_ = config;
    enc->file_ = std::move(file).value();
    const SafetensorsFile& st = *enc->file_;
    // Checkpoints saved from BertModel have bare names; from a task model, a "bert." prefix.
    std::string prefix = st.contains("embeddings.word_embeddings.weight") ? "" : "bert.";
    const auto h = static_cast<int64_t>(config.hidden_size);
    const auto ff = static_cast<int64_t>(config.intermediate_size);

    std::optional<plugin::Error> failure;
    auto get = [&](const std::string& name, const std::vector<int64_t>& shape) -> const float* {
        if (failure) return nullptr;
        auto t = st.tensor(prefix + name);
        if (!t) {
            failure = t.error();
            return nullptr;
        }
        if (t->shape != shape) {
            failure =
                plugin::Error{"model_config_invalid",
                              "tensor " + name + " has a shape config.json does not give", 500};
            return nullptr;
        }
        return t->data;
    };
    enc->word_embeddings_ = get("embeddings.word_embeddings.weight", {config.vocab_size, h});
    enc->position_embeddings_ =
        get("embeddings.position_embeddings.weight", {config.max_positions, h});
    enc->type_embeddings_ =
        get("embeddings.token_type_embeddings.weight", {config.type_vocab_size, h});
    enc->embed_ln_gamma_ = get("embeddings.LayerNorm.weight", {h});
    enc->embed_ln_beta_ = get("embeddings.LayerNorm.bias", {h});
    for (int i = 0; i < config.num_layers && !failure; ++i) {
        std::string p = "encoder.layer." + std::to_string(i) + ".";
        Layer layer;
        layer.qkv_weight.resize(static_cast<size_t>(3 * h * h));
        layer.qkv_bias.resize(static_cast<size_t>(3 * h));
        const char* parts[] = {"query", "key", "value"};
        for (int j = 0; j < 3; ++j) {
            std::string base = p + "attention.self." + parts[j];
            const float* w = get(base + ".weight", {h, h});
            const float* b = get(base + ".bias", {h});
            if (failure) break;
            std::copy(w, w + h * h, layer.qkv_weight.begin() + j * h * h);
            std::copy(b, b + h, layer.qkv_bias.begin() + j * h);
        }
        layer.out_weight = get(p + "attention.output.dense.weight", {h, h});
        layer.out_bias = get(p + "attention.output.dense.bias", {h});
        layer.attn_ln_gamma = get(p + "attention.output.LayerNorm.weight", {h});
        layer.attn_ln_beta = get(p + "attention.output.LayerNorm.bias", {h});
        layer.ffn_in_weight = get(p + "intermediate.dense.weight", {ff, h});
        layer.ffn_in_bias = get(p + "intermediate.dense.bias", {ff});
        layer.ffn_out_weight = get(p + "output.dense.weight", {h, ff});
        layer.ffn_out_bias = get(p + "output.dense.bias", {h});
        layer.ffn_ln_gamma = get(p + "output.LayerNorm.weight", {h});
        layer.ffn_ln_beta = get(p + "output.LayerNorm.bias", {h});
        enc->layers_.push_back(std::move(layer));
    }
    if (failure) return *failure;
    if (config.hidden_size % config.num_heads != 0) {
        return plugin::Error{"model_config_invalid", "hidden_size is not a multiple of heads", 500};
    }
    return enc;
}

// Heads of the batch's sequences, the (sequence, head) pairs numbered from 0, taken by
// thread `tid` of `threads` round-robin.
void BertEncoder::attention(const PackedBatch& batch, const float* qkv, float* context,
                            std::vector<float>& scores, int tid, int threads) const {
    const int h = config_.hidden_size;
    const int heads = config_.num_heads;
    const int d = h / heads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    const int items = static_cast<int>(batch.size()) * heads;
    for (int item = tid; item < items; item += threads) {
        const size_t s = static_cast<size_t>(item / heads);
        const int head = item % heads;
        const int begin = batch.offsets[s];
        const int len = batch.offsets[s + 1] - begin;
        scores.resize(static_cast<size_t>(len) * len);
        const float* seq = qkv + static_cast<size_t>(begin) * 3 * h;
        const size_t head_offset = static_cast<size_t>(head) * d;
        const float* q = seq + head_offset;
        const float* k = seq + h + head_offset;
        const float* v = seq + 2 * static_cast<size_t>(h) + head_offset;
        matmulTransposed(len, len, d, q, 3 * h, k, 3 * h, 0.0f, scores.data(), len, scale);
        vmath::softmaxRows(scores.data(), static_cast<size_t>(len), static_cast<size_t>(len));
        float* out = context + static_cast<size_t>(begin) * h + head_offset;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, len, d, len, 1.0f, scores.data(),
                    len, v, 3 * h, 0.0f, out, h);
    }
}

void BertEncoder::embed(std::span<const std::vector<int32_t>* const> sequences,
                        const PackedBatch& batch, float* x, size_t row_begin,
                        size_t row_end) const {
    const size_t h = static_cast<size_t>(config_.hidden_size);
    for (size_t s = 0; s < sequences.size(); ++s) {
        const auto& ids = *sequences[s];
        const auto seq_begin = static_cast<size_t>(batch.offsets[s]);
        const size_t from = std::max(seq_begin, row_begin);
        const size_t to = std::min(static_cast<size_t>(batch.offsets[s + 1]), row_end);
        for (size_t t = from; t < to; ++t) {
            size_t pos = t - seq_begin;
            int32_t id = ids[pos];
            if (id < 0 || id >= config_.vocab_size) id = 0;
            const float* w = word_embeddings_ + static_cast<size_t>(id) * h;
            const float* p = position_embeddings_ + pos * h;
            float* row = x + t * h;
            for (size_t i = 0; i < h; ++i) row[i] = w[i] + p[i] + type_embeddings_[i];
        }
    }
    if (row_end > row_begin) {
        vmath::addLayerNorm(x + row_begin * h, nullptr, row_end - row_begin, h, embed_ln_gamma_,
                            embed_ln_beta_, config_.layer_norm_eps);
    }
}

std::vector<float> BertEncoder::forward(std::span<const std::vector<int32_t>* const> sequences,
                                        PackedBatch& batch, int threads) const {
    const size_t h = static_cast<size_t>(config_.hidden_size);
    const size_t ff = static_cast<size_t>(config_.intermediate_size);
    batch.offsets.assign(1, 0);
    for (const auto* seq : sequences) {
        auto len = std::min<size_t>(seq->size(), static_cast<size_t>(config_.max_positions));
        batch.offsets.push_back(batch.offsets.back() + static_cast<int32_t>(len));
    }
    const size_t n = batch.tokens();
    std::vector<float> x(n * h);
    if (n == 0) return x;
    // Fewer than 16 rows a thread is not worth a thread.
    threads =
        static_cast<int>(std::clamp<size_t>(n / 16, 1, static_cast<size_t>(std::max(threads, 1))));

    std::vector<float> qkv(n * 3 * h);
    std::vector<float> context(n * h);
    std::vector<float> projected(n * h);
    std::vector<float> intermediate(n * ff);
    std::barrier sync(threads);

    // Each thread owns a block of rows for the row-local work (embeddings, every Linear layer,
    // GELU, LayerNorm) and a share of the heads for attention, which reads every row of a
    // sequence; so the team meets before and after attention only.
    auto work = [&](int tid) {
        const size_t r0 = n * static_cast<size_t>(tid) / static_cast<size_t>(threads);
        const size_t r1 = n * static_cast<size_t>(tid + 1) / static_cast<size_t>(threads);
        const size_t m = r1 - r0;
        const int mi = static_cast<int>(m);
        const int hi = static_cast<int>(h);
        const int ffi = static_cast<int>(ff);
        float* xs = x.data() + r0 * h;
        float* qkvs = qkv.data() + r0 * 3 * h;
        float* ctx = context.data() + r0 * h;
        float* proj = projected.data() + r0 * h;
        float* mid = intermediate.data() + r0 * ff;
        std::vector<float> scores;
        embed(sequences, batch, x.data(), r0, r1);
        for (const Layer& layer : layers_) {
            if (m > 0) {
                fillRowsWithBias(qkvs, m, layer.qkv_bias.data(), 3 * h);
                matmulTransposed(mi, 3 * hi, hi, xs, hi, layer.qkv_weight.data(), hi, 1.0f, qkvs,
                                 3 * hi);
            }
            sync.arrive_and_wait();
            attention(batch, qkv.data(), context.data(), scores, tid, threads);
            sync.arrive_and_wait();
            if (m == 0) continue;
            fillRowsWithBias(proj, m, layer.out_bias, h);
            matmulTransposed(mi, hi, hi, ctx, hi, layer.out_weight, hi, 1.0f, proj, hi);
            vmath::addLayerNorm(xs, proj, m, h, layer.attn_ln_gamma, layer.attn_ln_beta,
                                config_.layer_norm_eps);
            fillRowsWithBias(mid, m, layer.ffn_in_bias, ff);
            matmulTransposed(mi, ffi, hi, xs, hi, layer.ffn_in_weight, hi, 1.0f, mid, ffi);
            vmath::gelu(mid, m * ff);
            fillRowsWithBias(proj, m, layer.ffn_out_bias, h);
            matmulTransposed(mi, hi, ffi, mid, ffi, layer.ffn_out_weight, ffi, 1.0f, proj, hi);
            vmath::addLayerNorm(xs, proj, m, h, layer.ffn_ln_gamma, layer.ffn_ln_beta,
                                config_.layer_norm_eps);
        }
    };
    std::vector<std::jthread> team;
    for (int t = 1; t < threads; ++t) team.emplace_back(work, t);
    work(0);
    return x;
}

}  // namespace docintel::embed
