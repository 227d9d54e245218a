// The per-node search indexes against a real Postgres: the change feed keeps the Xapian
// keyword index and the in-memory vector index in step with documents as they are chunked,
// embedded, failed and deleted; a transaction that commits late is not skipped; the recorded
// position survives a restart; scopes never mix; a rebuild gives the same index.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>

#include "common/clock.h"
#include "common/id.h"
#include "search/index_sync.h"
#include "search/keyword_index.h"
#include "search/vector_index.h"
#include "storage/database.h"
#include "storage/document_repository.h"
#include "storage/index_feed_repository.h"
#include "storage/migrator.h"
#include "support/test_server.h"

namespace docintel {
namespace {

constexpr int kDim = 8;
constexpr const char* kModel = "test-model";

/// A random unit vector of `dim` floats.
std::vector<float> randomUnit(std::mt19937& rng, int dim) {
    std::normal_distribution<float> normal;
    std::vector<float> v(dim);
    float norm = 0;
    for (auto& x : v) {
        x = normal(rng);
        norm += x * x;
    }
    for (auto& x : v) x /= std::sqrt(norm);
    return v;
}

std::vector<float> unitVector(int seed) {
    std::mt19937 rng(seed);
    return randomUnit(rng, kDim);
}

class SearchIndexTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(storage::Migrator(db_).migrate());
        owner_ = common::newUuid();
        db_.transact([&](storage::Tx& tx) -> plugin::Result<bool> {
               tx.execRaw("INSERT INTO users (id, email, password_hash) VALUES ('" + owner_ +
                          "', '" + owner_ + "@example.com', 'x')");
               return true;
           })
            .value();
        dir_ = (std::filesystem::temp_directory_path() / ("docintel-index-" + common::newUuid()))
                   .string();
        openIndexes();
    }
    void TearDown() override {
        sync_.reset();
        keywords_.reset();
        std::filesystem::remove_all(dir_);
    }

    void openIndexes() {
        sync_.reset();
        keywords_.reset();
        keywords_ = search::KeywordIndex::open(dir_).value();
        vectors_ = std::make_unique<search::ModelVectors>();
        sync_ = std::make_unique<search::IndexSync>(feed_, *keywords_, vectors_.get());
        ASSERT_TRUE(sync_->start(0));
    }

    /// A document of the owner's personal scope with one chunk per text, status `status`.
    std::string addDocument(const std::vector<std::string>& texts, const std::string& status,
                            int vector_seed = 0) {
        storage::Document d;
        d.id = common::newUuid();
        d.owner_id = owner_;
        d.filename = "doc.txt";
        d.content_type = "text/plain";
        d.declared_size = 10;
        d.storage_key = "k/" + d.id;
        EXPECT_TRUE(documents_.create(d));
        std::vector<storage::Chunk> chunks;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            storage::Chunk c;
            c.chunk_index = static_cast<int>(i);
            c.text = texts[i];
            chunks.push_back(c);
        }
        EXPECT_TRUE(documents_.appendChunks(d.id, chunks));
        EXPECT_TRUE(documents_.finishChunking(d.id, 1, "chunked"));
        if (vector_seed) {
            std::vector<std::vector<float>> vectors;
            for (std::size_t i = 0; i < texts.size(); ++i) {
                vectors.push_back(unitVector(vector_seed + static_cast<int>(i)));
            }
            EXPECT_TRUE(documents_.storeEmbeddings(d.id, 0, vectors, kModel, "1", "embedded"));
        }
        if (status != "chunked" && status != "embedded") {
            EXPECT_TRUE(documents_.setStatus(d.id, status));
        }
        return d.id;
    }

    std::vector<std::string> keywordDocs(const std::string& query, const std::string& scope) {
        std::vector<std::string> ids;
        const auto hits = keywords_->search(query, {{}, scope}, 10);
        for (const auto& h : hits.value()) {
            ids.push_back(h.document_id);
        }
        return ids;
    }

    std::string personal() const { return storage::indexScope("", owner_); }

    test::TestDatabase test_db_;
    storage::Database db_{test_db_.url(), 4};
    storage::DocumentRepository documents_{db_};
    storage::IndexFeedRepository feed_{db_};
    std::string owner_;
    std::string dir_;
    std::unique_ptr<search::KeywordIndex> keywords_;
    std::unique_ptr<search::ModelVectors> vectors_;
    std::unique_ptr<search::IndexSync> sync_;
};

