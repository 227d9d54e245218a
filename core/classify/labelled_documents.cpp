#include "classify/labelled_documents.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ingest/chunker.h"
#include "ingest/parser.h"
#include "ingest/type_sniffer.h"

namespace docintel::classify {

namespace {

namespace fs = std::filesystem;

/// The first chunks of the file as ingestion makes them (at most `max_chunks`).
plugin::Result<std::vector<std::string>> firstChunks(const std::string& path,
                                                     const embed::SentenceEncoder* encoder,
                                                     std::size_t max_chunks) {
    const auto type = ingest::sniff(path, "", fs::path(path).filename().string());
    ingest::ChunkerOptions options;
    ingest::TokenCounter count = ingest::approximateTokens;
    if (encoder) {
        options.max_tokens = std::min(options.max_tokens, encoder->maxTokens() - 2);
        count = [encoder](std::string_view t) { return encoder->countTokens(std::string(t)); };
    }
    ingest::Chunker chunker(options, count);
    const auto parsed = ingest::parseFilePages(path, type, [&](ingest::Page&& page) {
        chunker.addPage(page);
        return plugin::Status{};
    });
    if (!parsed) return parsed.error();
    std::vector<std::string> out;
    for (auto& c : chunker.finish()) {
        if (out.size() == max_chunks) break;
        out.push_back(std::move(c.text));
    }
    return out;
}

}  // namespace

plugin::Result<std::vector<LabelledDocument>> loadLabelledDocuments(
    const std::string& own_dir, const std::string& corpus_labels, const std::string& corpus_dir,
    const embed::SentenceEncoder* encoder, std::vector<std::string>* skipped) {
    const auto invalid = [](const std::string& why) {
        return plugin::Error{"labelled_set_invalid", why, 500};
    };
    std::vector<std::pair<std::string, DocClass>> files;
    if (!own_dir.empty()) {
        for (const auto& dir : fs::directory_iterator(own_dir)) {
            if (!dir.is_directory()) continue;
            const auto label = parseDocClass(dir.path().filename().string());
            if (!label) return invalid("unknown class folder " + dir.path().string());
            for (const auto& f : fs::directory_iterator(dir.path())) {
                if (f.is_regular_file()) files.emplace_back(f.path().string(), *label);
            }
        }
    }
    if (!corpus_labels.empty()) {
        std::ifstream in(corpus_labels);
        const auto j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || !j.contains("files")) return invalid("bad " + corpus_labels);
        for (const auto& f : j["files"]) {
            const auto label = parseDocClass(f.value("label", ""));
            if (!label) return invalid("unknown class " + f.value("label", ""));
            files.emplace_back(corpus_dir + "/" + f.value("path", ""), *label);
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<LabelledDocument> out;
    const std::size_t max_chunks = static_cast<std::size_t>(ClassifierOptions{}.chunks);
    for (const auto& [path, label] : files) {
        auto chunks = firstChunks(path, encoder, max_chunks);
        if (!chunks || chunks->empty()) {
            if (skipped) skipped->push_back(path);
            continue;
        }
        LabelledDocument d;
        d.path = path;
        d.label = label;
        d.input.texts = std::move(chunks).value();
        d.input.detected_type =
            ingest::toString(ingest::sniff(path, "", fs::path(path).filename().string()));
        if (encoder) {
            auto vectors = encoder->encode(d.input.texts);
            if (!vectors) return vectors.error();
            d.input.vectors = std::move(vectors).value();
        }
        out.push_back(std::move(d));
    }
    if (out.empty()) return invalid("no labelled documents could be read");
    return out;
}

ClassifierEvaluation evaluateClassifier(const DocumentClassifier& classifier,
                                        const std::vector<LabelledDocument>& set) {
    ClassifierEvaluation e;
    constexpr int kBins = 5;
    std::array<double, kBins> confidence{};
    std::array<double, kBins> right{};
    std::array<int, kBins> count{};
    for (const auto& d : set) {
        const auto c = classifier.classify(d.input);
        const bool ok = c.type == d.label;
        ++e.total;
        e.correct += ok ? 1 : 0;
        const int bin = std::min(kBins - 1, static_cast<int>(c.confidence * kBins));
        confidence[bin] += c.confidence;
        right[bin] += ok ? 1.0 : 0.0;
        ++count[bin];
        if (!ok) {
            char conf[16];
            std::snprintf(conf, sizeof conf, "%.2f", c.confidence);
            e.misses.push_back(d.path + ": " + toString(d.label) + " -> " + toString(c.type) +
                               " (" + conf + ")");
        }
    }
    for (int b = 0; b < kBins; ++b) {
        if (count[b] > 0) e.calibration_error += std::abs(confidence[b] - right[b]) / e.total;
    }
    return e;
}

}  // namespace docintel::classify
