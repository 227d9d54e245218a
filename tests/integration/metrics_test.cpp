// GET /metrics (issue 19 item 5, docs/deployment.md "What an operator watches"): the text is
// read by Prometheus's own Python parser (prometheus-client), and holds what the node did.

#include <gtest/gtest.h>

#include "common/metrics.h"
#include "server/node_metrics.h"
#include "support/metrics_scrape.h"
#include "support/test_server.h"

namespace docintel {
namespace {

using test::parseMetrics;

TEST(Metrics, TheTextIsWhatPrometheusParses) {
    auto& m = common::Metrics::instance();
    m.add("docintel_test_things_total", "Things, with \\ and a\nnewline in the help.",
          {{"kind", "a \"quoted\" \\ value\nover two lines"}}, 2);
    m.add("docintel_test_things_total", "", {{"kind", "plain"}}, 0.5);
    for (double seconds : {0.001, 0.02, 0.02, 3.0, 60.0}) {
        m.observe("docintel_test_wait_seconds", "Waits.", {{"op", "x"}}, seconds);
    }
    const common::MetricsReader reader([] {
        return std::vector<common::Metrics::Reading>{
            {"docintel_test_level", "gauge", "A level.", {{{{"side", "left"}}, -1.25}}}};
    });

    const auto scraped = parseMetrics(m.render());
    ASSERT_TRUE(scraped.parsed) << scraped.error;
    EXPECT_EQ(scraped.type("docintel_test_things"), "counter");
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_things_total",
                                 {{"kind", "a \"quoted\" \\ value\nover two lines"}}),
                     2);
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_things_total", {{"kind", "plain"}}), 0.5);
    EXPECT_EQ(scraped.families["docintel_test_things"]["help"],
              "Things, with \\ and a\nnewline in the help.");

    EXPECT_EQ(scraped.type("docintel_test_wait_seconds"), "histogram");
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_wait_seconds_count"), 5);
    EXPECT_NEAR(scraped.sum("docintel_test_wait_seconds_sum"), 63.041, 1e-9);
    // Buckets are cumulative: le=0.025 holds the three short waits, +Inf all five.
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_wait_seconds_bucket", {{"le", "0.005"}}), 1);
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_wait_seconds_bucket", {{"le", "0.025"}}), 3);
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_wait_seconds_bucket", {{"le", "5"}}), 4);
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_wait_seconds_bucket", {{"le", "+Inf"}}), 5);

    EXPECT_EQ(scraped.type("docintel_test_level"), "gauge");
    EXPECT_DOUBLE_EQ(scraped.sum("docintel_test_level", {{"side", "left"}}), -1.25);
}

TEST(Metrics, ARemovedReaderIsNotRead) {
    {
        const common::MetricsReader reader([] {
            return std::vector<common::Metrics::Reading>{
                {"docintel_test_gone", "gauge", "Gone soon.", {{{}, 1}}}};
        });
        EXPECT_NE(common::Metrics::instance().render().find("docintel_test_gone"),
                  std::string::npos);
    }
    EXPECT_EQ(common::Metrics::instance().render().find("docintel_test_gone"), std::string::npos);
}

http::RawRequest scrape(const std::string& address, const std::string& authorization = {}) {
    http::RawRequest r;
    r.method = "GET";
    r.path = "/metrics";
    r.remote_address = address;
    if (!authorization.empty()) r.headers["authorization"] = authorization;
    return r;
}

TEST(Metrics, WithoutATokenOnlyTheLoopbackIsServed) {
    EXPECT_EQ(server::serveMetrics(scrape("127.0.0.1"), "").status, 200);
    EXPECT_EQ(server::serveMetrics(scrape("::1"), "").status, 200);
    EXPECT_EQ(server::serveMetrics(scrape("::ffff:127.0.0.1"), "").status, 200);
    EXPECT_EQ(server::serveMetrics(scrape("10.0.0.5"), "").status, 404);
    EXPECT_EQ(server::serveMetrics(scrape("::ffff:10.0.0.5"), "").status, 404);
    EXPECT_EQ(server::serveMetrics(scrape("2001:db8::1"), "").status, 404);
    EXPECT_EQ(server::serveMetrics(scrape("not an address"), "").status, 404);
}

