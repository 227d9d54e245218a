#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "http/api_dispatcher.h"
#include "plugin_api/http_types.h"
#include "plugin_host/plugin_registry.h"
#include "search/index_sync.h"
#include "services/ingestion_service.h"
#include "storage/database.h"

namespace docintel::server {

/// The parts of a node /metrics reads when scraped (null when the node's role lacks them).
struct NodeMetricsSources {
    storage::Database& db;
    const plugin_host::PluginRegistry& plugins;
    const search::IndexSync* index_sync = nullptr;
    const services::IngestionService* ingestion = nullptr;
    std::string role;
};

/// This node's gauges and totals read at scrape time: the job queue and open webhook
/// deliveries (from Postgres), the database pool, the search index's lag behind the change
/// feed, the ingestion encoder's busy time and the plugins loaded.
std::vector<common::Metrics::Reading> readNodeMetrics(const NodeMetricsSources& sources);

/// Whether the node is ready to serve, and what /readyz says: the database answers, its
/// schema is current and (API nodes) the search indexes have caught up with the change feed.
struct Readiness {
    bool ready = false;
    nlohmann::json body;
};
Readiness readiness(storage::Database& db, const search::IndexSync* index_sync,
                    double max_index_lag_seconds);

/// GET /metrics: the exposition text when `token` is set and the request bears it, or when
/// no token is set and the request comes from the loopback address; else 404 (the path is not
/// advertised to the public) or 401 (a wrong token).
plugin::HttpResponse serveMetrics(const http::RawRequest& request, const std::string& token);

}  // namespace docintel::server
