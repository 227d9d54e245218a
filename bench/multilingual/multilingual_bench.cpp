// Retrieval on the multilingual parallel set (tests/data/eval/multilingual) and encoder
// throughput, for each model folder given: for every question of the chosen split, the
// question (encodeQueries) against
// - the chunks of the 20 documents, cut as ingestion cuts them (ingest::Chunker with the
//   model's own token counts); documents ranked by their best chunk: recall@1 and @3 of the
//   gold document (the one in the question's language), and @1 of any language's version of it;
// - the sentences of the 20 documents (ICU boundaries): recall@1 and @3 of a sentence of the
//   gold document holding the gold answer;
// per language and overall, over the answerable questions only (the unanswerable ones have no
// gold answer). Then encoding throughput on those sentences (batch 32) with 1 and 2 threads, the
// median of --runs rounds; each model's load time and the resident memory its load added.
// Prints tab-separated rows for bench/multilingual/run.sh.
// Usage: multilingual_bench <set-dir> <split: tune|report|all> [--runs N] <model-dir>...

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "embed/sentence_encoder.h"
#include "ingest/chunker.h"

namespace {

namespace fs = std::filesystem;
using docintel::embed::SentenceEncoder;

const std::vector<std::string> kLanguages = {"en", "es", "hi", "bn", "ar"};

struct Passage {
    std::string document;  ///< "docs/<lang>/<name>.txt"
    std::string text;
};

struct Question {
    std::string lang, document, question, answer;
};

std::string readFile(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The document's non-empty lines, each a paragraph (the set's text files have no other markup).
std::vector<std::string> paragraphs(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (auto t = trim(line); !t.empty()) out.push_back(t);
    }
    return out;
}

std::vector<Passage> chunks(const SentenceEncoder& encoder,
                            const std::map<std::string, std::string>& docs) {
    std::vector<Passage> out;
    docintel::ingest::ChunkerOptions options;
    options.max_tokens = std::min(options.max_tokens, encoder.maxTokens() - 2);
    for (const auto& [name, text] : docs) {
        docintel::ingest::Chunker chunker(
            options, [&](std::string_view t) { return encoder.countTokens(std::string(t)); });
        docintel::ingest::Page page;
        for (const auto& p : paragraphs(text)) {
            docintel::ingest::Block block;
            block.text = p;
            page.blocks.push_back(block);
        }
        chunker.addPage(page);
        for (auto& c : chunker.finish()) out.push_back({name, c.text});
    }
    return out;
}

std::vector<Passage> sentences(const std::map<std::string, std::string>& docs) {
    std::vector<Passage> out;
    for (const auto& [name, text] : docs) {
        for (const auto& p : paragraphs(text)) {
            for (auto [b, e] : docintel::ingest::boundaries(p, true)) {
                if (auto s = trim(p.substr(b, e - b)); !s.empty()) out.push_back({name, s});
            }
        }
    }
    return out;
}

// Indices of `passages` by descending dot product with `q` (vectors are normalised).
std::vector<size_t> rank(const std::vector<float>& q, const std::vector<std::vector<float>>& p) {
    std::vector<std::pair<float, size_t>> scored;
    for (size_t i = 0; i < p.size(); ++i) {
        float dot = 0;
        for (size_t k = 0; k < q.size(); ++k) dot += q[k] * p[i][k];
        scored.push_back({-dot, i});
    }
    std::sort(scored.begin(), scored.end());
    std::vector<size_t> order;
    for (auto [_, i] : scored) order.push_back(i);
    return order;
}

// "docs/hi/memo.txt" -> "memo.txt": the same document in every language.
std::string stem(const std::string& document) { return fs::path(document).filename().string(); }