TEST(Metrics, WithATokenOnlyItsBearerIsServed) {
    const std::string token = "metrics-secret-1";
    const auto ok = server::serveMetrics(scrape("10.0.0.5", "Bearer " + token), token);
    EXPECT_EQ(ok.status, 200);
    EXPECT_EQ(ok.content_type, "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_EQ(server::serveMetrics(scrape("10.0.0.5", "Bearer wrong"), token).status, 401);
    // The token is required from the loopback too, and its absence does not reveal the path.
    EXPECT_EQ(server::serveMetrics(scrape("127.0.0.1"), token).status, 404);
}

TEST(Metrics, AServerCountsWhatItDoes) {
    test::TestServer server;
    const std::string user = server.createUser("ops@example.com");
    const std::string token = server.token(user, test::TestServer::allScopes());
    for (int i = 0; i < 3; ++i) ASSERT_EQ(server.get("/api/v1/workspaces", token).status, 200);
    ASSERT_EQ(server.get("/api/v1/no-such-thing", token).status, 404);
    const std::string doc = server.uploadDocument(
        token, "note.txt", "text/plain",
        "The quarterly report was filed on 3 March 2025 by the finance team.\n");
    ASSERT_EQ(server.waitForDocument(doc, token)["status"], "embedded");
    const std::string bad = server.uploadDocument(token, "broken.pdf", "application/pdf",
                                                  "%PDF-1.7\nthis is not a PDF at all\n");
    ASSERT_EQ(server.waitForDocument(bad, token)["status"], "error");

    const auto ready = server.get("/readyz");
    EXPECT_EQ(ready.status, 200) << ready.body;
    EXPECT_EQ(ready.json()["index"], "caught_up");

    const auto r = server.get("/metrics");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const auto m = parseMetrics(r.body);
    ASSERT_TRUE(m.parsed) << m.error;

    const std::string list = "api_list_workspaces_api_v1_workspaces_get";
    EXPECT_GE(m.sum("docintel_http_requests_total", {{"operation", list}, {"status", "200"}}), 3);
    EXPECT_GE(
        m.sum("docintel_http_requests_total", {{"operation", "unmatched"}, {"status", "404"}}), 1);
    EXPECT_EQ(m.type("docintel_http_request_duration_seconds"), "histogram");
    const double count =
        m.sum("docintel_http_request_duration_seconds_count", {{"operation", list}});
    EXPECT_GE(count, 3);
    EXPECT_DOUBLE_EQ(m.sum("docintel_http_request_duration_seconds_bucket",
                           {{"operation", list}, {"le", "+Inf"}}),
                     count);

    EXPECT_GE(m.sum("docintel_documents_embedded_total"), 1);
    EXPECT_GE(m.sum("docintel_chunks_embedded_total"), 1);
    EXPECT_GT(m.sum("docintel_encoder_busy_seconds_total"), 0);
    EXPECT_GE(m.sum("docintel_documents_failed_total"), 1);
    EXPECT_EQ(m.type("docintel_jobs"), "gauge");
    EXPECT_EQ(m.type("docintel_webhook_deliveries_open"), "gauge");
    EXPECT_DOUBLE_EQ(m.sum("docintel_db_pool_connections", {{"state", "max"}}), 8);
    EXPECT_GE(m.sum("docintel_db_pool_connections", {{"state", "open"}}), 1);
    EXPECT_EQ(m.count("docintel_index_lag_seconds"), 1);
    EXPECT_GE(m.sum("docintel_index_lag_seconds"), 0);
    EXPECT_LT(m.sum("docintel_index_lag_seconds"), 5);
    EXPECT_DOUBLE_EQ(m.sum("docintel_node_info", {{"role", "all"}}), 1);
    EXPECT_DOUBLE_EQ(m.sum("docintel_plugins_loaded"), 0);
}

}  // namespace
}  // namespace docintel