TEST_F(SearchIndexTest, FollowsDocumentsThroughTheirLife) {
    const auto a =
        addDocument({"The lessee shall pay rent monthly", "Termination clauses"}, "embedded", 100);
    const auto b = addDocument({"Invoice for consulting services rendered"}, "chunked");
    ASSERT_EQ(sync_->syncNow().value(), 2u);

    EXPECT_EQ(keywordDocs("rent payments", personal()), std::vector<std::string>{a});
    EXPECT_EQ(keywordDocs("consulting invoice", personal()), std::vector<std::string>{b});
    EXPECT_TRUE(keywordDocs("rent", storage::indexScope(common::newUuid(), "")).empty())
        << "another scope sees nothing";
    EXPECT_EQ(keywords_->size(), 3u);
    EXPECT_EQ(vectors_->size(), 2u) << "only the embedded document has vectors";

    // The exact vector comes back first with similarity 1.
    const auto hits = vectors_->find(kModel)->search(unitVector(101), {{}, personal()}, 5);
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ(hits[0].document_id, a);
    EXPECT_EQ(hits[0].chunk_index, 1);
    EXPECT_NEAR(hits[0].similarity, 1.0f, 1e-5);

    // Restricting to chosen documents.
    EXPECT_TRUE(keywords_->search("rent", {{b}, ""}, 10).value().empty());

    // A failed document leaves the indexes; a deleted one too.
    ASSERT_TRUE(documents_.fail(a, "unreadable_document", "x"));
    ASSERT_TRUE(documents_.remove(b));
    ASSERT_EQ(sync_->syncNow().value(), 2u);
    EXPECT_EQ(keywords_->size(), 0u);
    EXPECT_EQ(vectors_->size(), 0u);
    EXPECT_EQ(sync_->syncNow().value(), 0u) << "nothing applied twice";
}

TEST_F(SearchIndexTest, CatchingUpToAChangeMakesItSearchable) {
    // No poll thread (start(0)): only catchUpTo brings the change in.
    const auto a = addDocument({"The lessee shall pay rent monthly"}, "embedded", 100);
    const auto changed = common::epochSecondsFromIso(documents_.find(a).value()->updated_at);
    ASSERT_GT(changed, 0);
    ASSERT_TRUE(sync_->catchUpTo(changed));
    EXPECT_EQ(keywordDocs("rent", personal()), std::vector<std::string>{a});

    // A change older than the last sync (by more than the clock margin) needs no sync: a
    // document added since stays out until the next one.
    const auto b = addDocument({"Invoice for consulting services rendered"}, "embedded", 200);
    ASSERT_TRUE(sync_->catchUpTo(changed - search::IndexSync::kClockMarginSeconds - 60));
    EXPECT_TRUE(keywordDocs("consulting", personal()).empty());
    const auto b_changed = common::epochSecondsFromIso(documents_.find(b).value()->updated_at);
    ASSERT_TRUE(sync_->catchUpTo(b_changed));
    EXPECT_EQ(keywordDocs("consulting", personal()), std::vector<std::string>{b});
}

TEST_F(SearchIndexTest, ATransactionThatCommitsLateIsNotSkipped) {
    const auto late = addDocument({"photosynthesis in chloroplasts"}, "chunking");
    ASSERT_TRUE(sync_->syncNow());

    // `late` becomes searchable in a transaction that stays open while a later one commits.
    pqxx::connection conn(test_db_.url());
    pqxx::work open_tx(conn);
    open_tx.exec("UPDATE documents SET status = 'chunked' WHERE id = '" + late + "'");
    const auto early = addDocument({"mitochondria produce energy"}, "chunked");

    ASSERT_TRUE(sync_->syncNow());
    EXPECT_EQ(keywordDocs("mitochondria", personal()), std::vector<std::string>{early})
        << "a committed change is applied at once";
    EXPECT_TRUE(keywordDocs("photosynthesis", personal()).empty());
    EXPECT_LE(keywords_->watermark(),
              std::stoull(test_db_.scalar("SELECT min(xid)::text FROM index_changes WHERE "
                                          "document_id = '" +
                                          early + "'")))
        << "the recorded position stays below the open transaction";

    open_tx.commit();
    ASSERT_TRUE(sync_->syncNow());
    EXPECT_EQ(keywordDocs("photosynthesis", personal()), std::vector<std::string>{late});

    // A restart resumes from the recorded position: nothing lost, nothing doubled.
    openIndexes();
    EXPECT_EQ(keywordDocs("photosynthesis", personal()), std::vector<std::string>{late});
    EXPECT_EQ(keywords_->size(), 2u);
}

