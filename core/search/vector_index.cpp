#include "search/vector_index.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#include <cblas.h>

namespace docintel::search {
namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// The 16 bytes of a UUID in text form (dashes skipped); false when it is not one.
template <typename Key>
bool parseKey(const std::string& text, Key& key) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '-') continue;
        const int hi = hexValue(text[i]);
        const int lo = i + 1 < text.size() ? hexValue(text[i + 1]) : -1;
        if (hi < 0 || lo < 0 || n >= key.size()) return false;
        key[n++] = static_cast<std::uint8_t>(hi << 4 | lo);
        ++i;
    }
    return n == key.size();
}

template <typename Key>
std::string formatKey(const Key& key) {
    static const char* kHex = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (std::size_t i = 0; i < key.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        out += kHex[key[i] >> 4];
        out += kHex[key[i] & 15];
    }
    return out;
}

/// Grows `v` to hold `extra` more elements by at least a quarter, not double: the index's
/// memory stays close to what it holds.
template <typename T>
void grow(std::vector<T>& v, std::size_t extra) {
    const std::size_t needed = v.size() + extra;
    if (needed > v.capacity()) v.reserve(std::max(needed, v.capacity() + v.capacity() / 4));
}

}  // namespace

std::size_t VectorIndex::KeyHash::operator()(const Key& k) const {
    std::uint64_t h = 0;
    for (int i = 0; i < 8; ++i) h = (h << 8) | static_cast<std::uint8_t>(k[i] ^ k[i + 8]);
    return static_cast<std::size_t>(h);
}

VectorIndex::FloatPages::~FloatPages() {
    if (data_) munmap(data_, bytes_);
}

void VectorIndex::FloatPages::resizeMapping(std::size_t bytes) {
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    bytes = (bytes + page - 1) / page * page;
    if (bytes == bytes_) return;
    void* p = nullptr;
    if (bytes == 0) {
        munmap(data_, bytes_);
    } else if (!data_) {
        p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    } else {
        p = mremap(data_, bytes_, bytes, MREMAP_MAYMOVE);
    }
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<float*>(p);
    bytes_ = bytes;
}

void VectorIndex::FloatPages::reserve(std::size_t floats) {
    if (floats * sizeof(float) > bytes_) resizeMapping(floats * sizeof(float));
}

void VectorIndex::FloatPages::append(const float* p, std::size_t n) {
    // Grow by at least 64 KiB: few remaps, little slack.
    if ((size_ + n) * sizeof(float) > bytes_) {
        resizeMapping(std::max((size_ + n) * sizeof(float), bytes_ + (std::size_t{64} << 10)));
    }
    std::memcpy(data_ + size_, p, n * sizeof(float));
    size_ += n;
}

void VectorIndex::FloatPages::truncate(std::size_t floats) {
    size_ = std::min(size_, floats);
    if (bytes_ - size_ * sizeof(float) > (std::size_t{256} << 10)) {
        resizeMapping(size_ * sizeof(float));
    }
}

void VectorIndex::reserve(std::size_t rows) {
    std::unique_lock lock(mutex_);
    vectors_.reserve(vectors_.size() + rows * dim_);
    row_chunk_.reserve(row_chunk_.size() + rows);
}

void VectorIndex::removeLocked(const Key& key) {
    const auto it = doc_slot_.find(key);
    if (it == doc_slot_.end()) return;
    Doc& doc = docs_[it->second];
    dead_rows_ += doc.rows;
    doc.rows = 0;
    doc_slot_.erase(it);
}

void VectorIndex::remove(const std::string& document_id) {
    Key key;
    if (!parseKey(document_id, key)) return;
    std::unique_lock lock(mutex_);
    removeLocked(key);
    compactLocked();
}

void VectorIndex::put(const storage::IndexedDocument& d, const std::string& model) {
    Key key;
    if (!parseKey(d.id, key)) return;
    const auto held = [&](const storage::IndexedChunk& c) {
        return c.vector.size() == static_cast<std::size_t>(dim_) &&
               (model.empty() || c.model == model);
    };
    std::size_t rows = 0;
    for (const auto& c : d.chunks) rows += held(c);
    std::unique_lock lock(mutex_);
    removeLocked(key);
    if (rows > 0) {
        auto [scope, fresh] = scope_ids_.try_emplace(d.scope, scopes_.size());
        if (fresh) scopes_.push_back(d.scope);
        Doc doc;
        doc.id = key;
        doc.first_row = static_cast<std::uint32_t>(row_chunk_.size());
        doc.rows = static_cast<std::uint32_t>(rows);
        doc.scope = scope->second;
        grow(docs_, 1);
        doc_slot_[key] = static_cast<std::uint32_t>(docs_.size());
        docs_.push_back(doc);
        grow(row_chunk_, rows);
        for (const auto& c : d.chunks) {
            if (!held(c)) continue;
            vectors_.append(c.vector.data(), c.vector.size());
            row_chunk_.push_back(c.chunk_index);
        }
    }
    compactLocked();
}

