#pragma once

// The values of a typed field's type in a unit's text (field_extractor.h, docs/decisions/0064):
// dates, amounts, percentages, durations, addresses and codes as typed_values.h reads them, an
// enumeration's words (not an option a tick box leaves unticked), a party's name after its label
// or anywhere, and a text after its label. Header-only; pure.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "shared/evidence.h"
#include "shared/field_spec.h"
#include "shared/form_marks.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether the clause of `lower_text` before `at` negates what stands at `at`: "I am not asking
/// for a fast (expedited) appeal", "we don't need it urgently".
inline bool negatedInClause(const std::string& lower_text, std::size_t at) {
    const std::size_t from = at > 40 ? at - 40 : 0;
    std::string before = lower_text.substr(from, at - from);
    if (const auto cut = before.find_last_of(".;:!?"); cut != std::string::npos) {
        before = before.substr(cut + 1);
    }
    if (const auto dash = before.rfind("\xE2\x80\x94"); dash != std::string::npos) {
        before = before.substr(dash + 3);
    }
    static const std::regex negation(R"(\bnot\b|\bno\b|n't\b)");
    return std::regex_search(before, negation);
}

/// Where the value after a label's end begins: past its colon and spaces.
inline std::size_t valueStart(const std::string& text, std::size_t label_end) {
    while (label_end < text.size() && (text[label_end] == ':' || text[label_end] == ' ')) {
        ++label_end;
    }
    return label_end;
}

/// Values of the spec's type in `text` (numeric dates day first when `day_first`).
inline std::vector<typed::Found> typedValues(const FieldSpec& spec, const std::string& text,
                                             std::size_t label_end, bool day_first = false) {
    if (spec.type == "date") return typed::dates(text, day_first);
    if (spec.type == "money") return typed::money(text);
    if (spec.type == "percentage") return typed::percentages(text);
    if (spec.type == "duration") return typed::durations(text);
    if (spec.type == "address") {
        auto found = typed::addresses(text);
        if (found.empty() && label_end > 0) {
            const std::size_t from = valueStart(text, label_end);
            if (const auto n = typed::labelledAddressLength(text.substr(from)); n > 0) {
                found.push_back({from, n, text.substr(from, n)});
            }
        }
        return found;
    }
    if (spec.type == "code") return typed::codes(text, spec.code);
    if (spec.type == "enumeration") {
        std::vector<typed::Found> out;
        const std::string lower_text = typed::lower(text);
        std::vector<char> taken(text.size(), 0);
        // Longest word first, so that "non-urgent" is not read as "urgent".
        std::vector<std::pair<std::string, std::string>> words;
        for (const auto& [value, synonyms] : spec.values) {
            for (const auto& s : synonyms) words.emplace_back(s, value);
        }
        std::stable_sort(words.begin(), words.end(), [](const auto& a, const auto& b) {
            return a.first.size() > b.first.size();
        });
        for (const auto& [word, value] : words) {
            for (auto at = findPhrase(lower_text, word); at != std::string::npos;
                 at = findPhrase(lower_text, word, at + 1)) {
                if (taken[at] || uncheckedBox(text, at, word.size()) ||
                    negatedInClause(lower_text, at)) {
                    continue;
                }
                std::string stated = value;
                // "Expedited review? [ ] Yes [X] No" states the other of two values.
                if (answeredNo(text, at)) {
                    if (spec.values.size() != 2) continue;
                    const auto first = spec.values.begin();
                    stated = first->first == value ? std::next(first)->first : first->first;
                }
                std::fill(taken.begin() + static_cast<std::ptrdiff_t>(at),
                          taken.begin() + static_cast<std::ptrdiff_t>(at + word.size()), 1);
                out.push_back({at, word.size(), stated});
            }
        }
        return out;
    }
    if (spec.type == "party") {
        // After a label the name is what follows it up to a bracket or the end of the line.
        if (label_end > 0) {
            const std::size_t skip = valueStart(text, label_end);
            std::string rest = text.substr(skip);
            label_end = skip;
            const auto cut = rest.find_first_of("(;:\xE2");
            if (cut != std::string::npos) rest = rest.substr(0, cut);
            // A claim form's next numbered box ends it: "2. PATIENT'S NAME: ROE, ANN, K 3. BIRTH
            // DATE: ...".
            static const std::regex next_box(R"(\s\d{1,2}[a-z]?\.\s+[A-Z])");
            if (std::smatch box; std::regex_search(rest, box, next_box)) {
                rest = rest.substr(0, static_cast<std::size_t>(box.position(0)));
            }
            // A column gap or a middle dot ends it: "Name: Oduya, Fenella Margit     DOB: ...",
            // "Patient: Calloway, Persephone M. · DOB: ...".
            for (const char* end : {"   ", "\xC2\xB7"}) {
                if (const auto gap = rest.find(end); gap != std::string::npos && gap > 0) {
                    rest = rest.substr(0, gap);
                }
            }
            // A label that a form answers by ticking ("... by the payer: [X] Yes [ ] No") names
            // no one.
            if (!tickBoxes(rest).empty()) return {};
            const std::string name = trimmed(rest);
            if (typed::invertedName(name))
                return {{label_end + rest.find(name), name.size(), name}};
            // "MEMBER: Hollingsworth-Ibekwe, Tobias J. DOB 08/02/1979 Member # ...".
            if (const auto n = typed::invertedNameLength(name); n > 0) {
                const std::string first = trimmed(name.substr(0, n));
                return {{label_end + rest.find(first), first.size(), first}};
            }
            auto found = typed::names(rest);
            for (auto& f : found) f.pos += label_end;
            return found;
        }
        // Without a label a single capitalised word is rarely a name ("Home readings").
        auto found = typed::names(text);
        found.erase(std::remove_if(found.begin(), found.end(),
                                   [](const typed::Found& f) {
                                       return f.value.get<std::string>().find(' ') ==
                                              std::string::npos;
                                   }),
                    found.end());
        return found;
    }
    // text: the unit after its label; a form field whose value is a date or a number
    // ("Service From Date: 01/19/2027") states no text.
    if (const auto colon = label_end > 0 ? label_end - 1 : text.find(':');
        colon != std::string::npos) {
        const std::string value = trimmed(text.substr(colon + 1));
        const auto found = typed::dates(value);
        if (std::none_of(value.begin(), value.end(), [](char c) { return std::isalpha(c); }) ||
            (!found.empty() && found.front().len + 3 >= value.size())) {
            return {};
        }
    }
    std::string rest = text.substr(label_end);
    while (!rest.empty() && (rest.front() == ':' || rest.front() == ' ')) rest.erase(0, 1);
    while (!rest.empty() && (rest.back() == ':' || rest.back() == ' ')) rest.pop_back();
    rest = trimmed(rest);
    if (rest.size() < 3) return {};
    return {{label_end, text.size() - label_end, rest}};
}

}  // namespace docintel::plugins
