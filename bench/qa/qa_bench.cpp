// Extractive answers on the SQuAD v2 subset through knowledge::ExtractiveAnswerer: each
// question is answered over its own passage, chunked as ingestion chunks a text upload.
// Answerable: the answer counts when a gold answer text appears in the cited sentences.
// Unanswerable: it counts when the answerer refuses. The answerer refuses below a probability
// (Answer::confidence, a logistic combination of RefusalEvidence); the trade-off curve over the
// threshold is printed for the tuning half (questions of even-numbered articles) and the report
// half (odd-numbered articles), then both figures at the product default.
//
// Usage: qa_bench <model_dir> <squad_dir> [--dump FILE] [--features FILE] [--fit-data]
//                 [--pool article]
//   --dump      writes each question's outcome and word evidence (JSON lines)
//   --features  writes each question's refusal features and outcome (JSON lines), the input
//               of bench/qa/fit_refusal.py
//   --fit-data  also answers the questions of the other paragraphs of the even-numbered
//               articles (original/dev-v2.0.json; about 2,500 questions, split "fit") for the
//               features file; they never count in the figures
//   --pool article  answers each question over the 6 chunks of its article (all its paragraphs)
//               nearest the question by cosine, as the product answers over the 6 sources
//               retrieval ranks from a whole document, instead of over its own passage alone:
//               the answerer then weighs sentences of other paragraphs too, as it does in use
//               (docs/decisions/0079)

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "embed/sentence_encoder.h"
#include "ingest/chunker.h"
#include "ingest/text_parser.h"
#include "knowledge/extractive_answerer.h"

using namespace docintel;

namespace {

std::string normalise(const std::string& s) {
    std::string out;
    bool space = false;
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (std::isspace(u)) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += static_cast<char>(std::tolower(u));
    }
    return out;
}

struct Outcome {
    bool answerable = false;
    std::string split;      ///< "tune" (even articles), "report" (odd) or "fit" (--fit-data)
    double confidence = 0;  ///< Answer::confidence: the probability of an answer
    bool contains_gold = false;
};

struct Rates {
    double answered_correct = 0;  ///< answerable, not refused, gold in the cited sentences
    double refused_unanswerable = 0;
    int answerable = 0;
    int unanswerable = 0;
};

Rates rates(const std::vector<Outcome>& outcomes, const std::string& split, double threshold) {
    Rates r;
    int correct = 0, refused = 0;
    for (const auto& o : outcomes) {
        if (o.split != split) continue;
        const bool refuses = o.confidence < threshold;
        if (o.answerable) {
            ++r.answerable;
            correct += !refuses && o.contains_gold;
        } else {
            ++r.unanswerable;
            refused += refuses;
        }
    }
    r.answered_correct = r.answerable ? static_cast<double>(correct) / r.answerable : 0;
    r.refused_unanswerable = r.unanswerable ? static_cast<double>(refused) / r.unanswerable : 0;
    return r;
}

