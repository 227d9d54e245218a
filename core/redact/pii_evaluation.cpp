#include "redact/pii_evaluation.h"

#include <cctype>
#include <fstream>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

namespace docintel::redact {

double TypeScore::precision() const {
    const int found = true_positives + false_positives;
    return found == 0 ? 1.0 : static_cast<double>(true_positives) / found;
}

double TypeScore::recall() const {
    return gold() == 0 ? 1.0 : static_cast<double>(true_positives) / gold();
}

plugin::Result<std::vector<LabelledText>> loadLabelledSet(const std::string& path) {
    std::ifstream in(path);
    if (!in) return plugin::Error{"labelled_set_unreadable", "cannot open " + path, 500};
    std::vector<LabelledText> out;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        const auto invalid = [&](const std::string& why) {
            return plugin::Error{"labelled_set_invalid",
                                 path + ":" + std::to_string(number) + ": " + why, 500};
        };
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.contains("text")) return invalid("not a labelled text");
        LabelledText t;
        t.id = j.value("id", std::to_string(number));
        t.text = j["text"].get<std::string>();
        for (const auto& s : j.value("spans", nlohmann::json::array())) {
            const auto type = parsePiiType(s.value("type", ""));
            if (!type) return invalid("unknown type " + s.value("type", ""));
            const std::string value = s.value("value", "");
            std::size_t pos = value.empty() ? std::string::npos : t.text.find(value);
            if (pos == std::string::npos) return invalid("value not in text: " + value);
            // Occurrences inside a longer token ("192.0.2.1" in "192.0.2.10") do not count.
            const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)); };
            for (; pos != std::string::npos; pos = t.text.find(value, pos + 1)) {
                const std::size_t end = pos + value.size();
                if ((pos > 0 && alnum(t.text[pos - 1]) && alnum(value.front())) ||
                    (end < t.text.size() && alnum(t.text[end]) && alnum(value.back()))) {
                    continue;
                }
                t.gold.push_back({*type, pos, end, {}});
            }
        }
        out.push_back(std::move(t));
    }
    return out;
}

Evaluation evaluate(const std::vector<LabelledText>& set, const RedactionOptions& options) {
    Evaluation e;
    for (PiiType type : kAllPiiTypes) {
        if (options.isEnabled(type)) e.by_type[type] = {};
    }
    using Key = std::tuple<PiiType, std::size_t, std::size_t>;
    for (const auto& t : set) {
        std::set<Key> gold;
        for (const auto& g : t.gold) {
            if (options.isEnabled(g.type)) gold.insert({g.type, g.start, g.end});
        }
        std::set<Key> found;
        for (const auto& f : detectPii(t.text, options)) found.insert({f.type, f.start, f.end});
        const auto quote = [&](const Key& k) {
            return std::string(toString(std::get<0>(k))) + " " + t.id + " '" +
                   t.text.substr(std::get<1>(k), std::get<2>(k) - std::get<1>(k)) + "'";
        };
        for (const auto& k : found) {
            TypeScore& s = e.by_type[std::get<0>(k)];
            if (gold.count(k)) {
                ++s.true_positives;
            } else {
                ++s.false_positives;
                e.mistakes.push_back("FP " + quote(k));
            }
        }
        for (const auto& k : gold) {
            if (!found.count(k)) {
                ++e.by_type[std::get<0>(k)].false_negatives;
                e.mistakes.push_back("FN " + quote(k));
            }
        }
    }
    for (const auto& [type, s] : e.by_type) {
        e.overall.true_positives += s.true_positives;
        e.overall.false_positives += s.false_positives;
        e.overall.false_negatives += s.false_negatives;
    }
    return e;
}

}  // namespace docintel::redact
