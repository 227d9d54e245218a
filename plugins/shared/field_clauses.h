#pragma once

// The clauses of one article as a typed text field reads them (field_extractor.h,
// docs/decisions/0064): when the heading of the passage that states a text field names its
// meaning ("ARTICLE 6 - MAINTENANCE AND REPAIRS") and the passage is a numbered clause of it
// ("6.2 Landlord shall maintain the roof ..."), the field is what the whole article says, each
// party's part ("6.1 Tenant ... dock doors ..." as well). Header-only; pure.

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether `text` opens with a clause's number within an article ("6.2 ", "Section 4.02 ").
inline bool numberedClause(const std::string& text) {
    static const std::regex number(R"(^\s*(?:[Ss]ection\s+)?\d{1,2}\.\d{1,2}\s)");
    return std::regex_search(text, number);
}

/// The text of the article under `best`'s heading (in `doc`), its clauses in order and each once
/// with the later sentences of a clause's line, when `best` is a numbered clause, the heading
/// states the meaning of `spec` and the article has at most `kMaxClauses` clauses; "" otherwise.
inline std::string articleText(const FieldSpec& spec, const FieldUnit& best,
                               const std::vector<FieldUnit>& units, const DocText& doc) {
    constexpr std::size_t kMaxClauses = 6;
    if (spec.type != "text" || best.heading.empty() || !numberedClause(best.text)) return {};
    const std::string heading = typed::lower(best.heading);
    if (std::none_of(spec.meaning.begin(), spec.meaning.end(), [&](const std::string& p) {
            return findPhrase(heading, p) != std::string::npos;
        })) {
        return {};
    }
    // The widest unit of each place under the heading (a line, not its sentences).
    std::vector<const FieldUnit*> under;
    for (const auto& u : units) {
        if (u.heading == best.heading && !u.is_heading && !u.caption) under.push_back(&u);
    }
    std::stable_sort(under.begin(), under.end(), [](const FieldUnit* a, const FieldUnit* b) {
        return a->pos != b->pos ? a->pos < b->pos : a->len > b->len;
    });
    std::string out;
    std::size_t covered = 0, clauses = 0;
    for (const FieldUnit* u : under) {
        if (u->pos < covered) continue;
        // A later sentence of a clause's line ("5.2 Maintenance. Tenant shall ... . Landlord has
        // no repair obligation.") goes on with the clause.
        const bool same_line = clauses > 0 && doc.text.find('\n', covered) >= u->pos;
        if (!same_line && !numberedClause(u->text)) return {};  // an article of prose
        if (!same_line && ++clauses > kMaxClauses) return {};
        out += (out.empty() ? "" : " ") + trimmed(u->text);
        covered = u->pos + u->len;
    }
    return clauses >= 2 ? out : std::string();
}

/// The numbered clause that `best` (a sentence of it) belongs to, whole ("4.1 ... Tenant shall
/// pay its Pro Rata Share of ... . Tenant's Pro Rata Share is 4.6%."): the line of `doc` that
/// holds `best`, when it opens with a clause number and is at most `kMaxLength` long; "" when
/// it does not or `best` is the whole line.
inline std::string clauseText(const FieldSpec& spec, const FieldUnit& best, const DocText& doc) {
    constexpr std::size_t kMaxLength = 700;
    if (spec.type != "text") return {};
    for (const auto& line : doc.lines()) {
        if (best.pos < line.pos || best.pos >= line.pos + line.text.size()) continue;
        if (line.text.size() > kMaxLength || best.len >= line.text.size() ||
            !numberedClause(line.text) || line.text.find(" | ") != std::string::npos) {
            return {};
        }
        return trimmed(cleanLine(line.text));
    }
    return {};
}

}  // namespace docintel::plugins