struct Question {
    nlohmann::json j;
    std::string split;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: qa_bench <model_dir> <squad_dir>\n";
        return 2;
    }
    auto loaded = embed::SentenceEncoder::load(argv[1]);
    if (!loaded) {
        std::cerr << loaded.error().message << "\n";
        return 1;
    }
    const embed::SentenceEncoder& encoder = **loaded;
    const std::string dir = argv[2];
    std::ofstream dump, features;
    bool fit_data = false, article_pool = false;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--dump" && i + 1 < argc) dump.open(argv[++i]);
        if (arg == "--features" && i + 1 < argc) features.open(argv[++i]);
        if (arg == "--fit-data") fit_data = true;
        if (arg == "--pool" && i + 1 < argc) article_pool = std::string(argv[++i]) == "article";
    }

    std::map<std::string, std::string> passages;
    {
        std::ifstream in(dir + "/passages.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line);
            passages[j["_id"]] = j["text"];
        }
    }
    ingest::ChunkerOptions chunking;
    chunking.max_tokens = std::min(chunking.max_tokens, encoder.maxTokens() - 2);
    const ingest::TokenCounter count = [&](std::string_view t) {
        return encoder.countTokens(std::string(t));
    };
    std::map<std::string, std::vector<knowledge::Source>> sources;  // by context id
    for (const auto& [id, text] : passages) {
        ingest::Chunker chunker(chunking, count);
        for (const auto& page : ingest::parseTextString(text, ingest::DocumentType::kTxt).pages) {
            chunker.addPage(page);
        }
        auto& out = sources[id];
        for (auto& c : chunker.finish()) {
            knowledge::Source s;
            s.number = static_cast<int>(out.size()) + 1;
            s.passage.document_id = id;
            s.passage.chunk.chunk_index = c.index;
            s.passage.chunk.text = std::move(c.text);
            s.passage.chunk.char_start = c.char_start;
            s.passage.chunk.char_end = c.char_end;
            out.push_back(std::move(s));
        }
    }

    // --pool article: every chunk of every passage, by article, with its vector.
    struct PoolChunk {
        const knowledge::Source* source;
        std::vector<float> vector;
    };
    std::map<std::string, std::vector<PoolChunk>> article_chunks;
    if (article_pool) {
        std::vector<std::string> texts;
        std::vector<std::pair<std::string, const knowledge::Source*>> owners;
        for (const auto& [id, list] : sources) {
            for (const auto& s : list) {
                texts.push_back(s.passage.chunk.text);
                owners.emplace_back(id.substr(0, id.find('-')), &s);
            }
        }
        auto vectors = encoder.encode(texts, 32);
        if (!vectors) return 1;
        for (std::size_t i = 0; i < owners.size(); ++i) {
            article_chunks[owners[i].first].push_back({owners[i].second, (*vectors)[i]});
        }
    }
    constexpr std::size_t kPoolSources = 6;  // KnowledgeOptions::sources
    const auto pool = [&](const std::string& context, const std::vector<float>& question_vector) {
        const auto& chunks = article_chunks[context.substr(0, context.find('-'))];
        std::vector<std::pair<double, const knowledge::Source*>> ranked;
        for (const auto& c : chunks) {
            ranked.emplace_back(knowledge::cosine(question_vector, c.vector), c.source);
        }
        const std::size_t keep = std::min(kPoolSources, ranked.size());
        std::partial_sort(ranked.begin(), ranked.begin() + static_cast<long>(keep), ranked.end(),
                          [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<knowledge::Source> out;
        for (std::size_t i = 0; i < keep; ++i) {
            out.push_back(*ranked[i].second);
            out.back().number = static_cast<int>(i) + 1;
        }
        return out;
    };

    std::vector<Question> questions;
    {
        std::ifstream in(dir + "/qa_subset.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            Question q{nlohmann::json::parse(line), ""};
            const std::string context = q.j["context_id"];
            q.split = std::stoi(context.substr(0, context.find('-'))) % 2 == 0 ? "tune" : "report";
            questions.push_back(std::move(q));
        }
    }
    if (fit_data) {
        // The other paragraphs (4th on) of the even-numbered articles: never in the report half.
        std::ifstream in(dir + "/original/dev-v2.0.json");
        const auto original = nlohmann::json::parse(in);
        for (std::size_t a = 0; a < original["data"].size(); a += 2) {
            const auto& paragraphs = original["data"][a]["paragraphs"];
            for (std::size_t p = 3; p < paragraphs.size(); ++p) {
                char id[48];
                std::snprintf(id, sizeof id, "%02zu-%03zu", a, p);
                for (auto qa : paragraphs[p]["qas"]) {
                    qa["context_id"] = id;
                    questions.push_back(Question{std::move(qa), "fit"});
                }
            }
        }
    }

    // Never refuses, so every answer's confidence and cited sentences are seen.
    knowledge::ExtractiveOptions never_refuse;
    never_refuse.refuse_below = -1e9;
    const knowledge::ExtractiveAnswerer answerer(&encoder, never_refuse);
    std::vector<Outcome> outcomes;
    for (const auto& [j, split] : questions) {
        const std::string question = j["question"], context = j["context_id"];
        if (!sources.count(context)) {
            std::cerr << "no passage " << context << "\n";
            return 1;
        }
        auto qv = encoder.encodeQueries({question}, 1);
        if (!qv) return 1;
        const auto answer =
            answerer.answer(knowledge::analyseQuestion(question), (*qv)[0],
                            article_pool ? pool(context, (*qv)[0]) : sources[context]);
        Outcome o;
        o.answerable = !j["is_impossible"].get<bool>();
        o.split = split;
        o.confidence = answer.confidence;
        std::string cited;
        for (const auto& s : answer.sentences) cited += s.text + " ";
        cited = normalise(cited);
        for (const auto& a : j["answers"]) {
            o.contains_gold =
                o.contains_gold ||
                cited.find(normalise(a["text"].get<std::string>())) != std::string::npos;
        }
        outcomes.push_back(o);
        if (features.is_open()) {
            const auto f = knowledge::refusalFeatures(answer.evidence);
            features << nlohmann::json{{"id", j["id"]},
                                       {"split", split},
                                       {"answerable", o.answerable},
                                       {"gold", o.contains_gold},
                                       {"features", std::vector<double>(f.begin(), f.end())}}
                            .dump()
                     << "\n";
        }
        if (dump.is_open()) {
            const auto q_words = knowledge::contentWordSet(question);
            const auto passage_words = knowledge::contentWordSet(passages[context]);
            nlohmann::json missing = nlohmann::json::array();
            for (const auto& w : q_words) {
                if (!passage_words.count(w)) missing.push_back(w);
            }
            const auto& e = answer.evidence;
            dump << nlohmann::json{{"id", j["id"]},
                                   {"question", question},
                                   {"answerable", o.answerable},
                                   {"split", split},
                                   {"support", answer.best_support},
                                   {"confidence", answer.confidence},
                                   {"cosine", e.cosine},
                                   {"overlap", e.overlap},
                                   {"window_coverage", e.window_coverage},
                                   {"missing_words", e.missing},
                                   {"missing_names", e.missing_names},
                                   {"missing_long", e.missing_long},
                                   {"question_words", e.question_words},
                                   {"altered", e.altered},
                                   {"negation_unmatched", e.negation_unmatched},
                                   {"type_mismatch", e.type_mismatch},
                                   {"gold", o.contains_gold},
                                   {"missing", missing},
                                   {"answer", answer.text}}
                        .dump()
                 << "\n";
        }
    }

    const knowledge::ExtractiveOptions defaults;
    const double current = defaults.refuse_below;
    std::printf("model %s; %zu questions; default refuse_below %.2f (answer probability)\n",
                encoder.modelName().c_str(), outcomes.size(), current);
    // Both goals (answered ≥ 80 %, refused ≥ 50 %) as one number: the smaller margin, on the
    // tuning half, over the threshold.
    double best_threshold = current, best_objective = -1e9;
    for (int i = 1; i <= 99; ++i) {
        const auto tune = rates(outcomes, "tune", i / 100.0);
        const double objective =
            std::min(tune.answered_correct - 0.80, tune.refused_unanswerable - 0.50);
        if (objective > best_objective + 1e-12)
            best_objective = objective, best_threshold = i / 100.0;
    }
    std::printf(
        "refuse_below | tune: answered-correct refused-unanswerable | "
        "report: answered-correct refused-unanswerable\n");
    for (int i = 10; i <= 90; i += 4) {
        const double t = i / 100.0;
        const auto tune = rates(outcomes, "tune", t);
        const auto report = rates(outcomes, "report", t);
        std::printf("  %.2f       |   %5.1f%%  %5.1f%%   |   %5.1f%%  %5.1f%%\n", t,
                    100 * tune.answered_correct, 100 * tune.refused_unanswerable,
                    100 * report.answered_correct, 100 * report.refused_unanswerable);
    }
    const auto tune = rates(outcomes, "tune", best_threshold);
    const auto best_on_tune = rates(outcomes, "report", best_threshold);
    const auto at_default_tune = rates(outcomes, "tune", current);
    const auto report = rates(outcomes, "report", current);
    std::printf(
        "best on the tuning half alone (%d answerable, %d unanswerable): refuse_below %.2f "
        "(tune %.1f%% / %.1f%%; report %.1f%% / %.1f%%)\n",
        tune.answerable, tune.unanswerable, best_threshold, 100 * tune.answered_correct,
        100 * tune.refused_unanswerable, 100 * best_on_tune.answered_correct,
        100 * best_on_tune.refused_unanswerable);
    std::printf(
        "tune half at the default %.2f: answered-correct %.1f%%, refused-unanswerable %.1f%%\n",
        current, 100 * at_default_tune.answered_correct,
        100 * at_default_tune.refused_unanswerable);
    std::printf(
        "REPORT half (%d answerable, %d unanswerable) at the default %.2f: "
        "answered-correct %.1f%%, refused-unanswerable %.1f%%\n",
        report.answerable, report.unanswerable, current, 100 * report.answered_correct,
        100 * report.refused_unanswerable);
    int gold_anywhere = 0, answerable = 0;
    for (const auto& o : outcomes) {
        if (o.answerable && o.split != "fit") ++answerable, gold_anywhere += o.contains_gold;
    }
    std::printf(
        "answerable questions whose cited sentences hold the gold answer (no refusal): "
        "%.1f%% (%d/%d)\n",
        100.0 * gold_anywhere / std::max(answerable, 1), gold_anywhere, answerable);
    return 0;
}
