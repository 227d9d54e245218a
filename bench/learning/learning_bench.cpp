// Practice questions generated over the SQuAD v2 subset's articles, judged by core's
// SupportChecker with the real encoder (bench/learning/README.md): the share of questions whose
// marked answer the cited sentence supports, the share whose distractors no other sentence of
// the article makes correct, and generation time per 10 questions; tune half (even-numbered
// articles) and report half (odd-numbered).
//
// Usage: learning_bench <model_dir> <squad_dir> [--count N] [--dump FILE]

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "embed/sentence_encoder.h"
#include "knowledge/evaluation_service.h"
#include "knowledge/extractive_answerer.h"
#include "learning/generation.h"

using namespace docintel;
using nlohmann::json;

namespace {

struct Article {
    std::string title;
    std::vector<learning::Passage> passages;
    std::vector<std::string> sentences;  ///< ICU sentences of every paragraph
    std::map<std::string, std::pair<std::size_t, std::vector<knowledge::SentenceSpan>>> by_chunk;
};

struct Tally {
    int questions = 0;
    int answer_supported = 0;
    int distractors_ok = 0;
    int distractors_ok_strict = 0;
    int articles = 0;
    double seconds = 0;
    std::map<std::string, std::pair<int, int>> by_hint;  ///< hint → {questions, distractors ok}