void VectorIndex::compactLocked() {
    const std::size_t dead_docs = docs_.size() - doc_slot_.size();
    const bool many_dead_rows = dead_rows_ >= 256 && dead_rows_ * 64 >= row_chunk_.size();
    const bool many_dead_docs = dead_docs >= 256 && dead_docs * 16 >= docs_.size();
    if (!many_dead_rows && !many_dead_docs) return;
    // Live rows move down in place (destinations never pass their sources).
    std::uint32_t next_row = 0;
    std::size_t next_doc = 0;
    for (std::size_t i = 0; i < docs_.size(); ++i) {
        Doc doc = docs_[i];
        if (doc.rows == 0) continue;
        if (doc.first_row != next_row) {
            std::memmove(vectors_.data() + std::size_t{next_row} * dim_,
                         vectors_.data() + std::size_t{doc.first_row} * dim_,
                         std::size_t{doc.rows} * dim_ * sizeof(float));
            std::memmove(row_chunk_.data() + next_row, row_chunk_.data() + doc.first_row,
                         doc.rows * sizeof(std::int32_t));
            doc.first_row = next_row;
        }
        next_row += doc.rows;
        doc_slot_[doc.id] = static_cast<std::uint32_t>(next_doc);
        docs_[next_doc++] = doc;
    }
    docs_.resize(next_doc);
    docs_.shrink_to_fit();
    row_chunk_.resize(next_row);
    row_chunk_.shrink_to_fit();
    vectors_.truncate(std::size_t{next_row} * dim_);
    dead_rows_ = 0;
}

const VectorIndex::Doc& VectorIndex::docOfRow(std::uint32_t row) const {
    auto it = std::upper_bound(docs_.begin(), docs_.end(), row,
                               [](std::uint32_t r, const Doc& d) { return r < d.first_row; });
    return *std::prev(it);
}

void VectorIndex::scoreRows(const float* query, std::uint32_t first, std::uint32_t count,
                            std::vector<std::pair<float, std::uint32_t>>& out) const {
    const std::size_t base = out.size();
    out.resize(base + count);
    thread_local std::vector<float> scores;
    scores.resize(count);
    cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(count), dim_, 1.0f,
                vectors_.data() + std::size_t{first} * dim_, dim_, query, 1, 0.0f, scores.data(),
                1);
    for (std::uint32_t i = 0; i < count; ++i) out[base + i] = {scores[i], first + i};
}

std::vector<VectorHit> VectorIndex::search(const std::vector<float>& query,
                                           const SearchScope& scope, int k) const {
    std::vector<VectorHit> hits;
    if (query.size() != static_cast<std::size_t>(dim_) || k <= 0) return hits;
    std::shared_lock lock(mutex_);
    std::vector<std::pair<float, std::uint32_t>> scored;
    if (!scope.document_ids.empty()) {
        for (const auto& id : scope.document_ids) {
            Key key;
            if (!parseKey(id, key)) continue;
            const auto it = doc_slot_.find(key);
            if (it == doc_slot_.end()) continue;
            const Doc& doc = docs_[it->second];
            scoreRows(query.data(), doc.first_row, doc.rows, scored);
        }
    } else {
        const auto sid = scope_ids_.find(scope.scope);
        if (sid == scope_ids_.end()) return hits;
        // Runs of consecutive live rows of the scope go to one sgemv.
        std::uint32_t run_start = 0, run_rows = 0;
        for (const Doc& doc : docs_) {
            if (doc.rows == 0 || doc.scope != sid->second) continue;
            if (run_rows > 0 && run_start + run_rows == doc.first_row) {
                run_rows += doc.rows;
                continue;
            }
            if (run_rows > 0) scoreRows(query.data(), run_start, run_rows, scored);
            run_start = doc.first_row;
            run_rows = doc.rows;
        }
        if (run_rows > 0) scoreRows(query.data(), run_start, run_rows, scored);
    }
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(k), scored.size());
    std::partial_sort(scored.begin(), scored.begin() + n, scored.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
    hits.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto row = scored[i].second;
        hits.push_back(VectorHit{formatKey(docOfRow(row).id), row_chunk_[row], scored[i].first});
    }
    return hits;
}

bool VectorIndex::holds(const SearchScope& scope) const {
    std::shared_lock lock(mutex_);
    if (!scope.document_ids.empty()) {
        for (const auto& id : scope.document_ids) {
            Key key;
            if (parseKey(id, key) && doc_slot_.count(key)) return true;
        }
        return false;
    }
    const auto sid = scope_ids_.find(scope.scope);
    if (sid == scope_ids_.end()) return false;
    return std::any_of(docs_.begin(), docs_.end(),
                       [&](const Doc& d) { return d.rows > 0 && d.scope == sid->second; });
}

std::size_t VectorIndex::size() const {
    std::shared_lock lock(mutex_);
    return row_chunk_.size() - dead_rows_;
}

std::size_t VectorIndex::memoryBytes() const {
    std::shared_lock lock(mutex_);
    std::size_t bytes = vectors_.capacityBytes() + row_chunk_.capacity() * sizeof(std::int32_t) +
                        docs_.capacity() * sizeof(Doc);
    // A node: the pair, the next pointer, the cached hash, malloc's header; one bucket pointer.
    bytes += doc_slot_.size() * (sizeof(std::pair<const Key, std::uint32_t>) + 3 * sizeof(void*)) +
             doc_slot_.bucket_count() * sizeof(void*);
    for (const auto& s : scopes_) bytes += s.capacity() + sizeof(std::string) * 2 + 32;
    return bytes;
}

}  // namespace docintel::search
