#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace docintel::knowledge {

/// Sentence vectors of recently summarised documents, so a second summary (or comparison) of
/// a document does not encode its sentences again (docs/knowledge.md "Summaries").
/// Keyed by (document id, version, encoder model); within a document, by the sentence's text,
/// so a different `chunk_indices` selection reuses what it shares and a text never gets a
/// vector other than its own. Bounded: least recently used documents are dropped while the
/// vectors held exceed `max_bytes` (0 = no cache). Thread-safe.
class SentenceVectorCache {
  public:
    explicit SentenceVectorCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    static std::string key(const std::string& document_id, int version, const std::string& model);

    /// For each of `texts`, its cached vector, or an empty vector when not cached.
    std::vector<std::vector<float>> lookup(const std::string& key,
                                           const std::vector<std::string>& texts);
    /// Adds `vectors` (one per text) to the document's entry; evicts as needed.
    void store(const std::string& key, const std::vector<std::string>& texts,
               const std::vector<std::vector<float>>& vectors);

    struct Stats {
        std::size_t documents = 0;
        std::size_t sentences = 0;
        std::size_t bytes = 0;
        std::size_t hits = 0;
        std::size_t misses = 0;
        std::size_t evictions = 0;
    };
    Stats stats() const;
    std::size_t maxBytes() const { return max_bytes_; }

  private:
    struct Entry {
        std::unordered_map<std::string, std::vector<float>> vectors;
        std::size_t bytes = 0;
        std::list<std::string>::iterator recency;
    };
    void evict();  ///< with mutex_ held

    const std::size_t max_bytes_;
    mutable std::mutex mutex_;
    std::list<std::string> recency_;  ///< most recent first
    std::unordered_map<std::string, Entry> entries_;
    Stats stats_;
};

}  // namespace docintel::knowledge
