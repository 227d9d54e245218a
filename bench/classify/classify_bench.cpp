// Accuracy of the document classifier on tests/data/classify (own texts, and labelled files of
// the shared doc-corpus), with the per-document scores, and a search over the calibration
// parameters (cue weight, temperature, `other` threshold).
// Usage: classify_bench <model_dir> <own_dir> <corpus_labels.json> <corpus_dir> [--search]
//        [--dump]

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "classify/class_profiles.h"
#include "classify/labelled_documents.h"

using namespace docintel;

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: classify_bench <model_dir> <own_dir> <corpus_labels> <corpus_dir> "
                     "[--search] [--dump]\n";
        return 2;
    }
    bool search = false, dump = false;
    for (int i = 5; i < argc; ++i) {
        search = search || std::string(argv[i]) == "--search";
        dump = dump || std::string(argv[i]) == "--dump";
    }
    auto encoder = embed::SentenceEncoder::load(argv[1]);
    if (!encoder) {
        std::cerr << encoder.error().message << "\n";
        return 1;
    }
    std::vector<std::string> skipped;
    const auto started = std::chrono::steady_clock::now();
    auto set = classify::loadLabelledDocuments(argv[2], argv[3], argv[4], encoder->get(), &skipped);
    if (!set) {
        std::cerr << set.error().message << "\n";
        return 1;
    }
    for (const auto& s : skipped) std::printf("skipped (unreadable): %s\n", s.c_str());
    auto classifier = classify::DocumentClassifier::create(encoder->get());
    if (!classifier) return 1;
    const auto& c = **classifier;

    int own = 0;
    for (const auto& d : *set) own += d.path.find(argv[2]) == 0 ? 1 : 0;
    std::printf(
        "labelled documents: %zu (%d own texts, %zu doc-corpus files), read and embedded "
        "in %.1f s\n",
        set->size(), own, set->size() - own,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    if (dump) {
        for (const auto& d : *set) {
            const auto s = c.score(d.input);
            const auto r = c.decide(s);
            std::printf("%-70s %-18s -> %-18s %.2f |", d.path.c_str(),
                        classify::toString(d.label).c_str(), classify::toString(r.type).c_str(),
                        r.confidence);
            for (std::size_t k = 0; k < classify::kNamedClasses.size(); ++k) {
                std::printf(" %s=%.2f/%.2f",
                            classify::toString(classify::kNamedClasses[k]).substr(0, 6).c_str(),
                            s.similarity[k], s.cues[k]);
            }
            std::printf("\n    %s\n", d.input.texts[0].substr(0, 300).c_str());
        }
    }
    const auto report = [&](const char* name, const std::vector<classify::LabelledDocument>& part,
                            const classify::DocumentClassifier& k) {
        const auto e = classify::evaluateClassifier(k, part);
        std::printf("%-28s accuracy %.3f (%d/%d)  calibration error %.3f\n", name, e.accuracy(),
                    e.correct, e.total, e.calibration_error);
        return e;
    };
    std::vector<classify::LabelledDocument> own_part, corpus_part;
    for (const auto& d : *set) (d.path.find(argv[2]) == 0 ? own_part : corpus_part).push_back(d);
    const auto all = report("all", *set, c);
    report("own texts", own_part, c);
    report("doc-corpus files", corpus_part, c);
    for (const auto& m : all.misses) std::printf("  miss %s\n", m.c_str());

    // Cue words only (what a server without a model gets).
    auto cues_only = classify::DocumentClassifier::create(nullptr);
    report("cue words only (no model)", *set, **cues_only);

    if (search) {
        std::printf("\ncalibration search (all documents): cue_weight temperature other_below\n");
        for (double w : {0.0, 0.25, 0.5, 0.75, 1.0, 1.5}) {
            for (double t : {0.02, 0.035, 0.05, 0.075, 0.1}) {
                for (double o : {0.3, 0.4, 0.5}) {
                    classify::ClassifierOptions options;
                    options.cue_weight = w;
                    options.temperature = t;
                    options.other_below = o;
                    auto k = classify::DocumentClassifier::create(encoder->get(), options);
                    const auto e = classify::evaluateClassifier(**k, *set);
                    std::printf("  w=%.2f t=%.3f o=%.2f  accuracy %.3f  ece %.3f\n", w, t, o,
                                e.accuracy(), e.calibration_error);
                }
            }
        }
    }
    return 0;
}
