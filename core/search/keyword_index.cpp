#include "search/keyword_index.h"

#include <filesystem>

#include <xapian.h>

#include "common/log.h"

namespace docintel::search {
namespace {

constexpr const char* kWatermarkKey = "feed_watermark";
constexpr const char* kDocumentPrefix = "XD";
constexpr const char* kScopePrefix = "XS";
constexpr const char* kChunkPrefix = "Q";

std::string chunkTerm(const std::string& document_id, int chunk_index) {
    return kChunkPrefix + document_id + ":" + std::to_string(chunk_index);
}

/// Okapi BM25 with the parameters of Lucene/Elasticsearch (k1 1.2, b 0.75).
Xapian::BM25Weight bm25() { return Xapian::BM25Weight(1.2, 0, 1, 0.75, 0.5); }

Xapian::TermGenerator termGenerator() {
    Xapian::TermGenerator g;
    g.set_stemmer(Xapian::Stem("en"));
    g.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
    return g;
}

plugin::Error indexError(const Xapian::Error& e) {
    common::log(common::LogLevel::kError, "keyword_index_error", {{"what", e.get_description()}});
    return plugin::Error{"index_unavailable", "the keyword index failed: " + e.get_msg(), 503};
}

}  // namespace

KeywordIndex::KeywordIndex(std::string dir) : dir_(std::move(dir)) {}

KeywordIndex::~KeywordIndex() = default;

plugin::Result<std::unique_ptr<KeywordIndex>> KeywordIndex::open(const std::string& dir) {
    std::unique_ptr<KeywordIndex> index(new KeywordIndex(dir));
    try {
        std::filesystem::create_directories(dir);
        index->writer_ = std::make_unique<Xapian::WritableDatabase>(dir, Xapian::DB_CREATE_OR_OPEN);
    } catch (const Xapian::DatabaseLockError&) {
        return plugin::Error{"index_locked",
                             "the keyword index in " + dir +
                                 " is held by another process (one writer per index "
                                 "directory; set DOCINTEL_INDEX_DIR per server)",
                             503};
    } catch (const Xapian::Error& e) {
        return indexError(e);
    } catch (const std::filesystem::filesystem_error& e) {
        return plugin::Error{"index_unavailable", e.what(), 503};
    }
    return index;
}

std::uint64_t KeywordIndex::watermark() const {
    std::lock_guard lock(write_mutex_);
    const auto text = writer_->get_metadata(kWatermarkKey);
    return text.empty() ? 0 : std::stoull(text);
}

plugin::Status KeywordIndex::apply(const std::vector<storage::IndexedDocument>& docs,
                                   const std::vector<std::string>& removed,
                                   std::uint64_t watermark) {
    std::lock_guard lock(write_mutex_);
    try {
        auto generator = termGenerator();
        writer_->begin_transaction();
        for (const auto& id : removed) writer_->delete_document(kDocumentPrefix + id);
        for (const auto& d : docs) {
            writer_->delete_document(kDocumentPrefix + d.id);
            for (const auto& c : d.chunks) {
                Xapian::Document doc;
                generator.set_document(doc);
                generator.index_text_without_positions(c.text);
                const auto unique = chunkTerm(d.id, c.chunk_index);
                doc.add_boolean_term(unique);
                doc.add_boolean_term(kDocumentPrefix + d.id);
                doc.add_boolean_term(kScopePrefix + d.scope);
                doc.set_data(d.id + " " + std::to_string(c.chunk_index));
                writer_->replace_document(unique, doc);
            }
        }
        if (watermark != 0) writer_->set_metadata(kWatermarkKey, std::to_string(watermark));
        writer_->commit_transaction();
    } catch (const Xapian::Error& e) {
        try {
            writer_->cancel_transaction();
        } catch (const Xapian::Error&) {
        }
        return indexError(e);
    }
    return {};
}

plugin::Status KeywordIndex::clear() {
    std::lock_guard lock(write_mutex_);
    try {
        writer_->close();
        writer_ = std::make_unique<Xapian::WritableDatabase>(dir_, Xapian::DB_CREATE_OR_OVERWRITE);
    } catch (const Xapian::Error& e) {
        return indexError(e);
    }
    return {};
}

std::unique_ptr<Xapian::Database> KeywordIndex::acquireReader() const {
    {
        std::lock_guard lock(readers_mutex_);
        if (!readers_.empty()) {
            auto reader = std::move(readers_.back());
            readers_.pop_back();
            reader->reopen();
            return reader;
        }
    }
    return std::make_unique<Xapian::Database>(dir_);
}

void KeywordIndex::releaseReader(std::unique_ptr<Xapian::Database> reader) const {
    std::lock_guard lock(readers_mutex_);
    readers_.push_back(std::move(reader));
}

plugin::Result<std::vector<KeywordHit>> KeywordIndex::search(const std::string& query,
                                                             const SearchScope& scope,
                                                             int k) const {
    std::vector<KeywordHit> hits;
    try {
        auto reader = acquireReader();
        Xapian::QueryParser parser;
        parser.set_stemmer(Xapian::Stem("en"));
        parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
        parser.set_database(*reader);
        // No operators: a question is words, not query syntax.
        const Xapian::Query words = parser.parse_query(query, 0);
        std::vector<std::string> filters;
        if (!scope.document_ids.empty()) {
            for (const auto& id : scope.document_ids) filters.push_back(kDocumentPrefix + id);
        } else {
            filters.push_back(kScopePrefix + scope.scope);
        }
        const Xapian::Query filter(Xapian::Query::OP_OR, filters.begin(), filters.end());
        Xapian::Enquire enquire(*reader);
        enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, words, filter));
        enquire.set_weighting_scheme(bm25());
        Xapian::MSet matches;
        for (int attempt = 0;; ++attempt) {
            try {
                matches = enquire.get_mset(0, static_cast<Xapian::doccount>(k));
                break;
            } catch (const Xapian::DatabaseModifiedError&) {
                if (attempt >= 2) throw;
                reader->reopen();
            }
        }
        for (auto it = matches.begin(); it != matches.end(); ++it) {
            const auto data = it.get_document().get_data();
            const auto space = data.find(' ');
            hits.push_back(KeywordHit{data.substr(0, space), std::stoi(data.substr(space + 1)),
                                      it.get_weight()});
        }
        releaseReader(std::move(reader));
    } catch (const Xapian::QueryParserError&) {
        return hits;
    } catch (const Xapian::Error& e) {
        return indexError(e);
    }
    return hits;
}

std::size_t KeywordIndex::size() const {
    std::lock_guard lock(write_mutex_);
    return writer_->get_doccount();
}

std::size_t KeywordIndex::diskBytes() const {
    std::size_t total = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
        if (e.is_regular_file()) total += e.file_size();
    }
    return total;
}

}  // namespace docintel::search
