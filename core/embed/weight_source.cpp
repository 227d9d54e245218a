#include "embed/weight_source.h"

namespace docintel::embed {

size_t TensorView::elements() const {
    size_t n = 1;
    for (int64_t d : shape) n *= static_cast<size_t>(d);
    return n;
}

plugin::Result<RowReader> WeightSource::rows(const std::string& name,
                                             const std::vector<int64_t>& shape) const {
    auto t = tensor(name);
    if (!t) return t.error();
    if (t->shape != shape || shape.size() != 2) {
        return plugin::Error{"model_config_invalid",
                             "tensor " + name + " has a shape config.json does not give", 500};
    }
    const float* data = t->data;
    const auto width = static_cast<size_t>(shape[1]);
    return RowReader(
        [data, width](int64_t row, float*) { return data + static_cast<size_t>(row) * width; });
}

}  // namespace docintel::embed
