#pragma once
// A table of measurements whose rows OCR or a plain-text layout left as lines of values under a
// header line of their names: a dialysis run sheet's "Time BP HR Temp Weight", a transport
// record's readings by time. Header-only; pure.

#include <algorithm>
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

}  // namespace docintel::plugins
