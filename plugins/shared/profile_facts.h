#pragma once

// What a résumé, a cover letter or an employee profile states of its person without a label:
// the name the document is headed with (a person's name followed by contact details) and the
// role held now (the experience entry whose dates run to the present, or "I am currently a
// ..."). Header-only; pure; thread-safe (the regexes are function-local statics).

#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// A value read from a document and where it is: [pos, pos+len) of DocText::text.
struct ProfileFact {
    std::string value;
    std::size_t pos = 0;
    std::size_t len = 0;
};

/// Whether `text` holds a way to reach a person: an e-mail address, a phone number or a
/// "City, ST" / "City, State" place.
inline bool holdsContact(const std::string& text) {
    static const std::regex phone_or_place(
        R"(\(?\b\d{3}\)?[\s.-]?\d{3}[.-]\d{4}\b|\b[A-Z][a-z]+,\s+(?:[A-Z]{2}|[A-Z][a-z]{3,})\b)");
    return !typed::emails(text).empty() || std::regex_search(text, phone_or_place);
}

/// The person the document is headed with: its first line starts with a name of two to four
/// words (not a company's: no legal form) and contact details follow on that line or the next
/// ("Priya Raman / Seattle, WA · priya@...", "RUAIRI ROE Phoenix, Arizona | (602) 555-0102").
/// Credentials after a comma ("Ann Roe, RN, BSN") are no part of the name. A title line
/// without contact details ("KESTREL FULFILMENT - INTERNAL JOB POSTING") names no person.
inline std::optional<ProfileFact> headerPerson(const DocText& doc) {
    const auto lines = doc.lines();
    std::size_t first = 0;
    while (first < lines.size() && trimmed(lines[first].text).empty()) ++first;
    if (first >= lines.size()) return std::nullopt;
    const auto& line = lines[first];
    const std::string clean = cleanLine(line.text);
    const std::size_t start = clean.find_first_not_of(" \t");
    const auto found = typed::names(clean);
    if (found.empty() || found.front().pos != start) return std::nullopt;
    std::string name = found.front().value.get<std::string>();
    const bool credentials = name.find(',') != std::string::npos;  // "Ann Roe, RN"
    name = trimmed(name.substr(0, name.find(',')));
    // "Priya Raman Seattle, WA · ...": a line folded into the name's ends with a place; its
    // city is no part of the name ("San Diego", "New York": with the word that opens it).
    static const std::regex state(R"(^,\s+(?:[A-Z]{2}\b|[A-Z][a-z]{3,}))");
    if (!credentials && std::regex_search(clean.substr(start + name.size()), state)) {
        static const std::vector<std::string> openers = {"San",  "Santa", "Los", "Las", "New",
                                                         "Salt", "Fort",  "St.", "El",  "Saint"};
        name = name.substr(0, name.rfind(' '));
        const auto space = name.rfind(' ');
        if (space != std::string::npos && std::count(name.begin(), name.end(), ' ') >= 2 &&
            std::find(openers.begin(), openers.end(), name.substr(space + 1)) != openers.end()) {
            name = name.substr(0, space);
        }
    }
    const auto words = std::count(name.begin(), name.end(), ' ') + 1;
    if (words < 2 || words > 4) return std::nullopt;
    static const std::regex legal(R"(\b(?:LLC|L\.L\.C|Inc|Ltd|Corp|LLP|L\.P|N\.A)\b\.?)",
                                  std::regex::icase);
    if (std::regex_search(name, legal)) return std::nullopt;
    std::string after = clean.substr(start + found.front().len);
    std::size_t next = first + 1;
    while (next < lines.size() && trimmed(lines[next].text).empty()) ++next;
    if (next < lines.size()) after += "\n" + lines[next].text;
    if (!holdsContact(after)) return std::nullopt;
    return ProfileFact{name, line.pos + start, name.size()};
}

/// The name written with an e-mail address ("From: Ann Roe <ann.roe@x.example>"): a person's
/// name of two to four words right before the address in angle brackets on its line.
inline std::optional<ProfileFact> nameWithAddress(const DocText& doc, const std::string& email) {
    if (email.empty()) return std::nullopt;
    const auto at = doc.text.find("<" + email + ">");
    if (at == std::string::npos) return std::nullopt;
    const auto line = doc.text.rfind('\n', at);
    const std::size_t from = line == std::string::npos ? 0 : line + 1;
    const auto found = typed::names(doc.text.substr(from, at - from));
    if (found.empty()) return std::nullopt;
    const auto& last = found.back();
    std::string name = last.value.get<std::string>();
    const auto words = std::count(name.begin(), name.end(), ' ') + 1;
    if (words < 2 || words > 4 ||
        trimmed(doc.text.substr(from + last.pos + last.len, at - from - last.pos - last.len))
                .size() > 1) {
        return std::nullopt;
    }
    return ProfileFact{name, from + last.pos, last.len};
}

