#pragma once

// A schedule of amounts by period ("| 08/15/2026 – 08/14/2027 | $4,420.00 |", "Year 2: $4,420.00
// per month", "$4,250.00 per month in Lease Year 1 and $4,420.00 in Lease Year 2"): a rent that
// rises by fixed steps instead of a percentage. Header-only; pure; thread-safe (the regexes are
// function-local statics).

#include <algorithm>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// One step of a schedule: the period as written and its amount ("$4,420.00").
struct ScheduleStep {
    std::string period;
    std::string amount;
    double value = 0;
};

/// The steps a line states: each period ("Year 2", "Months 13-24", a date range) with the amount
/// after it, or before it when the line writes amounts first ("$4,250.00 for Year 1").
inline std::vector<ScheduleStep> scheduleSteps(const std::string& line) {
    static const std::regex period(
        R"((?:\b(?:lease\s+)?(?:year|yr|month)s?\s*\d{1,2}(?:\s*(?:-|to|through|\xE2\x80\x93)\s*\d{1,2})?\b)|(?:\b(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+[A-Z][a-z]{2,8}\s+\d{4})\s*(?:-|\xE2\x80\x93|\xE2\x80\x94|to|through)\s*(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+[A-Z][a-z]{2,8}\s+\d{4})))",
        std::regex::icase);
    const std::string clean = cleanLine(line);
    std::vector<std::pair<std::size_t, std::string>> periods;
    for (auto it = std::sregex_iterator(clean.begin(), clean.end(), period);
         it != std::sregex_iterator(); ++it) {
        periods.emplace_back(static_cast<std::size_t>(it->position(0)), trimmed(it->str()));
    }
    const auto amounts = typed::money(clean);
    std::vector<ScheduleStep> out;
    if (periods.empty() || amounts.empty()) return out;
    const bool amounts_first = amounts.front().pos < periods.front().first;
    for (std::size_t k = 0; k < periods.size(); ++k) {
        const std::size_t at = periods[k].first;
        const std::size_t next = k + 1 < periods.size() ? periods[k + 1].first : clean.size();
        const std::size_t before = k > 0 ? periods[k - 1].first : 0;
        const typed::Found* pick = nullptr;
        for (const auto& a : amounts) {
            if (!amounts_first && a.pos > at && a.pos < next) {
                pick = &a;
                break;
            }
            if (amounts_first && a.pos < at && a.pos >= before) pick = &a;  // the nearest
        }
        if (pick == nullptr) continue;
        std::string amount = pick->value.get<std::string>();
        amount = amount.substr(0, amount.find(' '));
        out.push_back({periods[k].second, amount, typed::number(amount.substr(1))});
    }
    return out;
}

/// The schedule of `subject` ("rent") in `doc`: consecutive lines that state steps (a table's
/// rows, a list, or one line with several), at least two, whose amounts rise, under a heading,
/// column or sentence that names the subject. The value lists each step ("fixed rent schedule:
/// $4,250.00 (Year 1); $4,420.00 (Year 2)"), cited from the first step's line to the last's; a
/// missing field when there is none.
inline nlohmann::json amountSchedule(const DocText& doc, const std::string& subject) {
    const auto lines = doc.lines();
    std::size_t first = 0;
    std::vector<ScheduleStep> steps;
    std::size_t last_line = 0;
    auto done = [&]() -> nlohmann::json {
        if (steps.size() < 2) return missingField();
        const bool rising =
            std::is_sorted(steps.begin(), steps.end(),
                           [](const auto& a, const auto& b) { return a.value < b.value; }) &&
            steps.front().value < steps.back().value;
        if (!rising) return missingField();
        // The subject is named by the steps' lines or the few lines above them.
        std::string context;
        for (std::size_t k = first >= 4 ? first - 4 : 0; k <= last_line; ++k) {
            context += lines[k].text + " ";
        }
        if (findPhrase(typed::lower(context), subject) == std::string::npos) return missingField();
        std::string value = "fixed " + subject + " schedule: ";
        for (std::size_t k = 0; k < steps.size(); ++k) {
            value += (k ? "; " : "") + steps[k].amount + " (" + steps[k].period + ")";
        }
        const std::size_t from = lines[first].pos;
        const std::size_t to = lines[last_line].pos + lines[last_line].text.size();
        return field(value, doc.source(from, to - from, 400), 0.75);
    };
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const std::string t = trimmed(lines[li].text);
        // A table's rule line, and blank lines before the first step, keep the run going.
        if (t.empty() && steps.empty()) continue;
        if (t.find("---") != std::string::npos &&
            t.find_first_not_of("|-: ") == std::string::npos) {
            continue;
        }
        auto found = scheduleSteps(lines[li].text);
        if (!found.empty()) {
            if (steps.empty()) first = li;
            last_line = li;
            steps.insert(steps.end(), found.begin(), found.end());
            continue;
        }
        if (auto schedule = done(); !schedule["value"].is_null()) return schedule;
        steps.clear();
    }
    return done();
}

}  // namespace docintel::plugins
