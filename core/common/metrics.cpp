#include "common/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace docintel::common {

namespace {

/// A label value (`quotes`) or a HELP text as the exposition format escapes them.
std::string escaped(const std::string& text, bool quotes) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '"' && quotes) {
            out += "\\\"";
        } else {
            out += c;
        }
    }
    return out;
}

std::string number(double v) {
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    if (std::isnan(v)) return "NaN";
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return std::to_string(static_cast<long long>(v));
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", v);
    return buffer;
}

std::string series(const std::string& name, const MetricLabels& labels,
                   const std::pair<std::string, std::string>* extra = nullptr) {
    std::string out = name;
    if (labels.empty() && !extra) return out;
    out += '{';
    bool first = true;
    const auto put = [&](const std::pair<std::string, std::string>& label) {
        if (!first) out += ',';
        first = false;
        out += label.first + "=\"" + escaped(label.second, true) + '"';
    };
    for (const auto& label : labels) put(label);
    if (extra) put(*extra);
    out += '}';
    return out;
}

void header(std::string& out, const std::string& name, const std::string& type,
            const std::string& help) {
    out += "# HELP " + name + ' ' + escaped(help, false) + '\n';
    out += "# TYPE " + name + ' ' + type + '\n';
}

}  // namespace

const std::vector<double> Metrics::kLatencyBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                      0.5,   1,    2.5,   5,    10};

Metrics& Metrics::instance() {
    static Metrics metrics;
    return metrics;
}

void Metrics::add(const std::string& name, const std::string& help, const MetricLabels& labels,
                  double value) {
    std::lock_guard lock(mutex_);
    Family& family = families_[name];
    if (family.type.empty()) family = Family{"counter", help, {}, {}};
    family.counters[labels] += std::max(0.0, value);
}

void Metrics::observe(const std::string& name, const std::string& help, const MetricLabels& labels,
                      double seconds) {
    std::lock_guard lock(mutex_);
    Family& family = families_[name];
    if (family.type.empty()) family = Family{"histogram", help, {}, {}};
    Histogram& h = family.histograms[labels];
    if (h.counts.empty()) h.counts.assign(kLatencyBuckets.size() + 1, 0);
    const auto bucket = std::lower_bound(kLatencyBuckets.begin(), kLatencyBuckets.end(), seconds);
    ++h.counts[static_cast<std::size_t>(bucket - kLatencyBuckets.begin())];
    h.sum += seconds;
    ++h.count;
}

int Metrics::addReader(Reader reader) {
    std::lock_guard lock(mutex_);
    const int id = next_reader_++;
    readers_.emplace(id, std::move(reader));
    return id;
}

void Metrics::removeReader(int id) {
    std::unique_lock running(reading_);
    std::lock_guard lock(mutex_);
    readers_.erase(id);
}

std::string Metrics::render() const {
    // Readers query the database: call them outside the lock, merging families of one name
    // (two App instances in one process each read their own parts).
    std::shared_lock running(reading_);
    std::vector<Reader> readers;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [_, reader] : readers_) readers.push_back(reader);
    }
    std::map<std::string, Reading> read;
    for (const auto& reader : readers) {
        for (auto& reading : reader()) {
            Reading& into = read[reading.name];
            if (into.name.empty()) {
                into = std::move(reading);
            } else {
                for (auto& sample : reading.samples) into.samples.push_back(std::move(sample));
            }
        }
    }
    std::string out;
    for (const auto& [name, reading] : read) {
        header(out, name, reading.type, reading.help);
        for (const auto& [labels, value] : reading.samples) {
            out += series(name, labels) + ' ' + number(value) + '\n';
        }
    }
    running.unlock();
    std::lock_guard lock(mutex_);
    for (const auto& [name, family] : families_) {
        if (read.count(name)) continue;
        header(out, name, family.type, family.help);
        for (const auto& [labels, value] : family.counters) {
            out += series(name, labels) + ' ' + number(value) + '\n';
        }
        for (const auto& [labels, h] : family.histograms) {
            std::uint64_t cumulative = 0;
            for (std::size_t i = 0; i < h.counts.size(); ++i) {
                cumulative += h.counts[i];
                const std::pair<std::string, std::string> le{
                    "le", i < kLatencyBuckets.size() ? number(kLatencyBuckets[i]) : "+Inf"};
                out += series(name + "_bucket", labels, &le) + ' ' + number(cumulative) + '\n';
            }
            out += series(name + "_sum", labels) + ' ' + number(h.sum) + '\n';
            out += series(name + "_count", labels) + ' ' + number(h.count) + '\n';
        }
    }
    return out;
}

void recordRequest(const std::string& operation, const std::string& method, int status,
                   double seconds) {
    const MetricLabels labels{
        {"operation", operation}, {"method", method}, {"status", std::to_string(status)}};
    Metrics& m = Metrics::instance();
    m.add("docintel_http_requests_total", "Requests served, by operation, method and status.",
          labels);
    m.observe("docintel_http_request_duration_seconds",
              "Time from the request read to the response ready, by operation, method and status.",
              labels, seconds);
}

}  // namespace docintel::common
