// Retrieval quality on BEIR SciFact through the product's own code: the abstracts chunked as
// ingestion chunks a text upload (title, blank line, abstract), embedded by the built-in
// encoder, indexed in KeywordIndex (Xapian BM25) and VectorIndex, retrieved by
// HybridRetriever and re-ranked by knowledge::rerank. Chunk rankings become document rankings
// by each document's best chunk. Prints nDCG@10 and Recall@100 on the test queries
// (qrels/test.tsv) for BM25 only, dense only, hybrid RRF, hybrid convex and hybrid + re-rank;
// convex alpha and the re-ranker's weights are chosen on the train queries (qrels/train.tsv).
//
// Usage: retrieval_bench <model_dir> <scifact_dir> <cache_dir> [--tune] [--features FILE]
//                        [--threads N]
//   --threads   encoder threads (default 1)
//   --tune      also sweep fusion and re-rank settings on train and print every row
//   --features  write each query's fused candidates with their features (JSON lines)
// Chunk and query vectors are cached in <cache_dir> under the model's version and the corpus
// hash, so reruns skip the encoder.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "embed/sentence_encoder.h"
#include "ingest/chunker.h"
#include "ingest/text_parser.h"
#include "knowledge/extractive_answerer.h"
#include "knowledge/knowledge_service.h"
#include "knowledge/reranker.h"
#include "search/hybrid_retriever.h"
#include "search/keyword_index.h"
#include "search/ranking_metrics.h"
#include "search/vector_index.h"

using namespace docintel;
namespace fs = std::filesystem;

namespace {

constexpr const char* kScope = "w:scifact";

struct Chunk {
    std::string doc;  ///< corpus _id
    int index = 0;
    std::string text;
};

/// Index keys are UUIDs: SciFact's numeric ids as the last 12 digits of one, and back.
std::string uuidOf(const std::string& id) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012llu", std::stoull(id));
    return buf;
}
std::string idOf(const std::string& uuid) { return std::to_string(std::stoull(uuid.substr(24))); }

