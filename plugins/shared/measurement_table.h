#pragma once
// A table of measurements whose rows OCR or a plain-text layout left as lines of values under a
// header line of their names: a dialysis run sheet's "Time BP HR Temp Weight", a transport
// record's readings by time. Header-only; pure.

#include <algorithm>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/list_records.h"

namespace docintel::plugins {

/// Measurements of a table whose columns a header line of `lines` names and whose rows OCR or a
/// plain layout left as lines of values ("Time BP HR Temp Weight" over "PRE 07:05 168/94 78 36.6 C
/// 85.4 kg"): the first row under the header, each value read under its column's name. A run
/// sheet's or a transport record's first row is the reading on arrival; later rows are
/// repeats. Each record with the row's position and length.
struct HeadedMeasurement {
    nlohmann::json value;
    std::size_t pos = 0;
    std::size_t len = 0;
};

inline std::vector<HeadedMeasurement> headedMeasurements(const FieldSpec& spec,
                                                         const std::vector<DocText::Line>& lines) {
    std::vector<HeadedMeasurement> out;
    const auto words = [](const std::string& t) {
        std::vector<std::string> w;
        std::istringstream in(t);
        for (std::string x; in >> x;) w.push_back(x);
        return w;
    };
    const auto names = [&](const std::string& token) {
        return namesValue(spec, canonicalName(spec, token));  // "BP", "Temp", "Weight"
    };
    static const std::regex number(R"(^[<>]?\d+(?:\.\d+)?(?:/\d+)?$)");
    static const std::regex unit(R"(^(?:C|F|kg|lb|lbs|%|bpm|mmHg|cm|in|/min)$)");
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto header = words(cleanLine(lines[i].text));
        const auto measured = std::count_if(header.begin(), header.end(), names);
        if (measured < 3 || header.size() - static_cast<std::size_t>(measured) > 2) continue;
        const auto row = words(cleanLine(lines[i + 1].text));
        std::vector<std::pair<std::string, std::string>> values;  // value, unit
        for (std::size_t k = 0; k < row.size(); ++k) {
            if (!std::regex_match(row[k], number)) continue;
            const std::string& n = row[k];
            std::string u;
            if (k + 1 < row.size() && std::regex_match(row[k + 1], unit)) u = row[++k];
            values.emplace_back(n, u);
        }
        // Values skip a time column ("07:05"): each measured column takes the next value.
        std::size_t v = 0;
        for (const auto& column : header) {
            if (!names(column)) continue;
            if (v >= values.size()) break;
            const std::string text = column + " " + values[v].first +
                                     (values[v].second.empty() ? "" : " " + values[v].second);
            ++v;
            if (auto m = measurement(spec, text); m.is_object()) {
                out.push_back({std::move(m), lines[i + 1].pos, lines[i + 1].text.size()});
            }
        }
        break;
    }
    return out;
}

/// Whether `text` may hold a results table's reference column ("Reference", "Ref. range",
/// "Normal range"): most lines do not, and are passed over without a regex.
inline bool mayHoldReferenceColumn(const std::string& text) {
    return text.find("Ref") != std::string::npos || text.find("range") != std::string::npos;
}

/// Measurements of a results table that a PDF's text left as one line, its header first and
/// each row "Name (unit) value ... range" after it ("Test IRF admission 04/07/2027 Discharge
/// 04/26/2027 Reference Hemoglobin (g/dL) 11.6 12.1 12.0-16.0 ... Hemoglobin A1c (%) 7.8 -
/// under 5.7"): the rows start after the header's reference column. Of a row's values the one
/// under the header's latest date, with or without its year ("Admission 08/02 ... Day of
/// discharge 08/06"), is read (the discharge column, not the admission one), the first when the
/// header has no dates or the row no value there (a dash); its flag is the reference range's.
/// Each record with where its row sits in `text`.
inline std::vector<typed::Found> flattenedResultRows(const FieldSpec& spec,
                                                     const std::string& text) {
    std::vector<typed::Found> out;
    if (!mayHoldReferenceColumn(text)) return out;
    static const std::regex header_end(
        R"(\b(?:Reference(?: range| interval)?|Ref\.? range|Normal range)\s)");
    std::smatch h;
    if (!std::regex_search(text, h, header_end)) return out;
    const std::size_t rows_from = static_cast<std::size_t>(h.position(0) + h.length(0));
    std::size_t column = 0;  // the value column of the latest date in the header
    std::string latest;
    std::size_t dated = 0;
    const std::string header = text.substr(0, rows_from);
    std::vector<std::string> column_dates;  // sortable, in column order
    for (const auto& d : typed::dates(header)) column_dates.push_back(d.value.get<std::string>());
    if (column_dates.empty()) {  // dates without their year ("Admission 08/02 ... 08/06")
        static const std::regex month_day(R"(\b(\d{1,2})/(\d{1,2})\b(?!/))");
        for (auto it = std::sregex_iterator(header.begin(), header.end(), month_day);
             it != std::sregex_iterator(); ++it) {
            char key[8];
            std::snprintf(key, sizeof(key), "%02d-%02d", std::stoi((*it)[1]), std::stoi((*it)[2]));
            column_dates.push_back(key);
        }
    }
    for (const auto& d : column_dates) {
        if (d > latest) {
            latest = d;
            column = dated;
        }
        ++dated;
    }
    static const std::regex row(
        R"(([A-Z][A-Za-z0-9 ,'-]{0,40}?) \(([^()]{1,15})\) ((?:(?:[<>]?\d+(?:\.\d+)?|-) ){1,4})(?:(\d+(?:\.\d+)?) ?- ?(\d+(?:\.\d+)?)|(?:under|below|<) ?(\d+(?:\.\d+)?)|(?:over|above|>) ?(\d+(?:\.\d+)?)))");
    for (auto it = std::sregex_iterator(text.begin() + static_cast<std::ptrdiff_t>(rows_from),
                                        text.end(), row);
         it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        std::vector<std::string> values;
        std::istringstream in(m[3].str());
        for (std::string v; in >> v;) values.push_back(v);
        std::string value = column < values.size() ? values[column] : "-";
        if (value == "-") {
            const auto first = std::find_if(values.begin(), values.end(),
                                            [](const std::string& v) { return v != "-"; });
            if (first == values.end()) continue;
            value = *first;
        }
        const std::string range = m[4].matched   ? m[4].str() + "-" + m[5].str()
                                  : m[6].matched ? "0-" + m[6].str()
                                                 : m[7].str() + "-1000000";
        auto record =
            measurement(spec, m[1].str() + " " + value + " " + m[2].str() + " (" + range + ")");
        if (record.is_null()) continue;
        out.push_back({rows_from + static_cast<std::size_t>(m.position(0)),
                       static_cast<std::size_t>(m.length(0)), std::move(record)});
    }
    return out;
}

}  // namespace docintel::plugins