    void print(const std::string& name) const {
        const auto pct = [&](int n) { return questions ? 100.0 * n / questions : 0.0; };
        std::cout << std::fixed << std::setprecision(1) << "  " << name << ": " << questions
                  << " questions over " << articles << " articles; answer supported "
                  << pct(answer_supported) << " %; distractors not also correct "
                  << pct(distractors_ok)
                  << " % (strict, cited sentence included: " << pct(distractors_ok_strict)
                  << " %); " << std::setprecision(0)
                  << (questions ? 1000.0 * seconds / questions * 10 : 0)
                  << " ms per 10 questions\n";
        std::cout << "    by kind:";
        for (const auto& [hint, n] : by_hint) {
            std::cout << " " << hint << " " << n.first << " (" << n.second << " ok)";
        }
        std::cout << "\n";
    }
};

std::string stemOf(const std::string& question) {
    const auto open = question.find('"');
    const auto close = question.rfind('"');
    if (open == std::string::npos || close <= open) return {};
    return question.substr(open + 1, close - open - 1);
}

std::string hintOf(const std::string& question) {
    const auto a = question.find(' '), b = question.find(' ', a + 1);
    return question.substr(a + 1, b - a - 1);
}

std::string fill(std::string stem, const std::string& with) {
    const auto at = stem.find("_____");
    return at == std::string::npos ? stem : stem.replace(at, 5, with);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: learning_bench <model_dir> <squad_dir> [--count N] [--dump FILE]\n";
        return 2;
    }
    int count = 20;
    std::ofstream dump;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--count" && i + 1 < argc) count = std::stoi(argv[++i]);
        if (arg == "--dump" && i + 1 < argc) dump.open(argv[++i]);
    }
    auto loaded = embed::SentenceEncoder::load(argv[1]);
    if (!loaded) {
        std::cerr << loaded.error().message << "\n";
        return 1;
    }
    const knowledge::SupportChecker checker(loaded->get());
    const auto judge = [&](const std::vector<knowledge::SupportChecker::Claim>& claims) {
        std::vector<std::vector<knowledge::SentenceSupport>> none;
        auto judged = checker.judge(claims);
        return judged ? std::move(judged).value() : none;
    };

    std::ifstream in(std::string(argv[2]) + "/original/dev-v2.0.json");
    const json squad = json::parse(in);
    std::vector<Article> articles;
    for (std::size_t a = 0; a < squad["data"].size(); ++a) {
        const json& art = squad["data"][a];
        Article article;
        article.title = art["title"];
        for (std::size_t p = 0; p < art["paragraphs"].size(); ++p) {
            char chunk_id[16];
            std::snprintf(chunk_id, sizeof chunk_id, "%02zu-%03zu", a, p);
            const std::string text = art["paragraphs"][p]["context"];
            article.passages.push_back({"article-" + std::to_string(a), article.title,
                                        static_cast<int>(p + 1), chunk_id, text});
            storage::Chunk chunk;
            chunk.text = text;
            auto spans = knowledge::quotableSentences(chunk);
            for (const auto& s : spans) article.sentences.push_back(s.text);
            article.by_chunk[chunk_id] = {p, std::move(spans)};
        }
        articles.push_back(std::move(article));
    }

    learning::GenerationTools checked;
    checked.support = [&](const std::vector<learning::SupportClaim>& claims) {
        std::vector<knowledge::SupportChecker::Claim> host;
        for (const auto& c : claims) host.push_back({c.sentence, c.texts});
        const auto judged = judge(host);
        std::vector<bool> out(claims.size(), false);
        for (std::size_t i = 0; i < judged.size(); ++i) {
            for (const auto& s : judged[i]) out[i] = out[i] || s.supported;
        }
        return out;
    };

    std::cout << "Practice questions, " << count << " per article, SQuAD v2 subset ("
              << articles.size() << " articles)\n";
    for (const bool with_check : {true, false}) {
        std::map<std::string, Tally> tallies;
        for (std::size_t a = 0; a < articles.size(); ++a) {
            const Article& article = articles[a];
            Tally& tally = tallies[a % 2 == 0 ? "tune" : "report"];
            learning::GenerationRequest request;
            request.type = learning::ArtifactType::kPracticeQuestions;
            request.scope_label = article.title;
            request.max_items = count;
            const auto start = std::chrono::steady_clock::now();
            const auto made = learning::generateArtifact(
                article.passages, request, with_check ? checked : learning::GenerationTools{});
            tally.seconds +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            ++tally.articles;
            if (!made) {
                std::cerr << article.title << ": " << made.error().message << "\n";
                continue;
            }
            // Judge: each question's claims, all at once.
            std::vector<knowledge::SupportChecker::Claim> claims;
            struct Row {
                std::size_t answer = 0, first_distractor = 0;
                std::string hint;
            };
            std::vector<Row> rows;
            for (const auto& q : made->items) {
                const json& c = q["citations"][0];
                std::string cited;
                const auto it = article.by_chunk.find(c["chunk_id"].get<std::string>());
                if (it != article.by_chunk.end()) {
                    const std::string& text = article.passages[it->second.first].text;
                    const int s = c["char_start"], e = c["char_end"];
                    if (s >= 0 && e <= static_cast<int>(text.size()) && s < e) {
                        cited = text.substr(static_cast<std::size_t>(s),
                                            static_cast<std::size_t>(e - s));
                    }
                }
                const std::string stem = stemOf(q["question"]);
                Row row;
                row.hint = hintOf(q["question"]);
                row.answer = claims.size();
                std::vector<std::string> distractor_texts;
                for (const auto& o : q["options"]) {
                    if (o["correct"]) {
                        claims.push_back({fill(stem, o["text"]), {cited}});
                    } else {
                        distractor_texts.push_back(o["text"]);
                    }
                }
                row.first_distractor = claims.size();
                for (const auto& d : distractor_texts) {
                    std::vector<std::string> texts;
                    for (const auto& s : article.sentences) {
                        if (s != cited) texts.push_back(s);
                    }
                    texts.push_back(cited);  // last: included only in the strict figure
                    claims.push_back({fill(stem, d), texts});
                }
                rows.push_back(row);
            }
            const auto judged = judge(claims);
            for (std::size_t r = 0; r < rows.size(); ++r) {
                const Row& row = rows[r];
                const bool answer_ok = judged[row.answer][0].supported;
                bool lenient = true, strict = true;
                for (std::size_t d = row.first_distractor; d < row.first_distractor + 3; ++d) {
                    const auto& each = judged[d];
                    for (std::size_t t = 0; t + 1 < each.size(); ++t) {
                        lenient = lenient && !each[t].supported;
                    }
                    strict = strict && lenient && !each.back().supported;
                }
                ++tally.questions;
                tally.answer_supported += answer_ok;
                tally.distractors_ok += lenient;
                tally.distractors_ok_strict += strict;
                auto& kind = tally.by_hint[row.hint];
                ++kind.first;
                kind.second += lenient;
                if (dump.is_open()) {
                    json line = made->items[r];
                    line["split"] = a % 2 == 0 ? "tune" : "report";
                    line["checked"] = with_check;
                    line["answer_supported"] = answer_ok;
                    line["distractors_ok"] = lenient;
                    line["distractors_ok_strict"] = strict;
                    dump << line.dump() << "\n";
                }
            }
        }
        std::cout << (with_check ? "checked (support check injected, as shipped):\n"
                                 : "raw (no support check, the rules alone):\n");
        tallies["tune"].print("tune  ");
        tallies["report"].print("report");
    }
    return 0;
}
