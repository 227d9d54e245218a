#include "embed/sentence_encoder.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include <nlohmann/json.hpp>

#include "embed/e5_model_file.h"
#include "embed/sentencepiece_tokenizer.h"
#include "embed/wordpiece_tokenizer.h"

namespace docintel::embed {

namespace fs = std::filesystem;

namespace {

plugin::Error configInvalid(const std::string& what) { return {"model_config_invalid", what, 500}; }

// The file's JSON, an empty object when the file is absent, or an error when it is not JSON.
plugin::Result<nlohmann::json> readJson(const fs::path& path, bool required) {
    std::ifstream in(path);
    if (!in) {
        if (required) return plugin::Error{"model_missing", "no " + path.string(), 500};
        return nlohmann::json::object();
    }
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return configInvalid(path.string() + " is not valid JSON");
    return j;
}

template <typename T>
T valueOr(const nlohmann::json& j, const char* key, T fallback) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    return it->get<T>();
}

std::string readVersion(const fs::path& dir) {
    std::ifstream version(dir / "MODEL_VERSION");
    std::string line;
    if (version && std::getline(version, line) && !line.empty()) return line;
    return "unknown";
}

}  // namespace

plugin::Result<std::unique_ptr<SentenceEncoder>> SentenceEncoder::load(const std::string& model_dir,
                                                                       Options options) {
    const fs::path dir(model_dir);
    auto enc = fs::exists(dir / E5ModelFile::kFileName) ? loadE5(model_dir)
                                                        : loadSentenceTransformers(model_dir);
    if (!enc) return enc.error();
    (*enc)->name_ = fs::weakly_canonical(dir).filename().string();
    (*enc)->version_ = readVersion(dir);
    (*enc)->threads_ = std::max(options.threads, 1);
    const Tokenizer& tokenizer = *(*enc)->tokenizer_;
    auto prefixTokens = [&](const std::string& prefix) {
        return prefix.empty() ? 0 : tokenizer.countTokens(prefix);
    };
    (*enc)->max_tokens_ = tokenizer.maxTokens() - std::max(prefixTokens((*enc)->passage_prefix_),
                                                           prefixTokens((*enc)->query_prefix_));
    openblas_set_num_threads(1);
    return enc;
}

// multilingual-e5-small (docs/decisions/0074): the shape and vocabulary come from the weights
// file; the model card's pooling (mean), normalisation and prefixes are the model's own.
plugin::Result<std::unique_ptr<SentenceEncoder>> SentenceEncoder::loadE5(
    const std::string& model_dir) {
    auto file = E5ModelFile::open((fs::path(model_dir) / E5ModelFile::kFileName).string());
    if (!file) return file.error();
    const BertConfig config = (*file)->config();
    std::unique_ptr<SentenceEncoder> enc(new SentenceEncoder());
    enc->pooling_ = Pooling::kMean;
    enc->normalize_ = true;
    enc->passage_prefix_ = "passage: ";
    enc->query_prefix_ = "query: ";
    enc->tokenizer_ =
        std::make_unique<SentencepieceTokenizer>((*file)->takeVocabulary(), config.max_positions);
    auto encoder =
        BertEncoder::load(std::unique_ptr<WeightSource>(std::move(file).value()), config);
    if (!encoder) return encoder.error();
    enc->encoder_ = std::move(encoder).value();
    return enc;
}