std::uint64_t fnv1a(const std::string& bytes, std::uint64_t h = 1469598103934665603ULL) {
    for (const unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Vectors of `texts`, from `path` when it holds them, else encoded and written there.
std::vector<std::vector<float>> cachedVectors(const embed::SentenceEncoder& encoder,
                                              const std::vector<std::string>& texts,
                                              const std::string& path) {
    const auto dim = static_cast<std::size_t>(encoder.dimension());
    std::vector<std::vector<float>> out;
    if (std::ifstream in{path, std::ios::binary}) {
        std::vector<float> all(texts.size() * dim);
        in.read(reinterpret_cast<char*>(all.data()),
                static_cast<std::streamsize>(all.size() * sizeof(float)));
        if (in.gcount() == static_cast<std::streamsize>(all.size() * sizeof(float))) {
            for (std::size_t i = 0; i < texts.size(); ++i) {
                out.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(i * dim),
                                 all.begin() + static_cast<std::ptrdiff_t>((i + 1) * dim));
            }
            return out;
        }
    }
    // Blocks of 512 are appended to a .partial file as they are done, so an interrupted run
    // resumes where it stopped.
    const std::string partial = path + ".partial";
    if (std::ifstream in{partial, std::ios::binary}) {
        std::vector<float> v(dim);
        while (out.size() < texts.size() &&
               in.read(reinterpret_cast<char*>(v.data()),
                       static_cast<std::streamsize>(dim * sizeof(float)))) {
            out.push_back(v);
        }
        out.resize(out.size() / 512 * 512);
    }
    std::ofstream partial_out(partial, std::ios::binary | std::ios::trunc);
    for (const auto& v : out) {
        partial_out.write(reinterpret_cast<const char*>(v.data()),
                          static_cast<std::streamsize>(v.size() * sizeof(float)));
    }
    const auto started = std::chrono::steady_clock::now();
    for (std::size_t from = out.size(); from < texts.size(); from += 512) {
        std::vector<std::string> part(
            texts.begin() + static_cast<std::ptrdiff_t>(from),
            texts.begin() + static_cast<std::ptrdiff_t>(std::min(texts.size(), from + 512)));
        auto v = encoder.encode(part, 32);
        if (!v) throw std::runtime_error(v.error().message);
        for (auto& x : *v) {
            partial_out.write(reinterpret_cast<const char*>(x.data()),
                              static_cast<std::streamsize>(x.size() * sizeof(float)));
            out.push_back(std::move(x));
        }
        partial_out.flush();
        std::fprintf(stderr, "\rencoded %zu/%zu", out.size(), texts.size());
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(stderr, "\rencoded %zu texts in %.1f s\n", texts.size(), s);
    partial_out.close();
    std::ofstream o(path, std::ios::binary);
    for (const auto& v : out) {
        o.write(reinterpret_cast<const char*>(v.data()),
                static_cast<std::streamsize>(v.size() * sizeof(float)));
    }
    o.close();
    fs::remove(partial);
    return out;
}

using Qrels = std::map<std::string, std::set<std::string>>;

Qrels readQrels(const std::string& path) {
    Qrels q;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string qid, doc, score;
        f >> qid >> doc >> score;
        if (!qid.empty() && score != "0") q[qid].insert(uuidOf(doc));
    }
    return q;
}

struct Metrics {
    double ndcg10 = 0;
    double recall100 = 0;
};

/// nDCG@10 (binary gains) and Recall@100 of one document ranking.
Metrics score(const std::vector<std::string>& ranking, const std::set<std::string>& relevant) {
    return {search::ndcgAt(10, ranking, relevant), search::recallAt(100, ranking, relevant)};
}

struct Query {
    std::string id;
    std::string text;
    std::vector<float> vector;
    knowledge::QuestionAnalysis analysis;
};

struct Bench {
    const search::KeywordIndex& keywords;
    const search::VectorIndex& vectors;
    const search::HybridRetriever& retriever;
    const std::map<std::pair<std::string, int>, std::set<std::string>>& chunk_words;
    const std::string model;  ///< the encoder's, for the retriever's query vectors
    const search::SearchScope scope{{}, kScope};
};

enum class Method { kBm25, kDense, kHybrid, kHybridRerank };

/// The document ranking `method` gives `q`. kHybridRerank re-ranks the first
/// `rerank_candidates` fused candidates, as KnowledgeService does, and keeps the fused order
/// after them.
std::vector<std::string> rankDocuments(const Bench& b, const Query& q, Method method,
                                       const search::RetrievalOptions& retrieval,
                                       int rerank_candidates,
                                       const knowledge::RerankWeights& weights) {
    switch (method) {
        case Method::kBm25: {
            auto hits = b.keywords.search(q.text, b.scope, retrieval.candidates);
            if (!hits) throw std::runtime_error(hits.error().message);
            return search::documentsInOrder(*hits);
        }
        case Method::kDense:
            return search::documentsInOrder(
                b.vectors.search(q.vector, b.scope, retrieval.candidates));
        case Method::kHybrid:
        case Method::kHybridRerank: {
            auto fused = b.retriever.retrieve(q.text, {{b.model, q.vector}}, b.scope, retrieval);
            if (!fused) throw std::runtime_error(fused.error().message);
            if (method == Method::kHybrid) return search::documentsInOrder(*fused);
            const auto n = std::min(fused->size(), static_cast<std::size_t>(rerank_candidates));
            std::vector<search::Candidate> head(fused->begin(),
                                                fused->begin() + static_cast<std::ptrdiff_t>(n));
            std::vector<std::set<std::string>> words;
            for (const auto& c : head)
                words.push_back(b.chunk_words.at({c.document_id, c.chunk_index}));
            const auto order = knowledge::rerank(q.analysis, head, words, weights);
            std::vector<search::Candidate> out;
            for (const auto i : order) out.push_back(head[i]);
            out.insert(out.end(), fused->begin() + static_cast<std::ptrdiff_t>(n), fused->end());
            return search::documentsInOrder(out);
        }
    }
    return {};
}

Metrics evaluate(const Bench& b, const std::vector<Query>& queries, const Qrels& qrels,
                 Method method, const search::RetrievalOptions& retrieval, int rerank_candidates,
                 const knowledge::RerankWeights& weights) {
    Metrics sum;
    int n = 0;
    for (const auto& q : queries) {
        const auto rel = qrels.find(q.id);
        if (rel == qrels.end()) continue;
        const auto m =
            score(rankDocuments(b, q, method, retrieval, rerank_candidates, weights), rel->second);
        sum.ndcg10 += m.ndcg10;
        sum.recall100 += m.recall100;
        ++n;
    }
    if (n) {
        sum.ndcg10 /= n;
        sum.recall100 /= n;
    }
    return sum;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: retrieval_bench <model_dir> <scifact_dir> <cache_dir> [--tune] "
                     "[--features FILE]\n";
        return 2;
    }
    const std::string model_dir = argv[1], data = argv[2], cache = argv[3];
    bool tune = false;
    int threads = 1;
    std::string features_path;
    for (int i = 4; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--tune") tune = true;
        if (a == "--features" && i + 1 < argc) features_path = argv[++i];
        if (a == "--threads" && i + 1 < argc) threads = std::stoi(argv[++i]);
    }
    auto loaded = embed::SentenceEncoder::load(model_dir, embed::SentenceEncoder::Options{threads});
    if (!loaded) {
        std::cerr << loaded.error().message << "\n";
        return 1;
    }
    const embed::SentenceEncoder& encoder = **loaded;

    // The corpus, chunked as ingestion chunks a text upload of "title\n\nabstract".
    const std::string corpus_bytes = readFile(data + "/corpus.jsonl");
    std::vector<Chunk> chunks;
    std::map<std::string, std::vector<std::size_t>> doc_chunks;
    {
        std::istringstream in(corpus_bytes);
        std::string line;
        ingest::ChunkerOptions options;
        options.max_tokens = std::min(options.max_tokens, encoder.maxTokens() - 2);
        const ingest::TokenCounter count = [&](std::string_view t) {
            return encoder.countTokens(std::string(t));
        };
        while (std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line);
            const std::string id = uuidOf(j["_id"].get<std::string>());
            const auto parsed = ingest::parseTextString(
                j["title"].get<std::string>() + "\n\n" + j["text"].get<std::string>(),
                ingest::DocumentType::kTxt);
            ingest::Chunker chunker(options, count);
            for (const auto& page : parsed.pages) chunker.addPage(page);
            for (auto& c : chunker.finish()) {
                doc_chunks[id].push_back(chunks.size());
                chunks.push_back(Chunk{id, c.index, std::move(c.text)});
            }
        }
    }
    std::uint64_t hash = fnv1a(corpus_bytes);
    hash = fnv1a(encoder.modelVersion(), hash);
    for (const auto& c : chunks) hash = fnv1a(c.text, hash);
    char key[64];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(hash));
    const std::string prefix = cache + "/scifact-" + encoder.modelName() + "-" + key;
    fs::create_directories(cache);
    std::fprintf(stderr, "%zu documents, %zu chunks (cache %s)\n", doc_chunks.size(), chunks.size(),
                 prefix.c_str());

    std::vector<std::string> texts;
    for (const auto& c : chunks) texts.push_back(c.text);
    const auto chunk_vectors = cachedVectors(encoder, texts, prefix + ".chunks.f32");

    // Queries (train and test) and their vectors.
    std::vector<Query> queries;
    {
        std::ifstream in(data + "/queries.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line);
            queries.push_back(Query{j["_id"], j["text"], {}, {}});
        }
        std::vector<std::string> qtexts;
        for (const auto& q : queries) qtexts.push_back(q.text);
        const auto qv = cachedVectors(encoder, qtexts, prefix + ".queries.f32");
        for (std::size_t i = 0; i < queries.size(); ++i) {
            queries[i].vector = qv[i];
            queries[i].analysis = knowledge::analyseQuestion(queries[i].text);
        }
    }
    const Qrels test = readQrels(data + "/qrels/test.tsv");
    const Qrels train = readQrels(data + "/qrels/train.tsv");

    // The indexes.
    auto keywords = search::KeywordIndex::open(prefix + ".xapian");
    if (!keywords) {
        std::cerr << keywords.error().message << "\n";
        return 1;
    }
    search::VectorIndex vectors(encoder.dimension());
    search::ModelVectors model_vectors;  // the same vectors, as the server holds them
    std::vector<storage::IndexedDocument> docs;
    for (const auto& [id, rows] : doc_chunks) {
        storage::IndexedDocument d{id, kScope, {}};
        for (const auto r : rows) {
            d.chunks.push_back(storage::IndexedChunk{chunks[r].index, chunks[r].text,
                                                     encoder.modelName(), chunk_vectors[r]});
        }
        vectors.put(d);
        model_vectors.put(d);
        docs.push_back(std::move(d));
    }
    if ((*keywords)->size() != chunks.size()) {
        if (auto ok = (*keywords)->clear(); !ok) return 1;
        if (auto ok = (*keywords)->apply(docs, {}, 1); !ok) {
            std::cerr << ok.error().message << "\n";
            return 1;
        }
    }
    const auto rss_kib = [] {
        std::ifstream in("/proc/self/status");
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
        }
        return 0L;
    };
    {
        // The vector index alone: RSS before and after loading a second copy.
        const long before = rss_kib();
        search::VectorIndex copy(encoder.dimension());
        for (const auto& d : docs) copy.put(d);
        const long after = rss_kib();
        const double per_k = 1000.0 / static_cast<double>(chunks.size());
        std::printf(
            "memory per 1,000 chunks: vectors %.2f MiB held (VectorIndex::memoryBytes), "
            "%.2f MiB RSS growth; Xapian on disk %.2f MiB\n",
            vectors.memoryBytes() * per_k / 1048576.0, (after - before) * per_k / 1024.0,
            (*keywords)->diskBytes() * per_k / 1048576.0);
    }
    std::map<std::pair<std::string, int>, std::set<std::string>> chunk_words;
    for (const auto& c : chunks) chunk_words[{c.doc, c.index}] = knowledge::refusalWords(c.text);
    const search::HybridRetriever retriever(**keywords, &model_vectors);
    const Bench bench{**keywords, vectors, retriever, chunk_words, encoder.modelName()};

    const knowledge::KnowledgeOptions product;  // the defaults KnowledgeService runs with
    auto row = [&](const char* name, Method method, const search::RetrievalOptions& r,
                   int rerank_candidates, const knowledge::RerankWeights& w) {
        const auto te = evaluate(bench, queries, test, method, r, rerank_candidates, w);
        const auto tr = evaluate(bench, queries, train, method, r, rerank_candidates, w);
        std::printf("%-44s test nDCG@10 %.4f  R@100 %.4f | train nDCG@10 %.4f  R@100 %.4f\n", name,
                    te.ndcg10, te.recall100, tr.ndcg10, tr.recall100);
        return tr;
    };

    // Recall@100 needs 100 documents: take 300 chunks from each index.
    search::RetrievalOptions deep = product.retrieval;
    deep.candidates = std::max(deep.candidates, 300);
    std::printf("model %s (%s); %zu chunks; test queries %zu, train queries %zu\n",
                encoder.modelName().c_str(), encoder.modelVersion().c_str(), chunks.size(),
                test.size(), train.size());
    std::printf(
        "product defaults: candidates %d, fusion %s, alpha %.2f, rrf_k %.0f, "
        "rerank_candidates %d, weights sim %.2f bm25 %.2f cov %.2f\n",
        product.retrieval.candidates,
        product.retrieval.fusion == search::Fusion::kRrf ? "rrf" : "convex",
        product.retrieval.alpha, product.retrieval.rrf_k, product.rerank_candidates,
        product.rerank.similarity, product.rerank.bm25, product.rerank.coverage);
    row("bm25 only", Method::kBm25, deep, 0, product.rerank);
    row("dense only", Method::kDense, deep, 0, product.rerank);
    search::RetrievalOptions rrf = deep;
    rrf.fusion = search::Fusion::kRrf;
    row("hybrid rrf", Method::kHybrid, rrf, 0, product.rerank);
    search::RetrievalOptions convex = deep;
    convex.fusion = search::Fusion::kConvex;
    if (tune) {
        double best_alpha = convex.alpha, best = -1;
        for (double a = 0.1; a < 0.95; a += 0.05) {
            convex.alpha = a;
            char name[64];
            std::snprintf(name, sizeof name, "  convex alpha %.2f", a);
            const auto tr = row(name, Method::kHybrid, convex, 0, product.rerank);
            if (tr.ndcg10 > best) best = tr.ndcg10, best_alpha = a;
        }
        convex.alpha = best_alpha;
        std::printf("best convex alpha on train: %.2f\n", best_alpha);
        for (double k : {5.0, 10.0, 20.0, 40.0, 60.0, 100.0}) {
            rrf.rrf_k = k;
            char name[64];
            std::snprintf(name, sizeof name, "  rrf k %.0f", k);
            row(name, Method::kHybrid, rrf, 0, product.rerank);
        }
        rrf.rrf_k = product.retrieval.rrf_k;
    }
    char name[96];
    std::snprintf(name, sizeof name, "hybrid convex (alpha %.2f)", convex.alpha);
    row(name, Method::kHybrid, convex, 0, product.rerank);
    search::RetrievalOptions as_product = product.retrieval;
    row("hybrid (product fusion, product depth)", Method::kHybrid, as_product, 0, product.rerank);
    row("hybrid + rerank (product defaults)", Method::kHybridRerank, as_product,
        product.rerank_candidates, product.rerank);
    {
        // In-process time of the product path over the whole corpus (query vector given):
        // retrieve + re-rank, per test query.
        std::vector<double> ms;
        for (const auto& q : queries) {
            if (!test.count(q.id)) continue;
            const auto t0 = std::chrono::steady_clock::now();
            rankDocuments(bench, q, Method::kHybridRerank, as_product, product.rerank_candidates,
                          product.rerank);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("retrieve + rerank in process, whole corpus: p50 %.2f ms, p95 %.2f ms\n",
                    ms[ms.size() / 2], ms[ms.size() * 95 / 100]);
    }
    if (tune) {
        for (const int depth : {100, 200, 300}) {
            search::RetrievalOptions r = product.retrieval;
            r.candidates = depth;
            char label[64];
            std::snprintf(label, sizeof label, "  hybrid + rerank, candidates %d", depth);
            row(label, Method::kHybridRerank, r, product.rerank_candidates, product.rerank);
        }
    }
    row("hybrid + rerank (depth 300)", Method::kHybridRerank, deep, product.rerank_candidates,
        product.rerank);

    if (!features_path.empty()) {
        // Every fused candidate of every query (product depth ×4) with its features.
        std::ofstream out(features_path);
        search::RetrievalOptions r = product.retrieval;
        r.candidates = std::max(r.candidates, 100);
        for (const auto& q : queries) {
            const bool in_test = test.count(q.id), in_train = train.count(q.id);
            if (!in_test && !in_train) continue;
            const auto& rel = in_test ? test.at(q.id) : train.at(q.id);
            auto fused = retriever.retrieve(q.text, {{bench.model, q.vector}}, bench.scope, r);
            if (!fused) return 1;
            int rank = 0;
            for (const auto& c : *fused) {
                nlohmann::json j{
                    {"q", q.id},
                    {"split", in_test ? "test" : "train"},
                    {"doc", idOf(c.document_id)},
                    {"chunk", c.chunk_index},
                    {"rank", rank++},
                    {"sim", c.similarity.value_or(0)},
                    {"bm25", c.bm25.value_or(0)},
                    {"has_bm25", c.bm25.has_value()},
                    {"cov", knowledge::coverage(q.analysis.word_set,
                                                chunk_words.at({c.document_id, c.chunk_index}))},
                    {"rel", rel.count(c.document_id) > 0}};
                out << j.dump() << "\n";
            }
        }
        std::fprintf(stderr, "features written to %s\n", features_path.c_str());
    }
    return 0;
}
