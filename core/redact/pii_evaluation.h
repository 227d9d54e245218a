#pragma once

#include <map>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "redact/pii_redactor.h"

namespace docintel::redact {

/// A text with its personal data marked by hand.
struct LabelledText {
    std::string id;
    std::string text;
    std::vector<PiiSpan> gold;  ///< placeholders empty
};

/// Reads a labelled set: one JSON object a line, {"id", "text", "spans": [{"type": "EMAIL",
/// "value": "a@b.org"}]}; every occurrence of a value in its text (not inside a longer word or
/// number) is a gold span of that type.
/// Errors: `labelled_set_unreadable` (missing file), `labelled_set_invalid` (bad JSON, unknown
/// type, a value not in its text).
plugin::Result<std::vector<LabelledText>> loadLabelledSet(const std::string& path);

struct TypeScore {
    int true_positives = 0;
    int false_positives = 0;
    int false_negatives = 0;
    double precision() const;
    double recall() const;
    int gold() const { return true_positives + false_negatives; }
};

struct Evaluation {
    std::map<PiiType, TypeScore> by_type;
    TypeScore overall;
    /// One line per mistake: "FP PHONE t42 '555-0100'" / "FN ...".
    std::vector<std::string> mistakes;
};

/// Runs detectPii() over the set; a find counts only when its type and exact byte span match a
/// gold span.
Evaluation evaluate(const std::vector<LabelledText>& set, const RedactionOptions& options = {});

}  // namespace docintel::redact
