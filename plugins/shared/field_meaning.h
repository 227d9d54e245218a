#pragma once

// How a unit of a document states a typed field's meaning (field_extractor.h, docs/decisions/
// 0064): where the field's meaning phrases stand in it (as a label "Phrase: value", in its
// text, in its heading), and the signs that it speaks of another subject or of no value: an
// `avoid` phrase in its label, its section's heading or the word a label was cut from ("SITE
// NPI:"), and a label whose value says there is none ("Member ID: Not yet issued").
// Header-only; pure.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/form_marks.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Where a meaning phrase was found in a unit: [pos, end) and its weight.
struct MeaningHit {
    double weight = 0;
    std::size_t pos = 0;
    std::size_t end = 0;
    bool label = false;  ///< "Phrase: value"
    bool in_heading = false;
    bool defines = false;        ///< the phrase is a defined term in brackets after its value
    std::size_t phrase_end = 0;  ///< where the phrase itself ends (before a label's ":")
};

/// Every meaning hit of `spec` in a unit (each phrase's first place in the text), or one hit in
/// its heading when the text has none.
inline std::vector<MeaningHit> meaningHits(const FieldSpec& spec, const FieldUnit& unit) {
    std::vector<MeaningHit> out;
    MeaningHit heading_hit;
    const std::string text = typed::lower(unit.text);
    const std::string heading = typed::lower(unit.heading);
    const SoapLabel soap = soapLabel(unit.text);  // "A: Lumbar radiculopathy (M54.16)"
    for (std::size_t i = 0; i < spec.meaning.size(); ++i) {
        const std::string& p = spec.meaning[i];
        const double words = static_cast<double>(std::count(p.begin(), p.end(), ' ') + 1);
        const double w =
            1.0 + 0.25 * (words - 1) +
            0.3 * (1.0 - static_cast<double>(i) / static_cast<double>(spec.meaning.size()));
        std::size_t end = 0;
        if (const auto at = findPhrase(text, p, 0, &end); at != std::string::npos) {
            // An inflected phrase ("terminated" for "terminate") states the meaning less surely
            // than one as written or in the plural.
            const bool plural = end == at + p.size() + 1 && text[at + p.size()] == 's';
            const double sure = end == at + p.size() || plural ? 1.0 : 0.9;
            std::size_t k = end;
            while (k < text.size() && (text[k] == ' ' || text[k] == ')')) ++k;
            // A dash after the phrase is a label's only when the phrase opens the line ("Health
            // plan - Summit Ridge"); after words it ends a name before a title ("SUMMIT RIDGE
            // HEALTH PLAN - PRIOR AUTH REQUEST").
            const bool opens_line = text.find_first_not_of(" |*#") == at;
            const bool label =
                k < text.size() &&
                (text[k] == ':' ||
                 ((text[k] == '-' || text.compare(k, 3, "\xE2\x80\x94") == 0) && opens_line));
            MeaningHit hit{sure * w + (label ? 0.6 : 0.0), at, label ? k + 1 : end, label, false};
            // A defined term ("... April 1, 2025 (the "Commencement Date")") names the value
            // just before it.
            std::size_t b = at;
            while (b > 0 && (text[b - 1] == '"' || text[b - 1] == ' ' ||
                             static_cast<unsigned char>(text[b - 1]) >= 0x80)) {
                --b;
            }
            if (b >= 4 && text.compare(b - 4, 4, "(the") == 0) b -= 3;
            hit.defines = b > 0 && text[b - 1] == '(';
            hit.phrase_end = end;
            out.push_back(hit);
        } else if (soap.len > 0 && !unit.is_heading && findPhrase(soap.section, p) == 0) {
            out.push_back({w + 0.6, 0, soap.len, true, false, false, soap.len});
        } else if (!unit.is_heading && findPhrase(heading, p) != std::string::npos) {
            if (0.7 * w > heading_hit.weight) heading_hit = {0.7 * w, 0, 0, false, true};
        }
    }
    if (out.empty() && heading_hit.weight > 0) out.push_back(heading_hit);
    return out;
}

