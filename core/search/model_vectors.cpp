#include "search/model_vectors.h"

#include <mutex>

namespace docintel::search {

void ModelVectors::put(const storage::IndexedDocument& doc) {
    // The document's chunks by model; those without a vector go nowhere.
    std::map<std::string, storage::IndexedDocument> by_model;
    for (const auto& c : doc.chunks) {
        if (c.vector.empty()) continue;
        auto [it, fresh] = by_model.try_emplace(c.model);
        if (fresh) {
            it->second.id = doc.id;
            it->second.scope = doc.scope;
        }
        it->second.chunks.push_back(c);
    }
    {
        std::unique_lock lock(mutex_);
        for (const auto& [model, part] : by_model) {
            auto& index = indexes_[model];
            if (!index)
                index = std::make_unique<VectorIndex>(
                    static_cast<int>(part.chunks.front().vector.size()));
        }
    }
    std::shared_lock lock(mutex_);
    const storage::IndexedDocument none{doc.id, doc.scope, {}};
    for (const auto& [model, index] : indexes_) {
        const auto part = by_model.find(model);
        index->put(part == by_model.end() ? none : part->second);
    }
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
