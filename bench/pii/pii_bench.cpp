// Precision/recall per PII type on a labelled set, and throughput (MB/s) of detectPii() on
// PII-dense text (the labelled set repeated) and on ordinary prose (SciFact abstracts), with
// std::regex for one recogniser (e-mail) on the same prose for comparison.
// Usage: pii_bench <labelled.jsonl> [<corpus.jsonl with "text" fields>] [--mb N]

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "redact/pii_evaluation.h"
#include "redact/pii_redactor.h"

namespace {

using docintel::redact::detectPii;

template <typename F>
double seconds(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Texts of about `bytes` in total, cycling through `texts`, each ending in a blank line.
std::vector<std::string> fill(const std::vector<std::string>& texts, std::size_t bytes) {
    std::vector<std::string> out;
    std::size_t total = 0;
    for (std::size_t i = 0; total < bytes && !texts.empty(); ++i) {
        out.push_back(texts[i % texts.size()] + "\n\n");
        total += out.back().size();
    }
    return out;
}

std::size_t totalBytes(const std::vector<std::string>& texts) {
    std::size_t n = 0;
    for (const auto& t : texts) n += t.size();
    return n;
}

void throughput(const char* name, const std::vector<std::string>& texts) {
    std::size_t found = 0;
    const double s = seconds([&] {
        for (const auto& t : texts) found += detectPii(t).size();
    });
    const double mb = static_cast<double>(totalBytes(texts)) / 1e6;
    std::printf("%-28s %8.1f MB %8.3f s %8.1f MB/s %8zu spans\n", name, mb, s, mb / s, found);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: pii_bench <labelled.jsonl> [<corpus.jsonl>] [--mb N]\n";
        return 2;
    }
    std::string corpus_path;
    double mb = 8;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--mb" && i + 1 < argc) {
            mb = std::stod(argv[++i]);
        } else {
            corpus_path = a;
        }
    }
    auto set = docintel::redact::loadLabelledSet(argv[1]);
    if (!set) {
        std::cerr << set.error().message << "\n";
        return 1;
    }
    const auto e = docintel::redact::evaluate(*set);
    std::size_t gold = 0;
    for (const auto& t : *set) gold += t.gold.size();
    std::printf("labelled set: %zu texts, %zu gold spans\n", set->size(), gold);
    std::printf("%-12s %5s %5s %5s %5s %9s %7s %7s\n", "type", "gold", "tp", "fp", "fn",
                "precision", "recall", "f1");
    auto row = [](const std::string& name, const docintel::redact::TypeScore& s) {
        const double p = s.precision(), r = s.recall();
        std::printf("%-12s %5d %5d %5d %5d %9.3f %7.3f %7.3f\n", name.c_str(), s.gold(),
                    s.true_positives, s.false_positives, s.false_negatives, p, r,
                    p + r > 0 ? 2 * p * r / (p + r) : 0.0);
    };
    for (const auto& [type, s] : e.by_type) row(docintel::redact::toString(type), s);
    row("ALL", e.overall);
    for (const auto& m : e.mistakes) std::printf("  %s\n", m.c_str());

    const std::size_t bytes = static_cast<std::size_t>(mb * 1e6);
    std::vector<std::string> labelled;
    for (const auto& t : *set) labelled.push_back(t.text);
    std::printf("\nthroughput (1 thread)\n");
    throughput("labelled set, repeated", fill(labelled, bytes));
    if (!corpus_path.empty()) {
        std::ifstream in(corpus_path);
        std::vector<std::string> prose;
        std::string line;
        std::size_t total = 0;
        while (total < bytes && std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded()) continue;
            prose.push_back(j.value("title", "") + "\n" + j.value("text", ""));
            total += prose.back().size();
        }
        const auto texts = fill(prose, bytes);
        throughput("prose (corpus)", texts);
        // The same e-mail recogniser as a std::regex (ECMAScript), for comparison.
        const std::regex email(
            R"([A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})");
        std::size_t found = 0;
        const std::size_t sample = std::min<std::size_t>(texts.size(), 400);
        std::vector<std::string> part(texts.begin(), texts.begin() + static_cast<long>(sample));
        const double s = seconds([&] {
            for (const auto& t : part) {
                found += static_cast<std::size_t>(std::distance(
                    std::sregex_iterator(t.begin(), t.end(), email), std::sregex_iterator()));
            }
        });
        const double part_mb = static_cast<double>(totalBytes(part)) / 1e6;
        std::printf("%-28s %8.1f MB %8.3f s %8.1f MB/s %8zu spans\n", "std::regex, e-mail only",
                    part_mb, s, part_mb / s, found);
    }
    return 0;
}
