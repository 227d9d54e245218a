// Throughput of the built-in encoder on chunks of a fixed token count: prints one line per
// batch size, "model batch chunks seconds chunks/s tokens/s", for bench/encoder/run.sh.
// With --texts FILE (one JSON string per line) it encodes those texts instead — bench/ingest's
// "encoder alone" time for the chunks it ingested.
// Usage: encoder_bench <model-dir> [--threads N] [--tokens N] [--chunks N] [--batches 1,8,32]
//                      [--texts FILE]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "embed/sentence_encoder.h"

namespace {

// A text of exactly `tokens` ids ([CLS] and [SEP] included), varied per chunk.
std::string chunkText(const docintel::embed::SentenceEncoder& encoder, int tokens, int seed) {
    static const char* kWords[] = {"the",    "contract", "payment", "report", "data",
                                   "policy", "review",   "page",    "table",  "figure",
                                   "cost",   "tenant",   "notice",  "court",  "health",
                                   "year",   "month",    "section", "by",     "and"};
    std::string text;
    unsigned state = static_cast<unsigned>(seed) * 2654435761u + 1;
    for (int i = 0; i < tokens - 2; ++i) {
        state = state * 1103515245u + 12345u;
        if (!text.empty()) text += ' ';
        text += kWords[(state >> 16) % 20];
    }
    if (static_cast<int>(encoder.tokenize(text).size()) != tokens) {
        std::fprintf(stderr, "warning: chunk is %zu tokens, not %d\n",
                     encoder.tokenize(text).size(), tokens);
    }
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: %s <model-dir> [--threads N] [--tokens N] [--chunks N] "
                     "[--batches 1,8,32] [--texts FILE]\n",
                     argv[0]);
        return 2;
    }
    std::string model_dir = argv[1];
    int threads = 2, tokens = 256, chunks = 64;
    std::string batches = "1,8,32";
    std::string texts_file;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string flag = argv[i];
        if (flag == "--threads") threads = std::atoi(argv[i + 1]);
        if (flag == "--tokens") tokens = std::atoi(argv[i + 1]);
        if (flag == "--chunks") chunks = std::atoi(argv[i + 1]);
        if (flag == "--batches") batches = argv[i + 1];
        if (flag == "--texts") texts_file = argv[i + 1];
    }
    auto encoder = docintel::embed::SentenceEncoder::load(model_dir, {.threads = threads});
    if (!encoder) {
        std::fprintf(stderr, "%s: %s\n", encoder.error().code.c_str(),
                     encoder.error().message.c_str());
        return 1;
    }
    std::vector<std::string> texts;
    if (texts_file.empty()) {
        for (int i = 0; i < chunks; ++i) texts.push_back(chunkText(**encoder, tokens, i));
    } else {
        std::ifstream in(texts_file);
        for (std::string line; std::getline(in, line);) {
            if (!line.empty()) texts.push_back(nlohmann::json::parse(line).get<std::string>());
        }
        chunks = static_cast<int>(texts.size());
        long long total = 0;
        for (const auto& t : texts) total += static_cast<long long>((*encoder)->tokenize(t).size());
        tokens = chunks ? static_cast<int>(total / chunks) : 0;  // the mean, for tokens/s
    }
    (void)(*encoder)->encode({texts[0]}, 1);  // warm-up: page in the weights

    std::stringstream list(batches);
    std::string item;
    while (std::getline(list, item, ',')) {
        int batch = std::atoi(item.c_str());
        auto start = std::chrono::steady_clock::now();
        auto out = (*encoder)->encode(texts, batch);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!out) return 1;
        std::printf("%s %d %d %.3f %.1f %.0f\n", (*encoder)->modelName().c_str(), batch, chunks, s,
                    chunks / s, static_cast<double>(chunks) * tokens / s);
    }
    return 0;
}
