#pragma once

// What a lease abstract reads when the typed fields (plugins/shared/field_extractor.h,
// docs/decisions/0064) find no value or a value that leans on a defined term: the parties of a
// letter agreement by who signs it, a rent that escalates by review rather than by a
// percentage, and the figure a Particulars table gives a defined term that a clause names
// ("the Service Charge Percentage" → "(18.5 per cent)"). Header-only; pure.

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_extractor.h"

namespace docintel::lease {

/// "<first> (Landlord); <second> (Tenant)" from the first two organisations that sign the lease
/// ("Kettering Row Holdings, LLC, by Ann Roe, Manager", "AGREED: Roe Dental, Inc., by ...",
/// "Signed for X LLP by ..."), for a document that introduces neither role by name (a letter
/// agreement): a lease is signed by its landlord first. A missing field when fewer sign.
inline nlohmann::json signingParties(const plugins::DocText& doc) {
    static const std::regex lead(
        R"(^\s*(?:[A-Za-z ]{1,30}:\s*)?(?:(?:signed|executed)\s+(?:for|by)\s+|for and on behalf of\s+)?)",
        std::regex::icase);
    static const std::regex by(R"(^,?\s+by\s)", std::regex::icase);
    std::vector<std::string> names;
    std::size_t first_at = 0, first_len = 0;
    for (const auto& line : doc.lines()) {
        std::smatch m;
        if (!std::regex_search(line.text, m, lead)) continue;
        const auto from = static_cast<std::size_t>(m.length(0));
        const std::string rest = line.text.substr(from);
        const auto found = plugins::typed::names(rest);
        if (found.empty() || found.front().pos != 0) continue;
        const std::string name = found.front().value.get<std::string>();
        if (name.find(' ') == std::string::npos ||
            !std::regex_search(rest.substr(found.front().len), by)) {
            continue;
        }
        const std::string key = plugins::typed::lower(name);
        bool seen = false;
        for (const auto& n : names) seen = seen || plugins::typed::lower(n) == key;
        if (seen) continue;
        if (names.empty()) {
            first_at = line.pos;
            first_len = line.text.size();
        }
        names.push_back(name);
        if (names.size() == 2) break;
    }
    if (names.size() < 2) return plugins::missingField();
    return plugins::field(names[0] + " (Landlord); " + names[1] + " (Tenant)",
                          doc.source(first_at, first_len), 0.6);
}

/// A rent that is reviewed rather than raised by a percentage or a schedule ("On the Review
/// Date the Rent shall be reviewed to the open market rent", an index-linked rent): the clause
/// that says so, from `units` of `doc`; a missing field when none does. A renewal or
/// extension at market rent is no escalation.
inline nlohmann::json rentReview(const plugins::DocText& doc,
                                 const std::vector<plugins::FieldUnit>& units) {
    static const auto spec = plugins::fieldSpecs(nlohmann::json::parse(R"([
      {"path": "escalations", "type": "text",
       "meaning": ["rent review", "reviewed to", "open market rent", "market rent review",
                   "consumer price index", "cost of living index"]}
    ])"))
                                 .front();
    // A passage about a renewal, an option or holding over sets another rent.
    static const std::regex other(
        R"(\b(?:renew|renewal|extend|extension|option|hold(?:s|ing)? over|holdover)\b)",
        std::regex::icase);
    std::vector<plugins::FieldUnit> about_rent;
    for (const auto& u : units) {
        if (!std::regex_search(u.text, other) && !std::regex_search(u.heading, other)) {
            about_rent.push_back(u);
        }
    }
    return plugins::extractField(spec, doc, about_rent, {});
}

/// `text` with the figure of each defined term it names that a label of `units` gives briefly
/// ("Service Charge Percentage: 18.5 per cent"), in brackets after the term's first mention: a
/// clause that charges "the Service Charge Percentage" states 18.5 per cent through its
/// Particulars. Only a percentage or an amount of money is added, and only once.
inline std::string withDefinedFigures(const std::string& text,
                                      const std::vector<plugins::FieldUnit>& units) {
    static const std::regex term(R"(\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b)");
    std::string out = text;
    std::vector<std::string> done;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), term);
         it != std::sregex_iterator(); ++it) {
        const std::string name = it->str();
        if (std::find(done.begin(), done.end(), name) != done.end()) continue;
        done.push_back(name);
        for (const auto& u : units) {
            const std::string t = plugins::trimmed(u.text);
            if (t.size() <= name.size() + 1 || t.compare(0, name.size(), name) != 0 ||
                t[name.size()] != ':') {
                continue;
            }
            const std::string figure = plugins::trimmed(t.substr(name.size() + 1));
            if (figure.empty() || figure.size() > 40 || out.find(figure) != std::string::npos ||
                (plugins::typed::percentages(figure).empty() &&
                 plugins::typed::money(figure).empty())) {
                continue;
            }
            const std::size_t at = out.find(name);
            if (at != std::string::npos) out.insert(at + name.size(), " (" + figure + ")");
            break;
        }
    }
    return out;
}

}  // namespace docintel::lease