plugin::Result<std::unique_ptr<SentenceEncoder>> SentenceEncoder::loadSentenceTransformers(
    const std::string& model_dir) {
    const fs::path dir(model_dir);
    try {
        auto config = readJson(dir / "config.json", true);
        if (!config) return config.error();
        auto tok_config = readJson(dir / "tokenizer_config.json", false);
        if (!tok_config) return tok_config.error();
        auto st_config = readJson(dir / "sentence_bert_config.json", false);
        if (!st_config) return st_config.error();
        auto modules = readJson(dir / "modules.json", false);
        if (!modules) return modules.error();

        const std::string model_type = valueOr<std::string>(*config, "model_type", "bert");
        if (model_type != "bert") {
            return configInvalid("model type " + model_type + " is not a BERT encoder");
        }
        if (valueOr<std::string>(*config, "hidden_act", "gelu") != "gelu" ||
            valueOr<std::string>(*config, "position_embedding_type", "absolute") != "absolute") {
            return configInvalid("only GELU activations and absolute positions are supported");
        }
        BertConfig bert;
        bert.hidden_size = valueOr(*config, "hidden_size", bert.hidden_size);
        bert.num_layers = valueOr(*config, "num_hidden_layers", bert.num_layers);
        bert.num_heads = valueOr(*config, "num_attention_heads", bert.num_heads);
        bert.intermediate_size = valueOr(*config, "intermediate_size", bert.intermediate_size);
        bert.max_positions = valueOr(*config, "max_position_embeddings", bert.max_positions);
        bert.type_vocab_size = valueOr(*config, "type_vocab_size", bert.type_vocab_size);
        bert.vocab_size = valueOr(*config, "vocab_size", bert.vocab_size);
        bert.layer_norm_eps = valueOr(*config, "layer_norm_eps", bert.layer_norm_eps);

        // Pooling and normalisation follow the sentence-transformers modules; a bare BERT
        // folder gets mean pooling, the sentence-transformers default.
        std::unique_ptr<SentenceEncoder> enc(new SentenceEncoder());
        fs::path pooling_dir = dir / "1_Pooling";
        if (modules->is_array()) {
            for (const auto& m : *modules) {
                std::string type = valueOr<std::string>(m, "type", "");
                if (type.ends_with("Pooling"))
                    pooling_dir = dir / valueOr<std::string>(m, "path", "");
                if (type.ends_with("Normalize")) enc->normalize_ = true;
            }
        }
        auto pooling = readJson(pooling_dir / "config.json", false);
        if (!pooling) return pooling.error();
        if (valueOr(*pooling, "pooling_mode_cls_token", false)) {
            enc->pooling_ = Pooling::kCls;
        } else if (valueOr(*pooling, "pooling_mode_mean_tokens", true)) {
            enc->pooling_ = Pooling::kMean;
        } else {
            return configInvalid("pooling in " + pooling_dir.string() + " is not mean or CLS");
        }

        WordpieceTokenizer::Options tok;
        // sentence-transformers' do_lower_case switches the tokenizer's lower-casing on: it
        // adds a Lowercase normaliser unless the tokenizer already lower-cases, so special
        // tokens written in the text still match (as the bge-config reference pins).
        tok.lower_case = valueOr(*tok_config, "do_lower_case", true) ||
                         valueOr(*st_config, "do_lower_case", false);
        tok.strip_accents = valueOr(*tok_config, "strip_accents", tok.lower_case);
        tok.split_cjk = valueOr(*tok_config, "tokenize_chinese_chars", true);
        int max_len = valueOr(*st_config, "max_seq_length",
                              valueOr(*tok_config, "model_max_length", bert.max_positions));
        tok.max_tokens = std::clamp(max_len, 2, bert.max_positions);
        auto tokenizer = WordpieceTokenizer::load((dir / "vocab.txt").string(), tok);
        if (!tokenizer) return tokenizer.error();
        enc->tokenizer_ = std::move(tokenizer).value();
        if (enc->tokenizer_->vocabSize() != static_cast<size_t>(bert.vocab_size)) {
            return configInvalid("vocab.txt size differs from config.json's vocab_size");
        }

        if (!fs::exists(dir / "model.safetensors")) {
            return plugin::Error{"model_missing", "no " + (dir / "model.safetensors").string(),
                                 500};
        }
        auto encoder = BertEncoder::load((dir / "model.safetensors").string(), bert);
        if (!encoder) return encoder.error();
        enc->encoder_ = std::move(encoder).value();
        return enc;
    } catch (const nlohmann::json::exception& e) {
        return configInvalid("model config in " + model_dir + " has a wrongly typed field");
    }
}

plugin::Result<std::vector<std::vector<float>>> SentenceEncoder::encodeWith(
    const std::string& prefix, const std::vector<std::string>& texts, int batch_size,
    int threads) const {
    if (batch_size < 1) {
        return plugin::Error::badRequest("invalid_batch_size", "batch size must be at least 1");
    }
    std::vector<std::vector<int32_t>> ids(texts.size());
    for (size_t i = 0; i < texts.size(); ++i) ids[i] = tokenizer_->encode(prefix + texts[i]);
    std::vector<size_t> order(texts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return ids[a].size() < ids[b].size(); });

    std::vector<std::vector<float>> out(texts.size());
    std::vector<const std::vector<int32_t>*> batch_ids;
    PackedBatch batch;
    for (size_t start = 0; start < order.size(); start += static_cast<size_t>(batch_size)) {
        size_t end = std::min(order.size(), start + static_cast<size_t>(batch_size));
        batch_ids.clear();
        for (size_t i = start; i < end; ++i) batch_ids.push_back(&ids[order[i]]);
        std::vector<float> hidden =
            encoder_->forward(batch_ids, batch, threads > 0 ? threads : threads_);
        for (size_t i = start; i < end; ++i) pool(hidden.data(), batch, i - start, out[order[i]]);
    }
    return out;
}

void SentenceEncoder::pool(const float* hidden, const PackedBatch& batch, size_t index,
                           std::vector<float>& out) const {
    const auto h = static_cast<size_t>(dimension());
    const auto begin = static_cast<size_t>(batch.offsets[index]);
    const auto end = static_cast<size_t>(batch.offsets[index + 1]);
    out.assign(h, 0.0f);
    if (pooling_ == Pooling::kCls) {
        std::copy(hidden + begin * h, hidden + (begin + 1) * h, out.begin());
    } else {
        for (size_t t = begin; t < end; ++t) {
            const float* row = hidden + t * h;
            for (size_t i = 0; i < h; ++i) out[i] += row[i];
        }
        float inv = 1.0f / static_cast<float>(std::max<size_t>(end - begin, 1));
        for (float& v : out) v *= inv;
    }
    if (normalize_) {
        float norm = 0.0f;
        for (float v : out) norm += v * v;
        norm = std::max(std::sqrt(norm), 1e-12f);
        for (float& v : out) v /= norm;
    }
}

}  // namespace docintel::embed