/// Whether every word of `name` is a meaning word of `spec`, an article, a joining word or an
/// initial ("A. THE MEMBER", "OR D. THE MEMBER": a policy's sentence, not a member's name).
inline bool onlyMeaningWords(const FieldSpec& spec, const std::string& name) {
    const std::string v = typed::lower(name);
    if (std::find(spec.meaning.begin(), spec.meaning.end(), v) != spec.meaning.end()) return true;
    std::size_t i = 0;
    bool any = false;
    while (i < v.size()) {
        std::size_t j = v.find(' ', i);
        if (j == std::string::npos) j = v.size();
        std::string word = v.substr(i, j - i);
        while (!word.empty() && (word.back() == '.' || word.back() == ',')) word.pop_back();
        i = j + 1;
        if (word.empty()) continue;
        any = true;
        if (word.size() == 1 || word == "the" || word == "an" || word == "or" || word == "and" ||
            word == "of") {
            continue;
        }
        if (std::find(spec.meaning.begin(), spec.meaning.end(), word) == spec.meaning.end()) {
            return false;
        }
    }
    return any;
}

/// Whether the section a unit stands in is about another subject: its heading names one of the
/// spec's `avoid` phrases and none of its meaning phrases (a "Patient" section's "Name: Ann Roe"
/// row names no provider; "Patient and provider" names both).
inline bool avoidedSection(const FieldSpec& spec, const FieldUnit& unit) {
    if (unit.heading.empty() || unit.is_heading) return false;
    const std::string heading = typed::lower(unit.heading);
    const auto in_heading = [&](const std::string& p) {
        return findPhrase(heading, p) != std::string::npos;
    };
    return std::any_of(spec.avoid.begin(), spec.avoid.end(), in_heading) &&
           std::none_of(spec.meaning.begin(), spec.meaning.end(), in_heading);
}

/// Whether the label of `hit` (its words from the start of the unit's cell or clause up to its
/// ":") holds one of the spec's `avoid` phrases: "Facility NPI:", "Referring provider:".
inline bool labelAvoided(const FieldSpec& spec, const std::string& lower_text,
                         const MeaningHit& hit) {
    const std::size_t cut = lower_text.find_last_of("|;.", hit.pos);
    const std::size_t from = cut == std::string::npos ? 0 : cut + 1;
    const std::string label = lower_text.substr(from, std::min(hit.end, lower_text.size()) - from);
    return std::any_of(spec.avoid.begin(), spec.avoid.end(), [&](const std::string& a) {
        return findPhrase(label, a) != std::string::npos;
    });
}

/// Whether a label of `hits` in `unit` says that the field has no value ("Member ID: Not yet
/// issued (call ref ELG-55120)"): a date, code, name or amount is then none.
inline bool labelStatesNone(const FieldSpec& spec, const std::vector<MeaningHit>& hits,
                            const FieldUnit& unit) {
    return spec.type != "text" && spec.type != "enumeration" &&
           std::any_of(hits.begin(), hits.end(), [&](const MeaningHit& hit) {
               return hit.label &&
                      statesNone(unit.text.substr(std::min(hit.end, unit.text.size())));
           });
}

/// Where the lines of `doc` start on which a label of `spec` says the field has none: every
/// reading of such a line (a table row's cells, the row as a whole) states no value of it.
inline std::set<std::size_t> linesStatingNone(const FieldSpec& spec, const DocText& doc,
                                              const std::vector<FieldUnit>& units) {
    std::set<std::size_t> out;
    for (const auto& u : units) {
        if (!u.is_heading && labelStatesNone(spec, meaningHits(spec, u), u)) {
            const std::size_t nl = u.pos == 0 ? std::string::npos : doc.text.rfind('\n', u.pos - 1);
            out.insert(nl == std::string::npos ? 0 : nl + 1);
        }
    }
    return out;
}

/// Whether the word right before a unit that a label cut out of its line is one of the spec's
/// `avoid` words: in capitals a label's qualifier is not told from the name before it ("SITE:
/// NORTHRIDGE HEART CENTER SITE NPI: 1234567893" cut at "NPI:"), and it names another subject.
inline bool qualifiedByAvoided(const FieldSpec& spec, const DocText& doc, const FieldUnit& unit) {
    std::size_t end = unit.pos;
    while (end > 0 && doc.text[end - 1] == ' ') --end;
    if (end == unit.pos || end == 0 || doc.text[end - 1] == '\n') return false;
    std::size_t start = end;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(doc.text[start - 1]))) --start;
    const std::string word = typed::lower(doc.text.substr(start, end - start));
    return !word.empty() && unit.text.find(':') < 24 &&
           std::find(spec.avoid.begin(), spec.avoid.end(), word) != spec.avoid.end();
}

}  // namespace docintel::plugins
