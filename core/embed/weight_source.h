#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugin_api/result.h"

namespace docintel::embed {

/// One F32 tensor of a WeightSource, named as Hugging Face's BertModel names it. `data` lives
/// as long as the source that produced it.
struct TensorView {
    const float* data = nullptr;
    std::vector<int64_t> shape;
    size_t elements() const;
};

/// Reads row `row` of an embedding table as F32: a pointer into the source, or `scratch` (one
/// row of floats) filled with the row. Safe on any number of threads at once.
using RowReader = std::function<const float*(int64_t row, float* scratch)>;

/// Where BertEncoder::load takes a model's weights from: a safetensors file (F32, read in
/// place) or a quantised file that a source dequantises. Tensors are asked for by their
/// Hugging Face names ("encoder.layer.0.attention.self.query.weight"). Loading asks from one
/// thread; rows() readers may run on many.
class WeightSource {
  public:
    virtual ~WeightSource() = default;

    virtual bool contains(const std::string& name) const = 0;
    /// Errors: `model_tensor_missing`, `model_dtype_unsupported`, `model_unreadable`.
    virtual plugin::Result<TensorView> tensor(const std::string& name) const = 0;
    /// A reader of the 2-D tensor `name` one row at a time, for an embedding table that a
    /// source keeps compressed rather than expand whole. The default reads tensor(name) in
    /// place. Errors: those of tensor(), or `model_config_invalid` when the shape differs.
    virtual plugin::Result<RowReader> rows(const std::string& name,
                                           const std::vector<int64_t>& shape) const;
    /// Tells the source that `count` floats from `data` (a tensor it returned) will not be read
    /// again, so it may free them or let their pages go.
    virtual void release(const float* data, size_t count) const = 0;
};

}  // namespace docintel::embed
