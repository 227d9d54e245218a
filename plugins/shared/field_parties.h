#pragma once

// The parties of a typed party field (field_extractor.h, docs/decisions/0064): each role's name
// as a document introduces it ("X ("Landlord")", "Tenant: Y", or another word for the role),
// and a person's name that a form splits into "Last Name", "First Name" and "MI" fields.
// Header-only; pure.

#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "shared/field_meaning.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether a name is only function words ("The" of "The undersigned", "And" of "And to:"): a
/// capitalised word that opens a sentence, not a party.
inline bool onlyFunctionWords(const std::string& name) {
    static const std::vector<std::string> function_words = {"the",  "a",    "an", "and", "or",
                                                            "this", "that", "to", "by",  "of"};
    std::size_t i = 0;
    const std::string v = typed::lower(name);
    while (i < v.size()) {
        std::size_t j = v.find(' ', i);
        if (j == std::string::npos) j = v.size();
        const std::string word = v.substr(i, j - i);
        i = j + 1;
        if (!word.empty() &&
            std::find(function_words.begin(), function_words.end(), word) == function_words.end()) {
            return false;
        }
    }
    return true;
}

/// The name a unit gives the party of role word `word`: the name written before `("Word")` or
/// before ", [as] Word," (after "between" / "and" / "by") or after a "Word:" label (a bracketed
/// note may stand between them); "" when none.
inline std::string partyNamed(const FieldSpec& spec, const FieldUnit& u, const std::string& word) {
    const std::string lower_text = typed::lower(u.text);
    // "(the "Landlord")", "(together, "Landlord")", "(hereinafter called "Tenant")".
    const std::regex paren(
        "\\((?:(?:together|collectively|jointly|severally|individually|and|each|hereinafter|herein|"
        "called|referred|to|as|the),?\\s+){0,4}[\"\\xE2\\x80\\x9C]*" +
            word + "[\"\\xE2\\x80\\x9D]*\\)",
        std::regex::icase);
    // A role's word is no name ("OWNER (LANDLORD): ...").
    auto usable = [&](const std::string& name) {
        const std::string v = typed::lower(name);
        const auto is = [&](const std::vector<std::string>& words) {
            return std::find(words.begin(), words.end(), v) != words.end();
        };
        return !onlyFunctionWords(name) && !is(spec.roles) &&
               std::none_of(spec.role_words.begin(), spec.role_words.end(),
                            [&](const auto& role) { return is(role.second); });
    };
    // Where the joining word ("between", "and", "by", "to") nearest before `p` stands and where the
    // words after it begin; {0, 0} when none comes before `p`.
    auto joinedAt = [&](std::size_t p) {
        std::pair<std::size_t, std::size_t> at{0, 0};
        for (const std::string w : {" between ", " and ", "by ", " to "}) {
            const auto found = lower_text.rfind(w, p - 1);
            if (found != std::string::npos && found + w.size() <= p &&
                found + w.size() > at.second) {
                at = {found, found + w.size()};
            }
        }
        return at;
    };
    // The name between the joining word nearest before `p` and `p`; "" when no joining word
    // comes before it and `joined` is asked for. When the words after that joining word name
    // nobody ("..., husband and wife ("Landlord")"), the one before it is tried.
    auto nameBefore = [&](std::size_t p, bool joined) -> std::string {
        auto at = joinedAt(p);
        if (joined && at.second == 0) return {};
        for (int tries = 0; tries < 2 && at.second > 0; ++tries) {
            const auto names = typed::names(u.text.substr(at.second, p - at.second));
            if (std::any_of(names.begin(), names.end(), [&](const typed::Found& f) {
                    return usable(f.value.get<std::string>());
                })) {
                break;
            }
            const auto earlier = joinedAt(at.first);
            if (earlier.second == 0) break;
            at = earlier;
        }
        const std::size_t from = at.second;
        const auto found = typed::names(u.text.substr(from, p - from));
        for (std::size_t k = 0; k < found.size(); ++k) {
            const std::string name = found[k].value.get<std::string>();
            if (!usable(name)) continue;
            // "between Ann Roe and Bo Roe, husband and wife (together, "Landlord")": two people
            // joined by "and" are one party.
            if (k + 1 < found.size()) {
                const std::size_t after = found[k].pos + found[k].len;
                const std::string next = found[k + 1].value.get<std::string>();
                if (lower_text.compare(from + after, 5, " and ") == 0 &&
                    found[k + 1].pos == after + 5 && typed::personName(name) &&
                    typed::personName(next)) {
                    return name + " and " + next;
                }
            }
            // "... and Ann Roe and Bo Roe ("Residents")": co-parties joined by "and", each
            // named alone between the joining words.
            if (from >= 5 && lower_text.compare(from - 5, 5, " and ") == 0) {
                const std::size_t before = joinedAt(from - 5).second;
                const std::string other = trimmed(u.text.substr(before, from - 5 - before));
                const auto found = typed::names(other);
                if (before > 0 && found.size() == 1 && found.front().value == other &&
                    typed::personName(other) && typed::personName(name)) {
                    return other + " and " + name;
                }
            }
            return name;
        }
        return {};
    };
    std::smatch m;
    if (std::regex_search(u.text, m, paren)) {
        if (auto name = nameBefore(static_cast<std::size_t>(m.position(0)), false); !name.empty()) {
            return name;
        }
    }
    // "between Ann Roe, Landlord, and Dunmore Grain, LLC, Tenant" / "..., as Landlord": the role
    // word set off by commas after a name that a joining word introduces.
    const std::regex apposed(",\\s+(?:as\\s+)?(?:the\\s+)?" + word + "\\s*(?:[,.;]|$)",
                             std::regex::icase);
    if (std::regex_search(u.text, m, apposed)) {
        if (auto name = nameBefore(static_cast<std::size_t>(m.position(0)), true); !name.empty()) {
            return name;
        }
    }
    std::size_t end = 0;
    if (findPhrase(lower_text, word, 0, &end) == std::string::npos) return {};
    // "Tenant:", "OWNER (LANDLORD):".
    end = labelMark(u.text, end);
    if (end >= u.text.size() || u.text[end] != ':') return {};
    std::string rest = u.text.substr(end + 1);
    rest = rest.substr(0, rest.find_first_of("(;"));
    for (const auto& f : typed::names(rest)) {
        if (usable(f.value.get<std::string>())) return f.value.get<std::string>();
    }
    return {};
}

