#pragma once

// The typed field extractor (docs/decisions/0064): each field a workflow describes by meaning
// and value type (`fields` of its definition) is read from the passages that retrieval finds
// for its meaning words in the run's documents. In each candidate unit (a line or sentence,
// with its heading) a value of the field's type is looked for; the unit's score is how well it
// states the meaning (a phrase in the unit, more as a label "Phrase: value", less in its
// heading) and how near the value sits after the phrase. The best unit gives the value, its
// citation (page, chunk) and a confidence. Layout rules of a plugin may add evidence but are
// never required. Header-only; thread-safe (no state).

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "shared/code_lists.h"
#include "shared/date_spans.h"
#include "shared/doc_text.h"
#include "shared/field_clauses.h"
#include "shared/field_lists.h"
#include "shared/field_meaning.h"
#include "shared/field_merge.h"
#include "shared/field_parties.h"
#include "shared/field_spec.h"
#include "shared/field_titles.h"
#include "shared/field_units.h"
#include "shared/form_marks.h"
#include "shared/spec_values.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether every word of `name` is a word of a meaning phrase of `spec`, an article, a joining
/// word or an initial ("A. THE MEMBER", "OR D. THE MEMBER": a policy's sentence, not a member's
/// name).
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
        // ... or a word of a meaning phrase ("ORDERING" of "ordering provider").
        if (std::none_of(spec.meaning.begin(), spec.meaning.end(), [&](const std::string& p) {
                return findPhrase(p, word) != std::string::npos;
            })) {
            return false;
        }
    }
    return any;
}

