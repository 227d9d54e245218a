#pragma once

#include <array>
#include <cstdint>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "search/keyword_index.h"

namespace docintel::search {

struct VectorHit {
    std::string document_id;
    int chunk_index = 0;
    float similarity = 0;  ///< cosine (vectors are unit length)
};

/// The node's in-memory vector index: unit vectors of one model, exact inner-product scan
/// (OpenBLAS sgemv) over the chunks in scope. A document's rows are contiguous, so searching
/// selected documents touches only their rows; replaced or removed rows are reclaimed by
/// compaction in place once they are 1/64 of the rows. About dim·4 + 4 bytes a chunk plus
/// ~90 bytes a document.
///
/// Thread-safe: searches share a lock, updates take it exclusively.
class VectorIndex {
  public:
    explicit VectorIndex(int dim) : dim_(dim) {}

    /// Replaces the document's vectors; chunks whose vector has another dimension, or (with
    /// `model` set) that another model embedded, are skipped.
    void put(const storage::IndexedDocument& doc, const std::string& model = {});
    void remove(const std::string& document_id);
    /// Reserves room for `rows` more vectors (bulk loads).
    void reserve(std::size_t rows);

    /// The `k` nearest chunks to the unit vector `query` within `scope`.
    std::vector<VectorHit> search(const std::vector<float>& query, const SearchScope& scope,
                                  int k) const;

    /// Whether any chunk of `scope` has a vector here.
    bool holds(const SearchScope& scope) const;

    int dim() const { return dim_; }
    std::size_t size() const;
    /// Bytes held (capacity of the arrays and maps), for the memory budget.
    std::size_t memoryBytes() const;

  private:
    using Key = std::array<std::uint8_t, 16>;
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    struct Doc {
        Key id{};
        std::uint32_t first_row = 0;
        std::uint32_t rows = 0;  ///< 0 once removed (until compaction drops it)
        std::uint32_t scope = 0;
    };

    /// Floats in pages of their own, grown and shrunk with mremap: no copy when the index
    /// grows and no slack beyond a page, so the index costs what it holds.
    class FloatPages {
      public:
        FloatPages() = default;
        FloatPages(const FloatPages&) = delete;
        FloatPages& operator=(const FloatPages&) = delete;
        ~FloatPages();
        float* data() { return data_; }
        const float* data() const { return data_; }
        std::size_t size() const { return size_; }
        std::size_t capacityBytes() const { return bytes_; }
        void reserve(std::size_t floats);
        void append(const float* p, std::size_t n);
        void truncate(std::size_t floats);

      private:
        void resizeMapping(std::size_t bytes);
        float* data_ = nullptr;
        std::size_t size_ = 0;
        std::size_t bytes_ = 0;
    };

    void removeLocked(const Key& key);
    void compactLocked();
    void scoreRows(const float* query, std::uint32_t first, std::uint32_t count,
                   std::vector<std::pair<float, std::uint32_t>>& out) const;
    const Doc& docOfRow(std::uint32_t row) const;

    const int dim_;
    mutable std::shared_mutex mutex_;  // guards everything below
    FloatPages vectors_;               ///< rows × dim
    std::vector<std::int32_t> row_chunk_;
    std::vector<Doc> docs_;  ///< ascending first_row
    std::unordered_map<Key, std::uint32_t, KeyHash> doc_slot_;
    std::vector<std::string> scopes_;
    std::unordered_map<std::string, std::uint32_t> scope_ids_;
    std::size_t dead_rows_ = 0;
};

}  // namespace docintel::search