/// The role of an experience entry's first line ("Senior Data Engineer — Tessellate Freight,
/// Seattle, WA", "Accounts Payable Specialist, Sonoran Supply Co., Tempe, AZ"): the words
/// before the dash, bar or " at " that separates it from the employer, else before the first
/// comma; the employer is what follows, up to its comma. Empty when it reads as no title.
inline std::pair<std::string, std::string> roleAndEmployer(std::string entry) {
    for (const char* dash : {"\xE2\x80\x94", "\xE2\x80\x93"}) {
        for (auto at = entry.find(dash); at != std::string::npos; at = entry.find(dash, at + 1)) {
            entry.replace(at, 3, "-");
        }
    }
    entry = trimmed(cleanLine(entry));
    while (!entry.empty() && (entry.back() == ':' || entry.back() == ' ' || entry.back() == '(' ||
                              entry.back() == '-' || entry.back() == ',')) {
        entry.pop_back();
    }
    std::string title, employer;
    std::size_t cut = std::string::npos, skip = 0;
    for (const char* sep : {" - ", " : ", " at ", " @ "}) {
        const auto at = entry.find(sep);
        if (at != std::string::npos && at < cut) {
            cut = at;
            skip = std::string(sep).size();
        }
    }
    if (cut == std::string::npos) {
        cut = entry.find(", ");
        skip = 2;
    }
    title = trimmed(entry.substr(0, cut));
    if (cut != std::string::npos) {
        employer = trimmed(entry.substr(cut + skip));
        employer = trimmed(employer.substr(0, employer.find_first_of(",(|")));
    }
    const auto words = std::count(title.begin(), title.end(), ' ') + 1;
    if (title.size() < 3 || words > 8 || !std::isupper(static_cast<unsigned char>(title[0]))) {
        return {};
    }
    return {title, employer};
}

/// The role held now and its employer: the experience entry whose dates run to the present
/// ("March 2021 – present", "Jan 2022 - Current", "(since August 2021)"), its title on the
/// dates' line or the line above; else a sentence "I am currently a UX Designer at ...".
inline std::optional<std::pair<ProfileFact, std::string>> currentRole(const DocText& doc) {
    static const std::regex now(
        R"((?:\b[A-Za-z]{3,9}\.?\s+)?\b(?:19|20)\d{2}\s*(?:-|\xE2\x80\x93|\xE2\x80\x94|to)\s*(?:present|current|now|today)\b|\(\s*since\s+(?:[A-Za-z]{3,9}\.?\s+)?(?:19|20)\d{2}\s*\))",
        std::regex::icase);
    const auto lines = doc.lines();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_search(lines[i].text, m, now)) continue;
        const auto at = static_cast<std::size_t>(m.position(0));
        std::string entry = lines[i].text.substr(0, at);
        std::size_t pos = lines[i].pos;
        if (trimmed(cleanLine(entry)).find(' ') == std::string::npos) {
            // The dates on a line of their own: the entry is the line above.
            std::size_t k = i;
            while (k > 0 && trimmed(lines[k - 1].text).empty()) --k;
            if (k == 0) continue;
            entry = lines[k - 1].text;
            pos = lines[k - 1].pos;
        }
        auto [title, employer] = roleAndEmployer(entry);
        if (employer.empty() && i > 0 && pos == lines[i].pos) {
            // "Registered Nurse, Step-Down Unit\nScioto Medical Center (since 2021)": a line
            // break put back before " - " (restoreLines) cut the title from its employer.
            const std::string above = trimmed(lines[i - 1].text);
            if (!above.empty() && above.back() != '.' && above.back() != ':' &&
                (above.find(", ") != std::string::npos ||
                 std::count(above.begin(), above.end(), ' ') >= 2)) {
                auto joined = roleAndEmployer(above + " - " + entry.substr(bulletMarker(entry)));
                if (!joined.second.empty()) {
                    std::tie(title, employer) = joined;
                    pos = lines[i - 1].pos;
                }
            }
        }
        if (title.empty()) continue;
        const auto in_line = doc.text.find(title, pos);
        return std::make_pair(
            ProfileFact{title, in_line == std::string::npos ? pos : in_line, title.size()},
            employer);
    }
    static const std::regex currently(
        R"(\b(?:(?:I am|I'm|is),?\s+)?currently,?\s+(?:working as\s+|serving as\s+)?(?:an?|the)\s+((?:[A-Z][\w&/+.-]*)(?:\s+(?:[A-Z][\w&/+.-]*|of|and|&))*)(?:\s+(?:at|with|for|in)\s+((?:[A-Z][\w&'.-]*)(?:\s+[A-Z][\w&'.-]*)*))?)");
    std::smatch m;
    if (std::regex_search(doc.text, m, currently)) {
        return std::make_pair(ProfileFact{m[1].str(), static_cast<std::size_t>(m.position(1)),
                                          static_cast<std::size_t>(m.length(1))},
                              m[2].matched ? m[2].str() : std::string());
    }
    return std::nullopt;
}

}  // namespace docintel::plugins
