#include "support/metrics_scrape.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/id.h"
#include "support/server_process.h"
#include "support/test_server.h"

namespace docintel::test {

namespace {

template <typename F>
void forSamples(const nlohmann::json& families, const std::string& sample, F&& f) {
    for (const auto& [_, family] : families.items()) {
        for (const auto& s : family["samples"]) {
            if (s.value("name", "") == sample) f(s);
        }
    }
}

}  // namespace

std::string ScrapedMetrics::type(const std::string& family) const {
    return families.contains(family) ? families[family].value("type", "") : "";
}

double ScrapedMetrics::sum(const std::string& sample,
                           const std::map<std::string, std::string>& labels) const {
    double total = 0;
    forSamples(families, sample, [&](const nlohmann::json& s) {
        for (const auto& [name, value] : labels) {
            if (s["labels"].value(name, std::string("\x01")) != value) return;
        }
        if (s["value"].is_number()) total += s["value"].get<double>();
    });
    return total;
}

int ScrapedMetrics::count(const std::string& sample) const {
    int n = 0;
    forSamples(families, sample, [&](const nlohmann::json&) { ++n; });
    return n;
}

ScrapedMetrics parseMetrics(const std::string& text) {
    ScrapedMetrics scraped;
    const auto file =
        std::filesystem::temp_directory_path() / ("docintel-metrics-" + common::newUuid());
    std::ofstream(file) << text;
    const std::string python = sourceDir() + "/var/metrics-parser/bin/python";
    const std::string script = sourceDir() + "/tests/e2e/metrics/parse_metrics.py";
    const auto [status, out] =
        ServerProcesses::run("", python + " " + script + " " + file.string());
    std::filesystem::remove(file);
    if (status != 0) {
        scraped.error = "parse_metrics.py exited " + std::to_string(status) +
                        " (is var/metrics-parser installed? `make e2e-deps`)";
        return scraped;
    }
    const auto json = nlohmann::json::parse(out, nullptr, false);
    if (json.is_discarded()) {
        scraped.error = "parse_metrics.py printed no JSON";
        return scraped;
    }
    scraped.parsed = true;
    scraped.families = json["families"];
    return scraped;
}

}  // namespace docintel::test
