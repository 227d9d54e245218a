#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "classify/doc_class.h"
#include "embed/sentence_encoder.h"
#include "plugin_api/result.h"

namespace docintel::classify {

/// What the classifier reads of a document: its first chunks (in order), their vectors from
/// the encoder the classifier was built with (may be empty: then it encodes the texts itself,
/// or goes by cue words alone without an encoder), and the file type ingest detected ("eml",
/// "pdf", ...; may be empty).
struct ClassifierInput {
    std::vector<std::string> texts;
    std::vector<std::vector<float>> vectors;
    std::string detected_type;
};

struct Classification {
    DocClass type = DocClass::kOther;
    /// Calibrated probability that `type` is right (for kOther: that no named class is).
    double confidence = 0;
    /// Per named class (kNamedClasses order): probability after calibration.
    std::array<double, kDocClassCount - 1> probabilities{};
};

struct ClassifierOptions {
    int chunks = 4;                 ///< first chunks read
    std::size_t text_bytes = 8000;  ///< of their text, for cue words
    // Chosen by bench/classify/run.sh --search on tests/data/classify: the middle of the
    // plateau of best accuracy, with the lowest calibration error there.
    double cue_weight = 1.0;    ///< weight of the cue score against the embedding score
    double temperature = 0.1;   ///< softmax temperature (calibration)
    double other_below = 0.40;  ///< top probability under which the answer is `other`
};

/// Document classes from the local model: the mean embedding of a document's first chunks is
/// compared with several short descriptions of each class (nearest description per class),
/// combined with cue words and structure (mail headers, speaker turns), and turned into
/// probabilities by a softmax whose temperature was calibrated on tests/data/classify
/// (docs/classification.md). `other` when no class is probable enough.
/// Immutable after create(): classify() may be called from any number of threads.
class DocumentClassifier {
  public:
    /// `encoder` may be null (cue words only); it must outlive the classifier. Embeds the class
    /// descriptions once. Errors: those of SentenceEncoder::encode().
    static plugin::Result<std::unique_ptr<DocumentClassifier>> create(
        const embed::SentenceEncoder* encoder, ClassifierOptions options = {});

    Classification classify(const ClassifierInput& input) const;

    /// Raw scores before calibration, per named class: nearest-description similarity and
    /// cue score in [0, 1). For benchmarks and calibration.
    struct Scores {
        std::array<double, kDocClassCount - 1> similarity{};
        std::array<double, kDocClassCount - 1> cues{};
        bool has_similarity = false;
    };
    Scores score(const ClassifierInput& input) const;
    /// Calibrated classification from raw scores.
    Classification decide(const Scores& scores) const;

  private:
    DocumentClassifier(const embed::SentenceEncoder* encoder, ClassifierOptions options)
        : encoder_(encoder), options_(options) {}

    const embed::SentenceEncoder* encoder_;
    ClassifierOptions options_;
    /// Per named class, its descriptions' unit vectors.
    std::array<std::vector<std::vector<float>>, kDocClassCount - 1> descriptions_;
};

}  // namespace docintel::classify