inline Candidate bestInUnit(const FieldSpec& spec, const FieldUnit& unit) {
    Candidate out;
    if ((unit.is_heading || isAddressLine(unit.text)) && spec.type == "text") return out;
    // A caption names the text under it; a name or an amount has a label of its own.
    if (unit.caption && spec.type != "text") return out;
    // An option a form leaves unticked ("[ ] Saliva") states nothing, and a row of options
    // ("[ ] continues month to month [X] ends") answers a choice, not a text.
    if (const auto boxes = tickBoxes(unit.text);
        spec.type == "text" && !boxes.empty() &&
        (boxes.size() >= 2 ||
         (!boxes.front().ticked && boxes.front().pos == unit.text.find_first_not_of(" |")))) {
        return out;
    }
    auto hits = meaningHits(spec, unit);
    // An e-mail address says what it is: it needs no label, but a label makes it surer.
    if (hits.empty() && spec.type == "code" && spec.code == "email") {
        hits.push_back({0.4, 0, 0, false, true});
    }
    if (hits.empty()) return out;
    const std::string lower_text = typed::lower(unit.text);
    const AvoidedPhrases avoid(spec, lower_text);
    using Span = AvoidedPhrases::Span;
    // Where a hit stands; a heading's hit stands for the whole unit.
    const auto hitSpan = [&](const MeaningHit& hit) {
        return hit.in_heading ? Span{0, lower_text.size()} : Span{hit.pos, hit.end};
    };
    const bool avoided_section = avoidedSection(spec, unit);
    double unit_penalty = avoided_section ? 0.8 : 0.0;
    unit_penalty += inRecital(spec, unit) ? 0.6 : 0.0;
    const auto avoided = [&](const MeaningHit& hit) {
        return unit_penalty + avoid.near({hitSpan(hit)});
    };
    // A passage that says the thing does not exist states no value.
    static const std::vector<std::string> absent = {
        "there is none", "not agreed", "not applicable", "n/a", "there is no", "none stated"};
    double absent_penalty = 0;
    for (const auto& a : absent) {
        if (lower_text.find(a) != std::string::npos) absent_penalty += 1.0;
    }
    if (labelStatesNone(spec, hits, unit)) return out;
    // "No security deposit is required" says there is none, surer than an amount beside a
    // weaker phrase ("Decommissioning Security ... $185,000.00"); an amount the passage says is
    // not the thing ("$500.00 holds the slip and is not a security deposit") is no candidate. A
    // rent can be waived for a while ("no Base Rent is payable for months 1-3"): only an amount
    // paid once is denied outright.
    if (spec.type == "money") {
        std::optional<double> none_score;
        bool not_this = false;
        for (const auto& hit : hits) {
            const Denial d = denialOf(lower_text, hit);
            if (d == Denial::kNoneIs) {
                none_score = std::max(none_score.value_or(-1e9), hit.weight + 1.05 - avoided(hit));
            }
            not_this = not_this || d == Denial::kNotThis;
        }
        if (none_score && !spec.periodic) return {*none_score, nullptr, &unit, 0};
        if (not_this) return out;
    }
    for (const auto& hit : hits) {
        // A right the passage denies is none, whether the passage names it ("has no right to
        // terminate") or only its heading does ("TERMINATION" over "Tenant has no right to
        // terminate this Lease"). A right is a text field's: there the denial is a candidate
        // without a value, which outweighs a passage that only mentions the word in passing
        // ("extension of it by statute"); "no option to purchase the Premises" does not deny
        // an address.
        if (hit.in_heading ? deniesAnyRight(lower_text) : deniedRight(lower_text, hit.pos)) {
            const double score = hit.weight + 1.0 - avoided(hit);
            if (spec.type == "text" && score > out.score) out = {score, nullptr, &unit, hit.pos};
            continue;
        }
        // A label that names another subject ("Facility NPI:" for the provider's NPI) states
        // none of this field's values.
        if (hit.label && labelAvoided(spec, lower_text, hit)) continue;
        // A row that is the phrase alone ("Name: ...") under another subject's heading
        // ("PATIENT") is that subject's.
        if (hit.label && avoided_section && trimmed(unit.text.substr(0, hit.pos)).empty()) {
            continue;
        }
        if (anotherPersonsName(spec, unit, lower_text, hit)) continue;
        std::size_t label_end = hit.label ? hit.end : 0;
        // "Procedure Code(s): 27130 - Arthroplasty": a text stated in a form row whose label
        // holds the meaning phrase is what follows the label, and the label states the meaning
        // more surely than a phrase in the value ("Review type: Standard pre-service").
        double in_label = 0;
        if (const auto colon = unit.text.find(':');
            spec.type == "text" && !hit.label && !hit.in_heading && colon != std::string::npos &&
            hit.pos < colon && colon < 40 && unit.text.find_first_of(".,;") > colon) {
            label_end = colon + 1;
            in_label = 0.4;
        }
        // "Early termination: None" states that there is none: a candidate without a value,
        // a little surer than a value its label gives.
        // So does "(11) Early termination none", a row whose leader dots are missing.
        if (statesNone(unit.text.substr(label_end > 0 ? label_end : hit.end))) {
            const double score = hit.weight + 1.05 - avoided(hit);
            if (score > out.score) out = {score, nullptr, &unit, label_end};
            continue;
        }
        auto values = typedValues(spec, unit.text, label_end, unit.day_first);
        // A name that is only meaning words, articles and initials ("Landlord", "A. THE
        // MEMBER") is no party.
        values.erase(std::remove_if(
                         values.begin(), values.end(),
                         [&](const typed::Found& f) {
                             if (spec.type != "party" || !f.value.is_string()) {
                                 return false;
                             }
                             const std::string v = f.value.get<std::string>();
                             // Words right before a colon are a label ("COVERAGE
                             // CRITERIA:"), not a name.
                             std::size_t after = f.pos + f.len;
                             while (after < unit.text.size() && unit.text[after] == ' ') {
                                 ++after;
                             }
                             const bool label = after < unit.text.size() && unit.text[after] == ':';
                             // A letter's addressee names an organisation's field only when
                             // it is no person ("To: Ann Roe, MD" is not the plan).
                             return onlyMeaningWords(spec, v) || label ||
                                    (spec.person && !typed::personName(v)) ||
                                    (hit.label_only && !spec.person && typed::personName(v));
                         }),
                     values.end());
        // A total beside an amount per period is not what a periodic field states.
        const auto per_period = [](const typed::Found& f) {
            return f.value.is_string() &&
                   f.value.get<std::string>().find(" per ") != std::string::npos;
        };
        const bool totals_yield = spec.periodic && spec.type == "money" &&
                                  std::any_of(values.begin(), values.end(), per_period);
        for (auto v : values) {
            // A caption alone ("Current position", "Section C. Medication requested") names a
            // text but does not state it.
            if (spec.type == "text" && !hit.in_heading && v.value.is_string()) {
                const std::string caption = v.value.get<std::string>();
                if (typed::lower(caption.substr(sectionNumberLength(caption))) ==
                    lower_text.substr(hit.pos, hit.phrase_end - hit.pos)) {
                    continue;
                }
            }
            if (spec.type == "party" && !hit.in_heading && v.pos >= hit.pos &&
                v.pos < hit.phrase_end && v.pos + v.len > hit.phrase_end + 1) {
                // "Endorsement of Callum Roe": the name joined to the phrase is what follows it.
                std::size_t from = hit.phrase_end;
                while (from < v.pos + v.len && unit.text[from] == ' ') ++from;
                const std::string rest = trimmed(unit.text.substr(from, v.pos + v.len - from));
                if (rest.find(' ') == std::string::npos) continue;
                v.len = v.pos + v.len - from;
                v.pos = from;
                v.value = rest;
            }
            double distance;
            const bool overlaps = v.pos < hit.end && v.pos + v.len > hit.pos;
            if (overlaps && spec.type == "party" && v.pos < hit.pos && !hit.in_heading &&
                hit.phrase_end < v.pos + v.len) {
                // A name that says what it is ("LAKESHORE HEALTH PLAN") ends with that word: what
                // follows belongs to a line the parser folded into it ("... PRIOR AUTHORIZATION
                // REQUEST").
                v.len = hit.phrase_end - v.pos;
                v.value = trimmed(unit.text.substr(v.pos, v.len));
                const std::string name = v.value.get<std::string>();
                if (onlyMeaningWords(spec, name) || (spec.person && !typed::personName(name))) {
                    continue;  // "THE MEMBER"
                }
            }
            if (overlaps && (spec.type == "enumeration" || v.pos < hit.pos)) {
                // "URGENT request", "five years of experience": the value is part of the phrase.
                distance = 0.0;
            } else if (spec.type == "text" || hit.in_heading) {
                distance = spec.type == "text" ? 0.0 : static_cast<double>(v.pos);
            } else if (hit.defines && v.pos + v.len <= hit.pos) {
                distance = static_cast<double>(hit.pos - v.pos - v.len);
            } else if (hit.defines) {
                distance = 3.0 * static_cast<double>(v.pos - hit.end) + 20.0;
            } else if (v.pos >= hit.end) {
                distance = static_cast<double>(v.pos - hit.end);
                // A person named without a label is named next to the word ("the member, Ann
                // Roe"), not somewhere later in the sentence.
                if (spec.person && !hit.label && distance > 25) continue;
            } else if (v.pos + v.len <= hit.pos) {
                distance = 3.0 * static_cast<double>(hit.pos - v.pos - v.len) + 20.0;
            } else {
                continue;  // the value overlaps the meaning phrase
            }
            if (totals_yield && !per_period(v)) distance += 60.0;
            const double penalty =
                unit_penalty + absent_penalty + avoid.near({hitSpan(hit), {v.pos, v.pos + v.len}});
            const double score =
                hit.weight + in_label + 1.0 - 0.9 * std::min(distance, 150.0) / 150.0 - penalty;
            if (score > out.score) out = {score, v.value, &unit, v.pos};
        }
        if (spec.type == "code" && spec.list && out.unit != nullptr && !out.value.is_array()) {
            nlohmann::json all = nlohmann::json::array();
            for (const auto& v : values) {
                if (v.pos >= (hit.label ? hit.end : 0) &&
                    std::find(all.begin(), all.end(), v.value) == all.end()) {
                    all.push_back(v.value);
                }
            }
            out.value = all;
        }
    }
    return out;
}

