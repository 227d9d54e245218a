#include "embed/bert_encoder.h"

#include "embed/safetensors.h"
#include "embed/vector_math.h"

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>

namespace docintel::embed {

namespace {

// Query rows of one (sequence, head) whose attention scores are computed at once: the scores
// (kQueryBlock × sequence length) stay in L2 however long the sequence.
constexpr size_t kQueryBlock = 48;

// Rows of a thread's share that go through the rest of a layer after attention together: 128
// rows of intermediate activations (768 KB for a 1536-wide layer) stay in L2 between the
// feed-forward products instead of going to memory (8% less CPU time at batch 8; 64 and 96
// were slower).
constexpr size_t kRowBlock = 128;

// Per-thread work buffers, grown on demand and kept between calls up to kKeptBytes (a batch of
// about 1,000 tokens for a 384-wide model), so that small batches allocate nothing and a large one
// does not leave an idle process holding its buffers.
struct Workspace {
    static constexpr size_t kKeptBytes = 16u << 20;
    std::vector<float> qkv;
    std::vector<float> context;
    std::vector<float> projected;
    std::vector<float> intermediate;

    void trim() {
        const size_t floats =
            qkv.capacity() + context.capacity() + projected.capacity() + intermediate.capacity();
        if (floats * sizeof(float) > kKeptBytes) *this = Workspace{};
    }
};

Workspace& callerWorkspace() {
    thread_local Workspace workspace;
    return workspace;
}

float* atLeast(std::vector<float>& v, size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
}

}  // namespace

plugin::Result<std::unique_ptr<BertEncoder>> BertEncoder::load(const std::string& weights_path,
                                                               const BertConfig& config) {
    auto file = SafetensorsFile::open(weights_path);
    if (!file) return file.error();
    return load(std::unique_ptr<WeightSource>(std::move(file).value()), config);
}

plugin::Result<std::unique_ptr<BertEncoder>> BertEncoder::load(
    std::unique_ptr<WeightSource> weights, const BertConfig& config) {
    std::unique_ptr<BertEncoder> enc(new BertEncoder());
    enc->config_ = config;
    enc->weights_ = std::move(weights);
    const WeightSource& st = *enc->weights_;
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
    auto word_rows = st.rows(prefix + "embeddings.word_embeddings.weight", {config.vocab_size, h});
    if (!word_rows) return word_rows.error();
    enc->word_embeddings_ = std::move(word_rows).value();
    enc->position_embeddings_ =
        get("embeddings.position_embeddings.weight", {config.max_positions, h});
    enc->type_embeddings_ =
        get("embeddings.token_type_embeddings.weight", {config.type_vocab_size, h});
    enc->embed_ln_gamma_ = get("embeddings.LayerNorm.weight", {h});
    enc->embed_ln_beta_ = get("embeddings.LayerNorm.bias", {h});
    enc->layers_.reserve(static_cast<size_t>(std::max(config.num_layers, 0)));
    for (int i = 0; i < config.num_layers && !failure; ++i) {
        std::string p = "encoder.layer." + std::to_string(i) + ".";
        Layer layer;
        layer.qkv_weight.resize(static_cast<size_t>(3 * h * h));
        layer.qkv_bias.resize(static_cast<size_t>(3 * h));
        const char* parts[] = {"query", "key", "value"};
        const float* qkv_originals[3] = {};
        for (int j = 0; j < 3; ++j) {
            std::string base = p + "attention.self." + parts[j];
            const float* w = get(base + ".weight", {h, h});
            const float* b = get(base + ".bias", {h});
            if (failure) break;
            qkv_originals[j] = w;
            std::copy(w, w + h * h, layer.qkv_weight.begin() + j * h * h);
            std::copy(b, b + h, layer.qkv_bias.begin() + j * h);
        }
        const float* out_weight = get(p + "attention.output.dense.weight", {h, h});
        layer.out_bias = get(p + "attention.output.dense.bias", {h});
        layer.attn_ln_gamma = get(p + "attention.output.LayerNorm.weight", {h});
        layer.attn_ln_beta = get(p + "attention.output.LayerNorm.bias", {h});
        const float* ffn_in_weight = get(p + "intermediate.dense.weight", {ff, h});
        layer.ffn_in_bias = get(p + "intermediate.dense.bias", {ff});
        const float* ffn_out_weight = get(p + "output.dense.weight", {h, ff});
        layer.ffn_out_bias = get(p + "output.dense.bias", {h});
        layer.ffn_ln_gamma = get(p + "output.LayerNorm.weight", {h});
        layer.ffn_ln_beta = get(p + "output.LayerNorm.bias", {h});
        if (failure) break;
        const auto hs = static_cast<size_t>(h);
        const auto ffs = static_cast<size_t>(ff);
        layer.qkv = PackedWeights(layer.qkv_weight.data(), 3 * hs, hs);
        layer.out = PackedWeights(out_weight, hs, hs);
        layer.ffn_in = PackedWeights(ffn_in_weight, ffs, hs);
        layer.ffn_out = PackedWeights(ffn_out_weight, hs, ffs);
        // The query, key and value originals are read no more (their fused copy is); the
        // others leave memory where the packed copies are all that is read.
        for (const float* w : qkv_originals) st.release(w, hs * hs);
        if (gemm::accelerated()) {
            layer.qkv_weight = {};
            st.release(out_weight, hs * hs);
            st.release(ffn_in_weight, ffs * hs);
            st.release(ffn_out_weight, hs * ffs);
        }
        enc->layers_.push_back(std::move(layer));
    }
    if (failure) return *failure;
    if (config.hidden_size % config.num_heads != 0) {
        return plugin::Error{"model_config_invalid", "hidden_size is not a multiple of heads", 500};
    }
    return enc;
}

// Heads of the batch's sequences, the (sequence, head) pairs numbered from 0, taken by
// thread `tid` of `threads` round-robin. For each: Kᵀ packed once, then per block of query
// rows the scores Q·Kᵀ, their scaled softmax, and the context P·V.
void BertEncoder::attention(const PackedBatch& batch, const float* qkv, float* context, int tid,
                            int threads) const {
    const size_t h = static_cast<size_t>(config_.hidden_size);
    const size_t heads = static_cast<size_t>(config_.num_heads);
    const size_t d = h / heads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    thread_local std::vector<float> keys;
    thread_local std::vector<float> scores;
    const size_t items = batch.size() * heads;
    for (size_t item = static_cast<size_t>(tid); item < items;
         item += static_cast<size_t>(threads)) {
        const size_t s = item / heads;
        const size_t head_offset = (item % heads) * d;
        const auto begin = static_cast<size_t>(batch.offsets[s]);
        const size_t len = static_cast<size_t>(batch.offsets[s + 1]) - begin;
        const float* seq = qkv + begin * 3 * h;
        const float* q = seq + head_offset;
        const float* k = seq + h + head_offset;
        const float* v = seq + 2 * h + head_offset;
        float* kt = atLeast(keys, d * len);
        for (size_t t = 0; t < len; ++t) {
            for (size_t i = 0; i < d; ++i) kt[i * len + t] = k[t * 3 * h + i];
        }
        float* sc = atLeast(scores, std::min(kQueryBlock, len) * len);
        for (size_t r0 = 0; r0 < len; r0 += kQueryBlock) {
            const size_t rows = std::min(kQueryBlock, len - r0);
            gemm::product(q + r0 * 3 * h, 3 * h, rows, kt, len, d, len, sc, len);
            vmath::softmaxRows(sc, rows, len, len, scale);
            gemm::product(sc, len, rows, v, 3 * h, len, d, context + (begin + r0) * h + head_offset,
                          h);
        }
    }
}

void BertEncoder::embed(std::span<const std::vector<int32_t>* const> sequences,
                        const PackedBatch& batch, float* x, size_t row_begin,
                        size_t row_end) const {
    const size_t h = static_cast<size_t>(config_.hidden_size);
    std::vector<float> scratch(h);
    for (size_t s = 0; s < sequences.size(); ++s) {
        const auto& ids = *sequences[s];
        const auto seq_begin = static_cast<size_t>(batch.offsets[s]);
        const size_t from = std::max(seq_begin, row_begin);
        const size_t to = std::min(static_cast<size_t>(batch.offsets[s + 1]), row_end);
        for (size_t t = from; t < to; ++t) {
            size_t pos = t - seq_begin;
            int32_t id = ids[pos];
            if (id < 0 || id >= config_.vocab_size) id = 0;
            const float* w = word_embeddings_(id, scratch.data());
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

    Workspace& ws = callerWorkspace();
    float* qkv = atLeast(ws.qkv, n * 3 * h);
    float* context = atLeast(ws.context, n * h);
    float* projected = atLeast(ws.projected, n * h);
    const size_t row_block = std::min(n, kRowBlock);  // no thread has more rows than n
    float* intermediate = atLeast(ws.intermediate, static_cast<size_t>(threads) * row_block * ff);
    std::barrier sync(threads);

    // Each thread owns a block of rows for the row-local work (embeddings, every Linear layer,
    // GELU, LayerNorm) and a share of the heads for attention, which reads every row of a
    // sequence; so the team meets before and after attention only.
    auto work = [&](int tid) {
        const size_t r0 = n * static_cast<size_t>(tid) / static_cast<size_t>(threads);
        const size_t r1 = n * static_cast<size_t>(tid + 1) / static_cast<size_t>(threads);
        const size_t m = r1 - r0;
        float* xs = x.data() + r0 * h;
        float* qkvs = qkv + r0 * 3 * h;
        float* ctx = context + r0 * h;
        float* proj = projected + r0 * h;
        float* mid = intermediate + static_cast<size_t>(tid) * row_block * ff;
        embed(sequences, batch, x.data(), r0, r1);
        for (const Layer& layer : layers_) {
            gemm::linear(xs, h, m, layer.qkv, layer.qkv_bias.data(), qkvs, 3 * h);
            sync.arrive_and_wait();
            attention(batch, qkv, context, tid, threads);
            sync.arrive_and_wait();
            // The rest of the layer a block of rows at a time, so that the block's
            // intermediate activations (kRowBlock × ff) stay in L2 between the two products.
            for (size_t b0 = 0; b0 < m; b0 += row_block) {
                const size_t rows = std::min(row_block, m - b0);
                float* xb = xs + b0 * h;
                float* pb = proj + b0 * h;
                gemm::linear(ctx + b0 * h, h, rows, layer.out, layer.out_bias, pb, h);
                vmath::addLayerNorm(xb, pb, rows, h, layer.attn_ln_gamma, layer.attn_ln_beta,
                                    config_.layer_norm_eps);
                gemm::linear(xb, h, rows, layer.ffn_in, layer.ffn_in_bias, mid, ff);
                vmath::gelu(mid, rows * ff);
                gemm::linear(mid, ff, rows, layer.ffn_out, layer.ffn_out_bias, pb, h);
                vmath::addLayerNorm(xb, pb, rows, h, layer.ffn_ln_gamma, layer.ffn_ln_beta,
                                    config_.layer_norm_eps);
            }
        }
    };
    {
        std::vector<std::jthread> team;
        for (int t = 1; t < threads; ++t) team.emplace_back(work, t);
        work(0);
    }
    ws.trim();
    return x;
}

}  // namespace docintel::embed
