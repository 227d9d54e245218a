#include "search/model_vectors.h"

#include <mutex>

namespace docintel::search {

void ModelVectors::put(const storage::IndexedDocument& doc) {
    // The models the document's vectors are of (usually one), with their dimension.
    std::map<std::string, std::size_t> dims;
    for (const auto& c : doc.chunks) {
        if (!c.vector.empty()) dims.emplace(c.model, c.vector.size());
    }
    const auto missing = [&] {
        for (const auto& [model, _] : dims) {
            if (!indexes_.count(model)) return true;
        }
        return false;
    };
    bool create = false;
    {
        std::shared_lock lock(mutex_);
        create = missing();
    }
    if (create) {
        std::unique_lock lock(mutex_);
        for (const auto& [model, dim] : dims) {
            auto& index = indexes_[model];
            if (!index) index = std::make_unique<VectorIndex>(static_cast<int>(dim));
        }
    }
    // Each index takes the chunks of its model; those without any lose the document's rows.
    std::shared_lock lock(mutex_);
    for (const auto& [model, index] : indexes_) index->put(doc, model);
}

void ModelVectors::remove(const std::string& document_id) {
    std::shared_lock lock(mutex_);
    for (const auto& [_, index] : indexes_) index->remove(document_id);
}

std::vector<std::string> ModelVectors::modelsIn(const SearchScope& scope) const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [model, index] : indexes_) {
        if (index->holds(scope)) out.push_back(model);
    }
    return out;
}

const VectorIndex* ModelVectors::find(const std::string& model) const {
    std::shared_lock lock(mutex_);
    const auto it = indexes_.find(model);
    return it == indexes_.end() ? nullptr : it->second.get();
}

std::size_t ModelVectors::size() const {
    std::shared_lock lock(mutex_);
    std::size_t n = 0;
    for (const auto& [_, index] : indexes_) n += index->size();
    return n;
}

}  // namespace docintel::search