/// Where the lines of `doc` start on which a label of `spec` says the field has none: every
/// reading of such a line (a table row's cells, the row as a whole) states no value of it.
inline std::set<std::size_t> linesStatingNone(const FieldSpec& spec, const DocText& doc,
                                              const std::vector<FieldUnit>& units) {
    std::set<std::size_t> out;
    if (!labelCanStateNone(spec)) return out;  // no unit's hits need reading
    for (const auto& u : units) {
        if (!u.is_heading && labelStatesNone(spec, meaningHits(spec, u), u)) {
            out.insert(doc.lineStart(u.pos));
        }
    }
    return out;
}

/// The field for `spec` from the units of `doc` that retrieval found (`retrieved` chunk ids;
/// empty = every unit): `{value, source, confidence}`, or a missing field.
inline nlohmann::json extractField(const FieldSpec& spec, const DocText& doc,
                                   const std::vector<FieldUnit>& units,
                                   const std::set<std::string>& retrieved) {
    Candidate best;
    if (!spec.roles.empty()) {
        best = partiesWithRoles(spec, units);
    } else {
        const auto none_lines = linesStatingNone(spec, doc, units);
        for (const auto& u : units) {
            if (!retrieved.empty() && !retrieved.count(doc.passageAt(u.pos).chunk_id)) continue;
            if (qualifiedByAvoided(spec, doc, u)) continue;
            if (!none_lines.empty() && none_lines.count(doc.lineStart(u.pos))) continue;
            const Candidate c = bestInUnit(spec, u);
            if (c.score > best.score + 1e-9) best = c;
        }
        if (const Candidate title = titleUnderKind(spec, units); title.score > best.score + 1e-9) {
            best = title;
        }
        if (const Candidate split = splitPersonName(spec, units); split.score > best.score) {
            best = split;
        }
        // A period stated only as its range ("From March 1, 2027 to ...") still states its
        // start, end and length.
        if (const Candidate span = spanCandidate(spec, units); span.score > best.score) {
            best = span;
        }
    }
    bool codes_read = false;  // addCodesAfterPhrases has read the document for best.value
    if ((best.unit == nullptr || best.score < 1.2 || best.value.is_null()) && spec.type == "code" &&
        spec.list) {
        // A code list no label gives may still be a table's column ("HCPCS Item Qty").
        Candidate table{1.2, nlohmann::json::array(), nullptr, 0};
        table.unit = addCodesAfterPhrases(spec, units, table.value);
        if (table.unit != nullptr) {
            best = table;
            codes_read = true;
        }
    }
    if (best.unit == nullptr || best.score < 1.2 || best.value.is_null()) return missingField();
    if (auto article = articleText(spec, *best.unit, units, doc); !article.empty()) {
        best.value = article;
    } else if (auto clause = clauseText(spec, *best.unit, doc); !clause.empty()) {
        best.value = clause;
    }
    if (const auto hits = meaningHits(spec, *best.unit); spec.type == "code" && spec.list &&
                                                         !best.unit->heading.empty() &&
                                                         !hits.empty() && hits.front().in_heading) {
        // The codes of a section whose heading names them ("ASSESSMENT", "Diagnoses").
        for (const auto& u : units) {
            if (u.heading != best.unit->heading || u.is_heading) continue;
            for (const auto& f : typed::codes(u.text, spec.code)) {
                if (std::find(best.value.begin(), best.value.end(), f.value) == best.value.end()) {
                    best.value.push_back(f.value);
                }
            }
        }
    }
    if (spec.type == "code" && spec.list && best.value.is_array() && !codes_read) {
        // ... and every code written right after a meaning phrase anywhere ("CPT 31267-50
        // maxillary antrostomy", "CPT: 96131 | Service: ..."): a request lists its codes one a
        // line, one a table row, or under its label on indented lines.
        addCodesAfterPhrases(spec, units, best.value);
    }
    if (best.value.is_array() && best.value.empty()) return missingField();
    const double confidence = std::clamp(0.35 + 0.2 * (best.score - 1.0), 0.3, 0.95);
    return field(best.value, doc.source(best.unit->pos, best.unit->len), confidence);
}

