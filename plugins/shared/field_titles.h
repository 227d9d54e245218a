#pragma once

// A document's title as a typed text field reads it (field_extractor.h, docs/decisions/0064):
// the line right under the heading or opening line that names the document's kind ("MEDICAL
// COVERAGE POLICY" / "Continuous Glucose Monitoring (CGM) Systems for Personal Use"). Header-only;
// pure.

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether `line` reads as a title: one line in Title Case ("Systems for Personal Use": most
/// words of four letters or more capitalised), not a sentence.
inline bool titleCase(const std::string& line) {
    if (line.empty() || line.size() > 120 || line.back() == '.' ||
        !std::isupper(static_cast<unsigned char>(line[0]))) {
        return false;
    }
    int long_words = 0, capitalised = 0;
    std::size_t i = 0;
    while (i < line.size()) {
        std::size_t j = line.find(' ', i);
        if (j == std::string::npos) j = line.size();
        std::string word = line.substr(i, j - i);
        i = j + 1;
        while (!word.empty() && !std::isalpha(static_cast<unsigned char>(word.front()))) {
            word.erase(0, 1);
        }
        if (word.size() < 4) continue;
        ++long_words;
        if (std::isupper(static_cast<unsigned char>(word[0]))) ++capitalised;
    }
    return long_words >= 2 && capitalised * 5 >= long_words * 4;
}

/// A text field that names a kind of document ("MEDICAL COVERAGE POLICY", "Clinical Coverage
/// Guideline") read from the heading right under the heading or opening line that names it: the
/// document's title ("Continuous Glucose Monitoring (CGM) Systems for Personal Use"). It is
/// stated as surely as after a label.
inline Candidate titleUnderKind(const FieldSpec& spec, const std::vector<FieldUnit>& units) {
    Candidate out;
    if (spec.type != "text") return out;
    for (std::size_t i = 0; i + 1 < units.size(); ++i) {
        const auto& kind = units[i];
        const auto& title = units[i + 1];
        // The kind's line may be too long for a heading, but it opens the document (no heading
        // above it) and is no sentence or label.
        const std::string kind_text = trimmed(kind.text);
        const bool kind_line =
            kind.is_heading ||
            (kind.heading.empty() && !kind_text.empty() && kind_text.size() < 120 &&
             kind_text.back() != '.' && kind_text.find(':') == std::string::npos);
        const std::string value = trimmed(title.text);
        if (!kind_line || !(title.is_heading || titleCase(value))) continue;
        // A label line ("Policy number: X") is no title.
        if (value.size() < 8 || value.find(':') != std::string::npos) continue;
        const std::string lower_kind = typed::lower(kind.text);
        for (std::size_t m = 0; m < spec.meaning.size(); ++m) {
            if (findPhrase(lower_kind, spec.meaning[m]) == std::string::npos) continue;
            const std::string& p = spec.meaning[m];
            const double words = static_cast<double>(std::count(p.begin(), p.end(), ' ') + 1);
            const double weight =
                1.0 + 0.25 * (words - 1) +
                0.3 * (1.0 - static_cast<double>(m) / static_cast<double>(spec.meaning.size()));
            if (weight + 1.6 > out.score) out = {weight + 1.6, value, &title, 0};
            break;
        }
        if (out.unit != nullptr) break;
    }
    return out;
}

}  // namespace docintel::plugins
