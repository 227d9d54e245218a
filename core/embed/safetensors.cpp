#include "embed/safetensors.h"

#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

namespace docintel::embed {

plugin::Result<std::unique_ptr<SafetensorsFile>> SafetensorsFile::open(const std::string& path) {
    auto mapped = MappedFile::open(path, 8);
    if (!mapped) return mapped.error();
    std::unique_ptr<SafetensorsFile> file(new SafetensorsFile());
    file->path_ = path;
    file->file_ = std::move(mapped).value();
    const size_t size = file->file_.size();
    const uint8_t* bytes = file->file_.data();
    uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | bytes[i];
    if (header_len > size - 8) return weightsUnreadable(path, "header length beyond end of file");
    file->data_ = bytes + 8 + header_len;
    file->data_size_ = size - 8 - header_len;

    nlohmann::json header = nlohmann::json::parse(reinterpret_cast<const char*>(bytes + 8),
                                                  reinterpret_cast<const char*>(file->data_),
                                                  nullptr, /*allow_exceptions=*/false);
    if (!header.is_object()) return weightsUnreadable(path, "header is not a JSON object");
    for (const auto& [name, info] : header.items()) {
        if (name == "__metadata__") continue;
        if (!info.is_object() || !info.contains("dtype") || !info.contains("shape") ||
            !info.contains("data_offsets") || !info["data_offsets"].is_array() ||
            info["data_offsets"].size() != 2) {
            return weightsUnreadable(path, "bad header entry for " + name);
        }
        Entry e;
        e.dtype = info["dtype"].get<std::string>();
        e.shape = info["shape"].get<std::vector<int64_t>>();
        e.begin = info["data_offsets"][0].get<size_t>();
        e.end = info["data_offsets"][1].get<size_t>();
        if (e.begin > e.end || e.end > file->data_size_) {
            return weightsUnreadable(path, "data range out of bounds for " + name);
        }
        file->entries_.emplace(name, std::move(e));
    }
    return file;
}

plugin::Result<TensorView> SafetensorsFile::tensor(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
        return plugin::Error{"model_tensor_missing", path_ + " has no tensor " + name, 500};
    }
    const Entry& e = it->second;
    if (e.dtype != "F32") {
        return plugin::Error{"model_dtype_unsupported",
                             "tensor " + name + " in " + path_ + " is " + e.dtype +
                                 "; only F32 weights are supported",
                             500};
    }
    TensorView view;
    view.shape = e.shape;
    if (view.elements() * sizeof(float) != e.end - e.begin) {
        return weightsUnreadable(path_, "size of " + name + " does not match its shape");
    }
    if (reinterpret_cast<uintptr_t>(data_ + e.begin) % alignof(float) != 0) {
        return weightsUnreadable(path_, "tensor " + name + " is not 4-byte aligned");
    }
    view.data = reinterpret_cast<const float*>(data_ + e.begin);
    return view;
}

void SafetensorsFile::release(const float* data, size_t count) const {
    file_.release(data, count * sizeof(float));
}

}  // namespace docintel::embed
