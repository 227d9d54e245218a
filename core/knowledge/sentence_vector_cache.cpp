#include "knowledge/sentence_vector_cache.h"

namespace docintel::knowledge {

std::string SentenceVectorCache::key(const std::string& document_id, int version,
                                     const std::string& model) {
    return document_id + "|" + std::to_string(version) + "|" + model;
}

std::vector<std::vector<float>> SentenceVectorCache::lookup(const std::string& key,
                                                            const std::vector<std::string>& texts) {
    std::vector<std::vector<float>> out(texts.size());
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    if (it == entries_.end()) {
        stats_.misses += texts.size();
        return out;
    }
    recency_.splice(recency_.begin(), recency_, it->second.recency);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto v = it->second.vectors.find(texts[i]);
        if (v == it->second.vectors.end()) {
            ++stats_.misses;
        } else {
            ++stats_.hits;
            out[i] = v->second;
        }
    }
    return out;
}

void SentenceVectorCache::store(const std::string& key, const std::vector<std::string>& texts,
                                const std::vector<std::vector<float>>& vectors) {
    if (max_bytes_ == 0 || texts.empty()) return;
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) {
        recency_.push_front(key);
        it = entries_.emplace(key, Entry{}).first;
        it->second.recency = recency_.begin();
        ++stats_.documents;
    } else {
        recency_.splice(recency_.begin(), recency_, it->second.recency);
    }
    Entry& entry = it->second;
    for (std::size_t i = 0; i < texts.size() && i < vectors.size(); ++i) {
        if (vectors[i].empty()) continue;
        const auto [at, fresh] = entry.vectors.try_emplace(texts[i], vectors[i]);
        if (!fresh) continue;
        const std::size_t bytes = texts[i].size() + vectors[i].size() * sizeof(float);
        entry.bytes += bytes;
        stats_.bytes += bytes;
        ++stats_.sentences;
    }
    evict();
}

void SentenceVectorCache::evict() {
    while (stats_.bytes > max_bytes_ && !recency_.empty()) {
        const auto it = entries_.find(recency_.back());
        stats_.bytes -= it->second.bytes;
        stats_.sentences -= it->second.vectors.size();
        --stats_.documents;
        ++stats_.evictions;
        entries_.erase(it);
        recency_.pop_back();
    }
}

SentenceVectorCache::Stats SentenceVectorCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace docintel::knowledge