/// "<name> (<Role>); ..." for a party field with roles: for each role the name the first unit
/// that names it gives it (partyNamed), by the role's own word or another word for it
/// (`role_words`: a ground lease's "Ground Lessor", a residential lease's "Residents").
inline Candidate partiesWithRoles(const FieldSpec& spec, const std::vector<FieldUnit>& units) {
    Candidate out;
    std::string joined;
    double score = 0;
    const FieldUnit* first = nullptr;
    for (const auto& role : spec.roles) {
        std::vector<std::string> words = {role};
        for (const auto& [r, others] : spec.role_words) {
            if (r == role) words.insert(words.end(), others.begin(), others.end());
        }
        std::string name;
        const FieldUnit* where = nullptr;
        for (const auto& u : units) {
            for (const auto& word : words) {
                name = partyNamed(spec, u, word);
                if (!name.empty()) break;
            }
            if (!name.empty()) {
                where = &u;
                break;
            }
        }
        if (name.empty()) continue;
        std::string label = role;
        label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
        joined += (joined.empty() ? "" : "; ") + name + " (" + label + ")";
        score += 1.0;
        if (first == nullptr) first = where;
    }
    if (first == nullptr) return out;
    out.score = score + 1.0;
    out.value = joined;
    out.unit = first;
    return out;
}

/// A unit "[prefix] <label>: <value>" for one of `labels` (a regex alternation, e.g. "first
/// name|given name"): its prefix (lower case) and value, trimmed.
struct NamePart {
    std::string prefix;
    std::string value;
};

inline std::optional<NamePart> namePart(const FieldUnit& u, const std::string& labels) {
    const std::regex re("^\\s*(.*?)\\b(?:" + labels + ")\\s*:\\s*(\\S.*?)\\s*$", std::regex::icase);
    std::smatch m;
    if (!std::regex_search(u.text, m, re)) return std::nullopt;
    return NamePart{typed::lower(trimmed(m[1].str())), trimmed(m[2].str())};
}

/// A person's name a form gives in fields of its own ("Member Last Name: ROE", "Member First
/// Name: ANN", "Member MI: B") read as "ANN B ROE": the last-name label names the field's
/// subject (a meaning word of `spec` before it, or none in a section that names no `avoid`
/// subject) and the first name follows within four units.
inline Candidate splitPersonName(const FieldSpec& spec, const std::vector<FieldUnit>& units) {
    Candidate out;
    if (!spec.person) return out;
    for (std::size_t i = 0; i < units.size(); ++i) {
        const auto last = namePart(units[i], "last name|surname|family name");
        if (!last || last->value.find(':') != std::string::npos) continue;
        const bool ours = last->prefix.empty()
                              ? std::none_of(spec.avoid.begin(), spec.avoid.end(),
                                             [&](const std::string& a) {
                                                 return findPhrase(typed::lower(units[i].heading),
                                                                   a) != std::string::npos;
                                             })
                              : std::find(spec.meaning.begin(), spec.meaning.end(), last->prefix) !=
                                    spec.meaning.end();
        if (!ours) continue;
        std::string first, middle;
        for (std::size_t j = i + 1; j < units.size() && j <= i + 4; ++j) {
            if (const auto f = namePart(units[j], "first name|given name"); f && first.empty()) {
                first = f->value;
            } else if (const auto mi = namePart(units[j], "mi|m\\.i\\.|middle initial|middle name");
                       mi && middle.empty()) {
                middle = mi->value;
            }
        }
        if (first.empty()) continue;
        out.score = 2.5;
        out.value = first + (middle.empty() ? "" : " " + middle) + " " + last->value;
        out.unit = &units[i];
        return out;
    }
    return out;
}

}  // namespace docintel::plugins
