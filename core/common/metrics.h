#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace docintel::common {

/// Label names and values of one series, in the order they are written.
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

/// What an operator scrapes at GET /metrics (docs/deployment.md): counters and histograms the
/// code adds to as things happen, and gauges read when scraped. The registry is process-wide,
/// as a process is what Prometheus scrapes. Thread-safe.
class Metrics {
  public:
    /// The process's registry.
    static Metrics& instance();

    /// Adds `value` (≥ 0) to the counter `name`{labels}; the family is created on first use
    /// with `help`.
    void add(const std::string& name, const std::string& help, const MetricLabels& labels,
             double value = 1);

    /// Records one observation of `name`{labels} in seconds, in the histogram buckets of
    /// kLatencyBuckets.
    void observe(const std::string& name, const std::string& help, const MetricLabels& labels,
                 double seconds);

    /// A family whose samples are read when scraped.
    struct Reading {
        std::string name;
        std::string type;  ///< "gauge" or "counter"
        std::string help;
        std::vector<std::pair<MetricLabels, double>> samples;
    };
    using Reader = std::function<std::vector<Reading>()>;

    /// Adds a reader, called on every scrape until removed; returns its id.
    int addReader(Reader reader);
    /// Removes a reader; returns once no scrape is still calling it.
    void removeReader(int id);

    /// Everything in the Prometheus text exposition format (version 0.0.4).
    std::string render() const;

    static const std::vector<double> kLatencyBuckets;

  private:
    struct Histogram {
        std::vector<std::uint64_t> counts;  ///< per bucket, not cumulative; last is +Inf
        double sum = 0;
        std::uint64_t count = 0;
    };
    struct Family {
        std::string type;
        std::string help;
        std::map<MetricLabels, double> counters;
        std::map<MetricLabels, Histogram> histograms;
    };

    mutable std::shared_mutex reading_;  // held shared while readers run, unique to remove one
    mutable std::mutex mutex_;           // guards families_, readers_, next_reader_
    std::map<std::string, Family> families_;
    std::map<int, Reader> readers_;
    int next_reader_ = 1;
};

/// Removes a reader when it goes (the owner's readings stop with the owner).
class MetricsReader {
  public:
    MetricsReader() = default;
    explicit MetricsReader(Metrics::Reader reader)
        : id_(Metrics::instance().addReader(std::move(reader))) {}
    ~MetricsReader() {
        if (id_) Metrics::instance().removeReader(id_);
    }
    MetricsReader(const MetricsReader&) = delete;
    MetricsReader& operator=(const MetricsReader&) = delete;

  private:
    int id_ = 0;
};

/// Counts one served request by operation (REST operation id, "mcp:<method>", "oauth", ...),
/// method and status, and its latency.
void recordRequest(const std::string& operation, const std::string& method, int status,
                   double seconds);

}  // namespace docintel::common
