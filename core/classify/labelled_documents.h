#pragma once

#include <string>
#include <vector>

#include "classify/doc_class.h"
#include "classify/document_classifier.h"
#include "embed/sentence_encoder.h"
#include "plugin_api/result.h"

namespace docintel::classify {

/// A document with its class marked by hand, read the way ingestion reads it (sniffed type,
/// parser, chunker with the encoder's token counts) and embedded.
struct LabelledDocument {
    std::string path;
    DocClass label = DocClass::kOther;
    ClassifierInput input;
};

/// Reads the labelled documents: every `<class>/*` file under `own_dir` (the folder names the
/// class), and every file listed in `corpus_labels` (JSON {"files": [{"path", "label"}]}, paths
/// relative to `corpus_dir`; either may be empty to skip). Files that cannot be parsed are
/// skipped with a note in `skipped`. `encoder` may be null (no vectors).
/// Errors: `labelled_set_invalid` (unknown class, bad JSON, nothing read).
plugin::Result<std::vector<LabelledDocument>> loadLabelledDocuments(
    const std::string& own_dir, const std::string& corpus_labels, const std::string& corpus_dir,
    const embed::SentenceEncoder* encoder, std::vector<std::string>* skipped = nullptr);

/// Accuracy and calibration of a classifier over a labelled set.
struct ClassifierEvaluation {
    int total = 0;
    int correct = 0;
    double accuracy() const { return total == 0 ? 0.0 : static_cast<double>(correct) / total; }
    /// Expected calibration error over 5 confidence bins.
    double calibration_error = 0;
    /// "path: label -> predicted (confidence)" for each miss.
    std::vector<std::string> misses;
};

ClassifierEvaluation evaluateClassifier(const DocumentClassifier& classifier,
                                        const std::vector<LabelledDocument>& set);

}  // namespace docintel::classify