// The process's resident memory in MiB (VmRSS of /proc/self/status).
double residentMiB() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with("VmRSS:")) return std::atof(line.c_str() + 6) / 1024.0;
    }
    return 0;
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s <set-dir> <tune|report|all> [--runs N] <model-dir>...\n",
                     argv[0]);
        return 2;
    }
    const fs::path set = argv[1];
    const std::string split = argv[2];
    int runs = 3;
    std::vector<std::string> models;
    for (int i = 3; i < argc; ++i) {
        if (std::string(argv[i]) == "--runs" && i + 1 < argc) {
            runs = std::atoi(argv[++i]);
        } else {
            models.push_back(argv[i]);
        }
    }
    std::map<std::string, std::string> docs;
    for (const auto& lang : kLanguages) {
        for (const auto& entry : fs::directory_iterator(set / "docs" / lang)) {
            docs["docs/" + lang + "/" + entry.path().filename().string()] = readFile(entry.path());
        }
    }
    std::vector<Question> questions;
    std::ifstream qin(set / "questions.jsonl");
    for (std::string line; std::getline(qin, line);) {
        auto q = nlohmann::json::parse(line);
        if (split != "all" && q["split"] != split) continue;
        if (!q.value("answerable", true)) continue;  // no gold answer to retrieve (ml-041 ..)
        questions.push_back({q["lang"], q["document"], q["question"], q["answer"]});
    }

    std::printf("model\tlang\tquestions\tdoc@1\tdoc@3\tdoc_any_lang@1\tsentence@1\tsentence@3\n");
    std::vector<std::string> throughput;
    std::vector<std::string> loads;
    for (const auto& dir : models) {
        const double rss_before = residentMiB();
        const auto load_start = std::chrono::steady_clock::now();
        auto loaded = SentenceEncoder::load(dir, {.threads = 2});
        char load_row[256];
        std::snprintf(load_row, sizeof load_row, "%s\t%.2f\t%.0f", fs::path(dir).filename().c_str(),
                      seconds(load_start), residentMiB() - rss_before);
        loads.push_back(load_row);
        if (!loaded) {
            std::fprintf(stderr, "%s: %s\n", dir.c_str(), loaded.error().message.c_str());
            return 1;
        }
        const SentenceEncoder& encoder = **loaded;
        const auto cs = chunks(encoder, docs);
        const auto ss = sentences(docs);
        auto texts = [](const std::vector<Passage>& ps) {
            std::vector<std::string> t;
            for (const auto& p : ps) t.push_back(p.text);
            return t;
        };
        std::vector<std::string> qs;
        for (const auto& q : questions) qs.push_back(q.question);
        auto cv = encoder.encode(texts(cs));
        auto sv = encoder.encode(texts(ss));
        auto qv = encoder.encodeQueries(qs);
        if (!cv || !sv || !qv) return 1;

        struct Tally {
            int n = 0, doc1 = 0, doc3 = 0, any1 = 0, sent1 = 0, sent3 = 0;
        };
        std::map<std::string, Tally> tally;
        for (size_t i = 0; i < questions.size(); ++i) {
            const Question& q = questions[i];
            std::vector<std::string> ranked_docs;
            for (size_t c : rank((*qv)[i], *cv)) {
                if (std::find(ranked_docs.begin(), ranked_docs.end(), cs[c].document) ==
                    ranked_docs.end()) {
                    ranked_docs.push_back(cs[c].document);
                }
            }
            const auto doc_rank =
                std::find(ranked_docs.begin(), ranked_docs.end(), q.document) - ranked_docs.begin();
            const auto sentence_order = rank((*qv)[i], *sv);
            int sentence_rank = 1 << 20;
            for (size_t r = 0; r < sentence_order.size(); ++r) {
                const Passage& s = ss[sentence_order[r]];
                if (s.document == q.document && s.text.find(q.answer) != std::string::npos) {
                    sentence_rank = static_cast<int>(r);
                    break;
                }
            }
            for (const std::string& key : {q.lang, std::string("all")}) {
                Tally& t = tally[key];
                ++t.n;
                t.doc1 += doc_rank < 1;
                t.doc3 += doc_rank < 3;
                t.any1 += stem(ranked_docs.front()) == stem(q.document);
                t.sent1 += sentence_rank < 1;
                t.sent3 += sentence_rank < 3;
            }
        }
        auto ratio = [](int k, int n) { return n ? static_cast<double>(k) / n : 0.0; };
        for (const auto& lang : [&] {
                 auto l = kLanguages;
                 l.push_back("all");
                 return l;
             }()) {
            const Tally& t = tally[lang];
            std::printf("%s\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", encoder.modelName().c_str(),
                        lang.c_str(), t.n, ratio(t.doc1, t.n), ratio(t.doc3, t.n),
                        ratio(t.any1, t.n), ratio(t.sent1, t.n), ratio(t.sent3, t.n));
        }

        // Throughput on the sentences, 4 copies of them (about 700 texts).
        std::vector<std::string> load;
        for (int r = 0; r < 4; ++r) {
            for (const auto& s : ss) load.push_back(s.text);
        }
        long tokens = 0;
        for (const auto& t : load) tokens += static_cast<long>(encoder.tokenize(t).size());
        for (int threads : {1, 2}) {
            std::vector<double> rates;
            for (int r = 0; r < runs; ++r) {
                const auto start = std::chrono::steady_clock::now();
                if (!encoder.encode(load, 32, threads)) return 1;
                rates.push_back(static_cast<double>(load.size()) / seconds(start));
            }
            std::sort(rates.begin(), rates.end());
            const double median = rates[rates.size() / 2];
            char row[256];
            std::snprintf(row, sizeof row, "%s\t%d\t%zu\t%.1f\t%.1f\t%.0f",
                          encoder.modelName().c_str(), threads, load.size(),
                          static_cast<double>(tokens) / static_cast<double>(load.size()), median,
                          median * static_cast<double>(tokens) / static_cast<double>(load.size()));
            throughput.push_back(row);
        }
    }
    std::printf("\nmodel\tthreads\ttexts\ttokens/text\ttexts/s\ttokens/s\t(medians of %d runs)\n",
                runs);
    for (const auto& row : throughput) std::printf("%s\n", row.c_str());
    std::printf("\nmodel\tload_s\tresident_MiB_after_load\n");
    for (const auto& row : loads) std::printf("%s\n", row.c_str());
    return 0;
}
