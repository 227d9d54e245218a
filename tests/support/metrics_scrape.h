#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace docintel::test {

/// A /metrics exposition as Prometheus's Python parser (prometheus-client, installed by
/// `make e2e-deps` into var/metrics-parser) reads it.
struct ScrapedMetrics {
    bool parsed = false;  ///< false: the parser refused the text (or is not installed)
    std::string error;
    nlohmann::json families = nlohmann::json::object();  ///< name → {type, help, samples}

    /// The type the parser gave the family ("" when absent).
    std::string type(const std::string& family) const;
    /// The sum of the samples named `sample` whose labels include every one of `labels`.
    double sum(const std::string& sample,
               const std::map<std::string, std::string>& labels = {}) const;
    /// How many samples named `sample` there are.
    int count(const std::string& sample) const;
};

/// Parses `text` with tests/e2e/metrics/parse_metrics.py.
ScrapedMetrics parseMetrics(const std::string& text);

}  // namespace docintel::test
