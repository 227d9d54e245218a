#pragma once
// A code list's codes written after a meaning phrase anywhere in a document: "CPT 31267-50 ...",
// "ICD-10-CM: C79.51 - ..." (the rest of a label between the phrase and its code), and the
// codes of a label's value that runs on over indented lines under it.
//
// Header-only, stateless; plugins link only the SDK.

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether `gap`, the text between a meaning phrase and a code, is at most two characters
/// or the rest of a label ("-CM: ", " Codes: "): nothing that says something else.
inline bool labelTail(const std::string& gap) {
    if (gap.size() <= 2) return true;
    static const std::regex tail(R"(^[-A-Za-z]{0,6}(?: codes?)?\s*:\s*$)", std::regex::icase);
    return gap.size() <= 14 && std::regex_match(gap, tail);
}

/// Whether the line of `doc` where `unit` starts is indented: it goes on with the value of the
/// label on the line above ("ICD-10-CM:   M75.121 ...\n              M75.41 ...").
inline bool indentedLine(const DocText& doc, const FieldUnit& unit) {
    std::size_t start = unit.pos;
    while (start > 0 && doc.text[start - 1] != '\n') --start;
    return doc.text.compare(start, 4, "    ") == 0;
}

/// Adds to `value` (an array) every code of `spec` written right after one of its meaning
/// phrases in `units`, and the codes that open the indented lines under such a label.
inline void addCodesAfterPhrases(const FieldSpec& spec, const DocText& doc,
                                 const std::vector<FieldUnit>& units, nlohmann::json& value) {
    const auto add = [&](const nlohmann::json& code) {
        if (std::find(value.begin(), value.end(), code) == value.end()) value.push_back(code);
    };
    bool labelled = false;  // the unit above gave codes after a labelled phrase
    for (const auto& u : units) {
        if (u.is_heading) {
            labelled = false;
            continue;
        }
        const auto found = typed::codes(u.text, spec.code);
        if (labelled && indentedLine(doc, u)) {
            const auto first = u.text.find_first_not_of(' ');
            for (const auto& f : found) {
                if (f.pos == first) add(f.value);
            }
            continue;
        }
        labelled = false;
        const std::string lower_text = typed::lower(u.text);
        for (const auto& p : spec.meaning) {
            std::size_t end = 0;
            for (auto at = findPhrase(lower_text, p, 0, &end); at != std::string::npos;
                 at = findPhrase(lower_text, p, end, &end)) {
                for (const auto& f : found) {
                    if (f.pos < end || !labelTail(u.text.substr(end, f.pos - end))) continue;
                    add(f.value);
                    if (u.text.find(':', end) < f.pos) labelled = true;
                }
            }
        }
    }
}

}  // namespace docintel::plugins
