#pragma once

// List items a document states by a status or a flag rather than under a heading or a label
// (field_lists.h reads them when no section, label, column or running sentence gives any): a
// care gap is a preventive item stated as not done ("Pneumococcal vaccine not given - due."), a
// risk flag a risk stated about the patient ("HIGH FALL RISK - 2 assist for transfers."). A text
// list's `values` are those statuses or flags, each with the words that state it. Header-only;
// thread-safe (no state).

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/list_pieces.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// The clauses of a line: its parts between ";" and sentence ends, as [start, length).
inline std::vector<std::pair<std::size_t, std::size_t>> lineClauses(const std::string& t) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= t.size(); ++i) {
        const bool sentence_end =
            i < t.size() && t[i] == '.' &&
            (i + 1 == t.size() || (t[i + 1] == ' ' && i + 2 < t.size() &&
                                   (std::isupper(static_cast<unsigned char>(t[i + 2])) ||
                                    std::isdigit(static_cast<unsigned char>(t[i + 2])))));
        if (i == t.size() || t[i] == ';' || sentence_end) {
            if (i > start) out.emplace_back(start, i - start);
            start = i + 1;
        }
    }
    return out;
}

/// A text item read as the value it is a word for: a piece that is, whole, a word of one of the
/// `values` of `spec` other than the value's own name is that value, with the word as written
/// after it ("HTN" → "hypertension (HTN)"); any other piece as it is.
inline std::string valueNamed(const FieldSpec& spec, const std::string& piece) {
    const std::string l = typed::lower(trimmed(piece));
    for (const auto& [value, words] : spec.values) {
        if (typed::lower(value) == l) return piece;
        for (const auto& w : words) {
            if (w == l) return value + " (" + trimmed(piece) + ")";
        }
    }
    return piece;
}

/// The items of `doc` stated by a word of one of the `values` of `spec`: where a label holds the
/// phrase, the items it names after its colon ("Due but deferred at the parent's request: MMR
/// dose 2 and varicella dose 2"); otherwise the clause that holds it, whole. A clause with an
/// `avoid` phrase states none ("due to ..."), and a clause that goes on, in lower case after a
/// ";", about the item just stated ("...; offered today and declined") is no second item.
inline std::vector<ListPiece> statedPieces(const FieldSpec& spec, const DocText& doc) {
    std::vector<ListPiece> out;
    if (spec.values.empty()) return out;
    auto states = [&](const std::string& lower_clause) -> std::size_t {
        std::size_t first = std::string::npos;
        for (const auto& [value, words] : spec.values) {
            for (const auto& w : words) first = std::min(first, findPhrase(lower_clause, w));
        }
        return first;
    };
    for (const auto& line : doc.lines()) {
        const std::string t = cleanLine(line.text);
        bool stated_before = false;
        for (const auto& [s, n] : lineClauses(t)) {
            const std::string clause = t.substr(s, n);
            const std::string lower_clause = typed::lower(clause);
            const std::size_t at = states(lower_clause);
            const bool goes_on =
                stated_before && s > 0 && t[s - 1] == ';' &&
                clause.find_first_not_of(' ') != std::string::npos &&
                std::islower(static_cast<unsigned char>(clause[clause.find_first_not_of(' ')]));
            stated_before = false;
            if (at == std::string::npos || goes_on ||
                std::any_of(spec.avoid.begin(), spec.avoid.end(), [&](const std::string& a) {
                    return findPhrase(lower_clause, a) != std::string::npos;
                })) {
                continue;
            }
            stated_before = true;
            const auto colon = clause.find(": ");
            if (colon != std::string::npos && at < colon) {
                // The label states the status: its items are named after it, also joined by
                // "and".
                std::size_t from = colon + 2;
                while (from < clause.size()) {
                    std::size_t to = std::min(clause.find(',', from), clause.find(" and ", from));
                    if (to == std::string::npos) to = clause.size();
                    ListPiece p = trimmedPiece(
                        {line.pos + s + from, to - from, clause.substr(from, to - from)});
                    if (p.text.size() >= 2) out.push_back(std::move(p));
                    from = to + (clause.compare(to, 5, " and ") == 0 ? 5 : 1);
                }
                continue;
            }
            ListPiece p = trimmedPiece({line.pos + s, n, clause});
            if (p.text.size() >= 3) out.push_back(std::move(p));
        }
    }
    return out;
}

}  // namespace docintel::plugins
