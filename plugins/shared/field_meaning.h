#pragma once

// Where a typed field's meaning phrase stands in a unit of a document (MeaningHit, found by
// meaningHits; docs/decisions/0064), and the signs that the unit speaks of another subject or of
// no value: an `avoid` phrase in its label, its section's heading or the word a capitals label
// was cut from ("SITE NPI:"), a bare "Name:" under another person's heading ("CALLER"), a
// recital ("WHEREAS, ..."), and a label whose value says there is none yet ("Member ID: Not yet
// issued", statesNoneYet); and a heading that is a meaning phrase alone, which labels its
// section. Header-only; pure.

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
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
    bool label_only = false;     ///< a phrase written with its colon ("to:"), FieldSpec::meaning
};

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

/// Whether a unit is a recital ("WHEREAS, the space was formerly leased under a lease that
/// expired on ...", a RECITALS section): it tells the background (an earlier lease,
/// a former occupant) and states none of the dates and figures the document sets.
inline bool inRecital(const FieldSpec& spec, const FieldUnit& unit) {
    if (spec.type != "date" && spec.type != "money" && spec.type != "percentage" &&
        spec.type != "duration") {
        return false;
    }
    const std::string text = typed::lower(trimmed(unit.text));
    const std::string heading = typed::lower(unit.heading);
    return text.compare(0, 7, "whereas") == 0 ||
           findPhrase(heading, "recitals") != std::string::npos;
}

/// Whether a heading (lower case) is the phrase `p` alone, but for a number or letter before it
/// and a colon after it ("3. exam requested:").
inline bool headingIsPhrase(const std::string& heading, const std::string& p) {
    std::string h = trimmed(heading);
    while (!h.empty() && (h.back() == ':' || h.back() == '.')) h.pop_back();
    const std::size_t at = h.rfind(p);
    if (at == std::string::npos || at + p.size() != h.size()) return false;
    const std::string before = trimmed(h.substr(0, at));
    return before.empty() || (before.size() <= 3 && (before.back() == '.' || before.back() == ')'));
}

