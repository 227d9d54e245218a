#include "storage/queue_metrics.h"

#include <string>

namespace docintel::storage {
namespace {

constexpr Statement kJobDepth{
    "metrics_job_depth",
    "SELECT kind, status, count(*), "
    "COALESCE(EXTRACT(EPOCH FROM now() - min(run_after) FILTER (WHERE run_after <= now())), 0) "
    "FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind, status ORDER BY 1, 2"};
constexpr Statement kOpenDeliveries{
    "metrics_open_deliveries",
    "SELECT status, count(*) FROM webhook_deliveries "
    "WHERE status IN ('pending', 'delivering', 'retrying') GROUP BY status ORDER BY 1"};

}  // namespace

std::vector<common::Metrics::Reading> readQueueMetrics(Database& db) {
    using Reading = common::Metrics::Reading;
    Reading jobs{"docintel_jobs", "gauge", "Jobs by kind and status (queued or running).", {}};
    Reading waited{"docintel_jobs_oldest_wait_seconds",
                   "gauge",
                   "How long the oldest runnable queued job of each kind has waited.",
                   {}};
    Reading deliveries{"docintel_webhook_deliveries_open",
                       "gauge",
                       "Webhook deliveries not yet delivered or dead-lettered, by status.",
                       {}};
    auto read = db.read([&](Tx& tx) -> plugin::Status {
        for (const auto& r : tx.exec(kJobDepth)) {
            const std::string kind = r[0].as<std::string>();
            const std::string status = r[1].as<std::string>();
            jobs.samples.push_back({{{"kind", kind}, {"status", status}}, r[2].as<double>()});
            if (status == "queued") waited.samples.push_back({{{"kind", kind}}, r[3].as<double>()});
        }
        for (const auto& r : tx.exec(kOpenDeliveries)) {
            deliveries.samples.push_back({{{"status", r[0].as<std::string>()}}, r[1].as<double>()});
        }
        return {};
    });
    if (!read) return {};
    return {std::move(jobs), std::move(waited), std::move(deliveries)};
}

}  // namespace docintel::storage