/// The meaning words of `spec` as evidence-query keywords.
inline std::vector<std::string> meaningKeywords(const FieldSpec& spec) {
    std::vector<std::string> out;
    auto add = [&](const std::string& phrase) {
        std::string word;
        for (std::size_t i = 0; i <= phrase.size(); ++i) {
            if (i < phrase.size() && std::isalnum(static_cast<unsigned char>(phrase[i]))) {
                word += phrase[i];
            } else {
                if (word.size() >= 2 && std::find(out.begin(), out.end(), word) == out.end()) {
                    out.push_back(word);
                }
                word.clear();
            }
        }
    };
    for (const auto& p : spec.meaning) add(p);
    for (const auto& r : spec.roles) add(r);
    return out;
}

/// Every field of the workflow whose path starts with one of `prefixes`, read from the run's
/// documents of the field's role (each role's documents loaded once): path → field. Fields
/// whose documents are absent are left out.
inline plugin::Result<std::map<std::string, nlohmann::json>> extractTypedFields(
    plugin::HostServices& host, const plugin::StepInput& in, const nlohmann::json& fields,
    const std::vector<std::string>& prefixes) {
    std::map<std::string, nlohmann::json> out;
    const auto specs = fieldSpecs(fields, prefixes);
    if (specs.empty()) return out;
    auto* finder = host.evidence();
    if (!finder) return plugin::Error::unavailable("evidence_unavailable", "no evidence finder");
    std::map<std::string, std::pair<DocText, std::vector<FieldUnit>>> by_role;
    for (const auto& spec : specs) {
        if (!by_role.count(spec.role)) {
            auto docs = loadDocTexts(host, in, spec.role);
            if (!docs) return docs.error();
            DocText doc = joined(std::move(docs).value());
            auto units = fieldUnits(doc);
            by_role.emplace(spec.role, std::make_pair(std::move(doc), std::move(units)));
        }
        const auto& [doc, units] = by_role.at(spec.role);
        if (doc.passages.empty()) continue;
        if (spec.type == "list") {
            out[spec.path] = extractList(spec, doc);
            continue;
        }
        // Candidate passages by retrieval within the role's documents.
        plugin::EvidenceQuery query;
        for (const auto& d : in.documents) {
            if (d.role == spec.role) query.document_ids.push_back(d.document_id);
        }
        query.keywords = meaningKeywords(spec);
        query.limit = 24;
        std::set<std::string> retrieved;
        if (auto found = finder->find(query); found) {
            for (const auto& p : *found) retrieved.insert(p.chunk_id);
        }
        out[spec.path] = extractField(spec, doc, units, retrieved);
    }
    return out;
}

/// The `fields` of a vertical's workflow definitions (its embedded *.workflow.json files) by
/// workflow name. Built once when a plugin first needs it; immutable afterwards.
using WorkflowFields = std::map<std::string, nlohmann::json>;

inline WorkflowFields workflowFields(const std::map<std::string_view, std::string_view>& files) {
    WorkflowFields out;
    for (const auto& [file, text] : files) {
        const auto definition = nlohmann::json::parse(text, nullptr, false);
        if (!definition.is_object() || !definition.contains("name")) continue;
        out[definition["name"].get<std::string>()] =
            definition.value("fields", nlohmann::json::array());
    }
    return out;
}

/// The fields of `workflow`; an empty array when it describes none.
inline const nlohmann::json& fieldsFor(const WorkflowFields& all, const std::string& workflow) {
    static const nlohmann::json none = nlohmann::json::array();
    const auto it = all.find(workflow);
    return it == all.end() ? none : it->second;
}

}  // namespace docintel::plugins