/// Whether the bare "Name:" label of `hit` names someone else than the field's person: its
/// section's heading is another person's role ("CALLER", "Emergency contact", "Parent or
/// guardian") and names none of the field's other meaning phrases.
inline bool anotherPersonsName(const FieldSpec& spec, const FieldUnit& unit,
                               const std::string& lower_text, const MeaningHit& hit) {
    if (!spec.person || unit.heading.empty() ||
        lower_text.compare(hit.pos, hit.phrase_end - hit.pos, "name") != 0) {
        return false;
    }
    static const std::vector<std::string> others = {
        "caller", "contact",  "coordinator", "representative", "submitted by", "submitter",
        "parent", "guardian", "spouse",      "reviewer",       "witness",      "agent"};
    const std::string heading = typed::lower(unit.heading);
    const auto in_heading = [&](const std::string& p) {
        return p != "name" && findPhrase(heading, p) != std::string::npos;
    };
    return std::any_of(others.begin(), others.end(), in_heading) &&
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

/// Where the `avoid` phrases of `spec` stand in a unit's text. A phrase weighs against the
/// meaning phrases and values near it (kReach characters either way), not against a whole
/// clause: "Subject to the exercise of the Option, Landlord leases the Leased Area to Tenant for
/// a term of twenty-five (25) years" states the term, and the option it names first is another
/// subject.
class AvoidedPhrases {
  public:
    using Span = std::pair<std::size_t, std::size_t>;
    static constexpr std::size_t kReach = 60;

    AvoidedPhrases(const FieldSpec& spec, const std::string& lower_text) {
        for (std::size_t i = 0; i < spec.avoid.size(); ++i) {
            std::size_t end = 0;
            for (auto at = findPhrase(lower_text, spec.avoid[i], 0, &end); at != std::string::npos;
                 at = findPhrase(lower_text, spec.avoid[i], end, &end)) {
                found_.push_back({i, at, end});
            }
        }
    }

    /// 0.8 for each avoid phrase within reach of one of `spans`.
    double near(std::initializer_list<Span> spans) const {
        std::set<std::size_t> phrases;
        for (const auto& a : found_) {
            for (const auto& [from, to] : spans) {
                if (a.to + kReach >= from && a.from <= to + kReach) phrases.insert(a.phrase);
            }
        }
        return 0.8 * static_cast<double>(phrases.size());
    }

  private:
    struct Found {
        std::size_t phrase, from, to;
    };
    std::vector<Found> found_;
};

/// How a passage's words right before a meaning phrase deny it.
enum class Denial {
    kNone,     ///< the phrase is not denied
    kNoneIs,   ///< "No security deposit is required": the thing does not exist
    kNotThis,  ///< "... holds the slip and is not a security deposit": this amount is not it
};

/// How `lower_text` denies the meaning phrase of `hit`: "no" right before it (but "no later
/// than", "no more than") says there is none; "not a", "not the" that the passage's own value is
/// something else.
inline Denial denialOf(const std::string& lower_text, const MeaningHit& hit) {
    const std::size_t from = hit.pos > 24 ? hit.pos - 24 : 0;
    const std::string before = lower_text.substr(from, hit.pos - from);
    static const std::regex no(R"((?:^|[^a-z])no\s+$)");
    static const std::regex not_this(R"(\bnot\s+(?:a|an|the|any)\s+$)");
    if (std::regex_search(before, no)) return Denial::kNoneIs;
    if (std::regex_search(before, not_this)) return Denial::kNotThis;
    return Denial::kNone;
}

/// Whether a label can say that `spec` has no value: a date, code, name or amount can; a text or
/// an enumeration states its own absence (statesNone).
inline bool labelCanStateNone(const FieldSpec& spec) {
    return spec.type != "text" && spec.type != "enumeration";
}

/// Whether a label of `hits` in `unit` says that the field has no value ("Member ID: Not yet
/// issued (call ref ELG-55120)"): a date, code, name or amount is then none.
inline bool labelStatesNone(const FieldSpec& spec, const std::vector<MeaningHit>& hits,
                            const FieldUnit& unit) {
    return labelCanStateNone(spec) &&
           std::any_of(hits.begin(), hits.end(), [&](const MeaningHit& hit) {
               return hit.label &&
                      statesNoneYet(unit.text.substr(std::min(hit.end, unit.text.size())));
           });
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

/// Where the mark that makes a phrase ending at `end` of lower-cased `text` a label would stand
/// (its colon or dash): after spaces and a closing bracket, after a bracketed note ("Base Rent
/// (Year 1): ..."), or at the second cell's colon of a two-column table row as the parser
/// writes it ("Item: Prescriber | Entry: Adaeze Roe, MD").
inline std::size_t labelMark(const std::string& text, std::size_t end) {
    std::size_t k = end;
    while (k < text.size() && (text[k] == ' ' || text[k] == ')')) ++k;
    if (k >= text.size()) return k;
    if (text[k] == '(') {
        const std::size_t close = text.find(')', k);
        std::size_t j = close == std::string::npos ? close : close + 1;
        while (j < text.size() && text[j] == ' ') ++j;
        return close - k <= 30 && j < text.size() && text[j] == ':' ? j : k;
    }
    if (text[k] == '|') {
        const std::size_t colon = text.find(':', k);
        const bool column_name =
            colon != std::string::npos && colon - k <= 32 &&
            std::all_of(text.begin() + static_cast<std::ptrdiff_t>(k + 1),
                        text.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) {
                            return std::isalpha(static_cast<unsigned char>(c)) || c == ' ' ||
                                   c == '/';
                        });
        return column_name ? colon : k;
    }
    return k;
}

/// The hit of label-only phrase `p` (its colon taken off) in lower-cased `text` whose first
/// character is at `opening`: the label that opens the line ("to: ...") or a numbered clause's
/// run-in heading ("10. law. indiana."); none elsewhere.
inline std::optional<MeaningHit> labelOnlyHit(const std::string& text, std::size_t opening,
                                              const std::string& p, double weight) {
    if (opening == std::string::npos) return std::nullopt;
    static const std::regex clause_number(R"(^(?:\d{1,3}(?:\.\d{1,3})*\.?|\(?[a-z]\))\s+)");
    std::smatch number;
    std::size_t at = opening;
    if (std::regex_search(text.cbegin() + static_cast<std::ptrdiff_t>(at), text.cend(), number,
                          clause_number)) {
        at += static_cast<std::size_t>(number.length(0));
    }
    if (text.compare(at, p.size(), p) != 0) return std::nullopt;
    std::size_t k = at + p.size();
    while (k < text.size() && (text[k] == ' ' || text[k] == '*')) ++k;
    const bool run_in = at != opening && k < text.size() && text[k] == '.';
    if (k >= text.size() || (text[k] != ':' && !run_in)) return std::nullopt;
    return MeaningHit{weight, at, k + 1, true, false, false, at + p.size(), true};
}

/// Every meaning hit of `spec` in a unit (each phrase's first place in the text), or one hit in
/// its heading when the text has none.
inline std::vector<MeaningHit> meaningHits(const FieldSpec& spec, const FieldUnit& unit) {
    std::vector<MeaningHit> out;
    MeaningHit heading_hit;
    const std::string text = typed::lower(unit.text);
    const std::string heading = typed::lower(unit.heading);
    const SoapLabel soap = soapLabel(unit.text);  // "A: Lumbar radiculopathy (M54.16)"
    const std::size_t opening = text.find_first_not_of(" |*#");
    for (std::size_t i = 0; i < spec.meaning.size(); ++i) {
        // A phrase written with its colon ("to:") states the meaning only as the label that
        // opens a line, or as a clause's run-in heading: a letter's "To: Cascadia Crest Health"
        // names the payer it is sent to, "10. LAW. Indiana." the governing law, the word "to"
        // or "law" elsewhere nothing.
        const bool label_only = spec.meaning[i].back() == ':';
        const std::string p =
            label_only ? spec.meaning[i].substr(0, spec.meaning[i].size() - 1) : spec.meaning[i];
        const double words = static_cast<double>(std::count(p.begin(), p.end(), ' ') + 1);
        const double w =
            1.0 + 0.25 * (words - 1) +
            0.3 * (1.0 - static_cast<double>(i) / static_cast<double>(spec.meaning.size()));
        std::size_t end = 0;
        if (label_only) {
            if (auto hit = labelOnlyHit(text, opening, p, w + 0.6)) out.push_back(*hit);
            continue;
        }
        if (const auto at = findPhrase(text, p, 0, &end); at != std::string::npos) {
            // An inflected phrase ("terminated" for "terminate") states the meaning less surely
            // than one as written or in the plural.
            const bool plural = end == at + p.size() + 1 && text[at + p.size()] == 's';
            const double sure = end == at + p.size() || plural ? 1.0 : 0.9;
            const std::size_t k = labelMark(text, end);
            // A dash after the phrase is a label's only when the phrase opens the line ("Health
            // plan - Summit Ridge"); after words it ends a name before a title ("SUMMIT RIDGE
            // HEALTH PLAN - PRIOR AUTH REQUEST").
            const bool opens_line = opening == at;
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
            // "My name is Ann Roe" in prose names the writer, whoever that is; "Name:" labels a
            // form's field under its section.
            if (spec.person && !label && p == "name" && end == at + p.size()) hit.weight *= 0.6;
            out.push_back(hit);
        } else if (soap.len > 0 && !unit.is_heading && findPhrase(soap.section, p) == 0) {
            out.push_back({w + 0.6, 0, soap.len, true, false, false, soap.len});
        } else if (!unit.is_heading && findPhrase(heading, p) != std::string::npos) {
            // A heading that is the phrase alone ("EXAM REQUESTED") labels its section.
            const double hw = headingIsPhrase(heading, p) ? w : 0.7 * w;
            if (hw > heading_hit.weight) heading_hit = {hw, 0, 0, false, true};
        }
    }
    if (out.empty() && heading_hit.weight > 0) out.push_back(heading_hit);
    return out;
}

}  // namespace docintel::plugins
