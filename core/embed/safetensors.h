#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "embed/mapped_file.h"
#include "embed/weight_source.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// A safetensors file mapped read-only into memory (the format: an 8-byte little-endian header
/// length, a JSON header naming each tensor's dtype, shape and byte range, then the data).
/// Only F32 tensors can be read; asking for another dtype is an error. Immutable after open,
/// so concurrent reads are safe. Owns the mapping; unmaps on destruction.
class SafetensorsFile : public WeightSource {
  public:
    /// Errors: `model_unreadable` when the file is missing, truncated or its header is not
    /// valid safetensors JSON.
    static plugin::Result<std::unique_ptr<SafetensorsFile>> open(const std::string& path);
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    bool contains(const std::string& name) const override { return entries_.count(name) != 0; }
    /// Errors: `model_tensor_missing`, or `model_dtype_unsupported` for a non-F32 tensor.
    plugin::Result<TensorView> tensor(const std::string& name) const override;
    /// Tells the kernel that `count` floats from `data` (a tensor of this file) will not be
    /// read again, so their pages leave the resident set; reading them later still works (the
    /// pages come back from the file). For tensors the caller has copied in another layout.
    void release(const float* data, size_t count) const override;

  private:
    struct Entry {
        std::string dtype;
        std::vector<int64_t> shape;
        size_t begin = 0;
        size_t end = 0;
    };
    SafetensorsFile() = default;

    std::string path_;
    MappedFile file_;
    const uint8_t* data_ = nullptr;  ///< start of the data section
    size_t data_size_ = 0;
    std::map<std::string, Entry> entries_;
};

}  // namespace docintel::embed