TEST_F(SearchIndexTest, RestartLoadsVectorsAndRebuildGivesTheSameIndex) {
    for (int i = 0; i < 20; ++i) {
        addDocument({"document number " + std::to_string(i) + " about kidneys",
                     "second part " + std::to_string(i)},
                    "embedded", 1000 + 10 * i);
    }
    ASSERT_TRUE(sync_->syncNow());
    const auto before = keywords_->search("kidneys", {{}, personal()}, 50).value();
    ASSERT_EQ(before.size(), 20u);

    openIndexes();  // vectors come back from Postgres, keywords from disk
    EXPECT_EQ(vectors_->size(), 40u);
    EXPECT_EQ(keywords_->search("kidneys", {{}, personal()}, 50).value().size(), 20u);

    ASSERT_TRUE(search::IndexSync::rebuild(feed_, *keywords_));
    EXPECT_EQ(keywords_->size(), 40u);
    EXPECT_GT(keywords_->watermark(), 0u);
    const auto after = keywords_->search("kidneys", {{}, personal()}, 50).value();
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i) EXPECT_NEAR(after[i].bm25, before[i].bm25, 1e-9);
}

TEST_F(SearchIndexTest, ASecondWriterIsRefusedWithAClearCode) {
    auto second = search::KeywordIndex::open(dir_);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code, "index_locked");
}

// The vector index on its own: exact top-k against brute force through replacements and
// removals (compaction included), and the memory budget of 1.6 KB per 384-d chunk.
TEST(VectorIndexTest, ExactTopKThroughChurnAndWithinMemoryBudget) {
    constexpr int dim = 384;
    search::VectorIndex index(dim);
    std::mt19937 rng(7);
    auto unit = [&] { return randomUnit(rng, dim); };
    std::map<std::string, storage::IndexedDocument> live;
    std::vector<std::string> ids;
    for (int i = 0; i < 6000; ++i) {
        storage::IndexedDocument d{common::newUuid(), i % 3 ? "w:a" : "w:b", {}};
        const int chunks = 1 + i % 3;  // 2 chunks a document on average
        for (int c = 0; c < chunks; ++c) d.chunks.push_back({c, "", "m", unit()});
        index.put(d);
        live[d.id] = d;
        ids.push_back(d.id);
    }
    for (int i = 0; i < 3000; ++i) {  // churn: remove a third, re-put a sixth
        const auto& id = ids[static_cast<std::size_t>(i) * 2];
        if (i % 2) {
            index.remove(id);
            live.erase(id);
        } else {
            live[id].chunks[0].vector = unit();
            index.put(live[id]);
        }
    }
    std::size_t rows = 0;
    for (const auto& [_, d] : live) rows += d.chunks.size();
    EXPECT_EQ(index.size(), rows);

    const auto query = unit();
    std::vector<std::pair<float, std::string>> expected;
    for (const auto& [id, d] : live) {
        if (d.scope != "w:a") continue;
        for (const auto& c : d.chunks) {
            float dot = 0;
            for (int k = 0; k < dim; ++k) dot += c.vector[k] * query[k];
            expected.push_back({dot, id + "/" + std::to_string(c.chunk_index)});
        }
    }
    std::sort(expected.rbegin(), expected.rend());
    const auto hits = index.search(query, {{}, "w:a"}, 10);
    ASSERT_EQ(hits.size(), 10u);
    for (std::size_t i = 0; i < hits.size(); ++i) {
        EXPECT_EQ(hits[i].document_id + "/" + std::to_string(hits[i].chunk_index),
                  expected[i].second);
        EXPECT_NEAR(hits[i].similarity, expected[i].first, 1e-4);
    }
    const double per_chunk = static_cast<double>(index.memoryBytes()) / rows;
    std::cout << "vector index: " << rows << " chunks, " << per_chunk << " bytes a chunk\n";
    EXPECT_LE(per_chunk, 1.6 * 1024) << "bytes per chunk: " << per_chunk;
}

}  // namespace
}  // namespace docintel
