#pragma once

// A period stated as a range of two dates ("From March 1, 2027 to the last day of February,
// 2028", "12/28/2026 through 03/27/2027"): the start, the end and the length of a thing a field
// describes by `span` and `span_of` (docs/decisions/0064). A document that gives a term only as
// its range states its commencement, its expiration and its length all the same. Header-only;
// pure.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Two dates of a text that open and close one period.
struct DateSpan {
    typed::Found start;
    typed::Found end;
};

/// The ranges of `text`: a date after "from", "between" or "begins" and the next date after
/// "to", "through", "until", "and" or "and ends" (a time of day or a defined term may follow the
/// first date: "Begins August 14, 2027 at 12:00 noon and ends July 31, 2028", "from January 1,
/// 2027 (the "Start Date") to December 31, 2036"), or two dates joined by "through" or a dash.
/// Its one reader (spanCandidate) reads only texts that name the period, so two dates joined by
/// "to" or "until" are a range too ("LICENCE PERIOD. February 1, 2027 to January 31, 2029").
inline std::vector<DateSpan> dateSpans(const std::string& text, bool day_first = false) {
    static const std::regex opener(
        R"((?:^|\b)(?:from|between|for the period|begins|beginning|commencing|starting)\s+(?:on\s+)?$)",
        std::regex::icase);
    static const std::regex joined_after_opener(
        R"(^\s*(?:at\s+\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?|noon|midnight)?\s*)?(?:\((?:the\s+)?(?:"|\xE2\x80\x9C)[^"()]{1,40}(?:"|\xE2\x80\x9D)\)\s*)?,?\s*(?:to|through|thru|until|till|and|and\s+ends?(?:\s+on)?|and\s+ending(?:\s+on)?|-|\xE2\x80\x93)\s+(?:and\s+including\s+)?$)",
        std::regex::icase);
    static const std::regex joined(R"(^\s*(?:through|thru|to|until|till|-|\xE2\x80\x93)\s*$)",
                                   std::regex::icase);
    const auto found = typed::dates(text, day_first);
    std::vector<DateSpan> out;
    for (std::size_t i = 0; i + 1 < found.size(); ++i) {
        const auto& a = found[i];
        const auto& b = found[i + 1];
        const std::size_t from = a.pos > 30 ? a.pos - 30 : 0;
        const bool opened = std::regex_search(text.substr(from, a.pos - from), opener);
        const std::string between = text.substr(a.pos + a.len, b.pos - a.pos - a.len);
        if ((opened && std::regex_search(between, joined_after_opener)) ||
            std::regex_search(between, joined)) {
            out.push_back({a, b});
            ++i;
        }
    }
    return out;
}

/// The length of the period from `start` to `end` (ISO dates, both days included) in whole
/// years ("1 years" for March 1, 2027 to February 29, 2028) or else whole months; "" when it is
/// neither.
inline std::string spanLength(const std::string& start, const std::string& end) {
    if (start.size() != 10 || end.size() != 10) return {};
    const int y0 = std::stoi(start.substr(0, 4)), m0 = std::stoi(start.substr(5, 2));
    const int d0 = std::stoi(start.substr(8, 2));
    // The day after the end, as year, month and day.
    int y1 = std::stoi(end.substr(0, 4)), m1 = std::stoi(end.substr(5, 2));
    int d1 = std::stoi(end.substr(8, 2)) + 1;
    if (d1 > typed::daysIn(y1, m1)) {
        d1 = 1;
        if (++m1 > 12) {
            m1 = 1;
            ++y1;
        }
    }
    if (d1 != d0) return {};
    const int months = (y1 - y0) * 12 + (m1 - m0);
    if (months <= 0) return {};
    return months % 12 == 0 ? std::to_string(months / 12) + " years"
                            : std::to_string(months) + " months";
}

/// Whether a phrase of `spec.span_of` names the unit at `i` (in its text or heading) or the
/// run-in heading just before it ("2. TERM." read as a sentence of its own).
inline bool spanNamed(const FieldSpec& spec, const std::vector<FieldUnit>& units, std::size_t i) {
    auto names = [&](const std::string& text) {
        const std::string lower_text = typed::lower(text);
        for (const auto& p : spec.span_of) {
            if (findPhrase(lower_text, p) != std::string::npos) return true;
        }
        return false;
    };
    if (names(units[i].text) || names(units[i].heading)) return true;
    return i > 0 && units[i - 1].text.size() <= 40 && names(units[i - 1].text);
}

/// The value of a field with a `span` (start, end or length) read from the first range that a
/// `span_of` phrase names; no candidate when none does. It scores as a plain hit, so that a
/// value the field's own meaning words state is preferred where a document gives both.
inline Candidate spanCandidate(const FieldSpec& spec, const std::vector<FieldUnit>& units) {
    Candidate out;
    if (spec.span.empty() || spec.span_of.empty()) return out;
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (units[i].is_heading || !spanNamed(spec, units, i)) continue;
        for (const auto& s : dateSpans(units[i].text, units[i].day_first)) {
            const std::string start = s.start.value.get<std::string>();
            const std::string end = s.end.value.get<std::string>();
            nlohmann::json value;
            if (spec.span == "start") value = start;
            if (spec.span == "end") value = end;
            if (spec.span == "length") {
                const std::string length = spanLength(start, end);
                if (length.empty()) continue;
                value = length;
            }
            if (value.is_null()) continue;
            return {1.5, value, &units[i], spec.span == "end" ? s.end.pos : s.start.pos};
        }
    }
    return out;
}

}  // namespace docintel::plugins
