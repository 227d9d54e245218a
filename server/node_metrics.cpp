#include "server/node_metrics.h"

#include <Poco/Net/IPAddress.h>

#include "auth/oauth/token_cipher.h"
#include "http/error_mapper.h"
#include "storage/migrator.h"
#include "storage/queue_metrics.h"

namespace docintel::server {
namespace {

using Reading = common::Metrics::Reading;

Reading gauge(std::string name, std::string help, double value, common::MetricLabels labels = {}) {
    return Reading{std::move(name), "gauge", std::move(help), {{std::move(labels), value}}};
}

bool fromLoopback(const std::string& address) {
    try {
        const Poco::Net::IPAddress ip(address);
        if (ip.isLoopback()) return true;
        // An IPv4 client of a dual-stack listener: ::ffff:127.x.y.z.
        return ip.isIPv4Mapped() && address.compare(address.rfind(':') + 1, 4, "127.") == 0;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

std::vector<Reading> readNodeMetrics(const NodeMetricsSources& s) {
    std::vector<Reading> out = storage::readQueueMetrics(s.db);
    const auto pool = s.db.poolUse();
    out.push_back(gauge("docintel_db_pool_connections", "Database connections of this node's pool.",
                        pool.size, {{"state", "max"}}));
    out.back().samples.push_back({{{"state", "open"}}, static_cast<double>(pool.open)});
    out.back().samples.push_back({{{"state", "leased"}}, static_cast<double>(pool.leased)});
    out.push_back(gauge("docintel_db_pool_waiting", "Callers waiting for a database connection.",
                        pool.waiting));
    out.push_back(gauge("docintel_plugins_loaded", "Plugins loaded in this node.",
                        static_cast<double>(s.plugins.plugins().size())));
    out.push_back(gauge("docintel_node_info", "This node's role (api, worker or all).", 1,
                        {{"role", s.role}}));
    if (s.index_sync) {
        out.push_back(gauge("docintel_index_lag_seconds",
                            "How far this node's search indexes trail the change feed: seconds "
                            "since the start of their last completed sync.",
                            s.index_sync->lagSeconds()));
    }
    if (s.ingestion) {
        if (const auto stats = s.ingestion->encoderStats()) {
            out.push_back(Reading{"docintel_encoder_busy_seconds_total",
                                  "counter",
                                  "Time the ingestion encoding threads spent encoding.",
                                  {{{}, stats->busy_ms / 1000}}});
            out.push_back(Reading{"docintel_encoder_texts_total",
                                  "counter",
                                  "Texts encoded by the ingestion encoding threads.",
                                  {{{}, static_cast<double>(stats->texts)}}});
            out.push_back(
                gauge("docintel_encoder_threads", "Ingestion encoding threads.", stats->encoders));
        }
    }
    return out;
}

Readiness readiness(storage::Database& db, const search::IndexSync* index_sync,
                    double max_index_lag_seconds) {
    Readiness r;
    const bool database = db.ping() && storage::Migrator(db).upToDate();
    r.ready = database;
    r.body = {{"database", database ? "ok" : "unavailable"}};
    if (index_sync) {
        const double lag = index_sync->lagSeconds();
        const bool caught_up = lag >= 0 && lag <= max_index_lag_seconds;
        r.ready = r.ready && caught_up;
        r.body["index"] = caught_up ? "caught_up" : "behind";
        r.body["index_lag_seconds"] = lag;
    }
    r.body["status"] = r.ready ? "ready" : "not_ready";
    return r;
}

plugin::HttpResponse serveMetrics(const http::RawRequest& request, const std::string& token) {
    if (token.empty()
            ? !fromLoopback(request.remote_address)
            : !auth::oauth::constantTimeEquals(http::bearerToken(request.headers), token)) {
        const std::string trace_id = http::traceIdFor(request.headers);
        if (!token.empty() && request.headers.count("authorization")) {
            return http::errorResponse({"invalid_token", "the metrics token is wrong", 401},
                                       trace_id, "");
        }
        return http::errorResponse({"not_found", "no such path: /metrics", 404}, trace_id, "");
    }
    plugin::HttpResponse r;
    r.status = 200;
    r.raw_body = common::Metrics::instance().render();
    r.content_type = "text/plain; version=0.0.4; charset=utf-8";
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

}  // namespace docintel::server
