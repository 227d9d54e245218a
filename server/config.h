#pragma once

#include <algorithm>
#include <string>
#include <thread>

namespace docintel::server {

/// Server configuration (ARCHITECTURE.md §4): environment variables over an optional JSON file
/// named by DOCINTEL_CONFIG_FILE (validated against schemas/server_config.schema.json).
/// Defaults suit a single machine; `fromEnvironment` fails fast on a malformed value.
struct Config {
    std::string database_url;
    std::string data_dir = "var";
    std::string host = "0.0.0.0";
    int port = 8080;
    int mcp_port = 8081;
    std::string base_url;     ///< default http://localhost:<port> (after binding, for port 0)
    std::string mcp_url;      ///< default http://localhost:<mcp_port>/mcp
    std::string plugins_dir;  ///< default <data_dir>/plugins
    std::string models_dir;   ///< default <data_dir>/models
    std::string index_dir;    ///< this node's search indexes; default <data_dir>/index
    std::string model = "all-MiniLM-L6-v2";
    std::string log_level = "info";
    /// The extractive answer's refusal threshold (knowledge::ExtractiveOptions::refuse_below):
    /// lower answers more questions and refuses fewer; 0 never refuses (for measuring).
    double answer_refuse_below = 0.35;
    int plugin_poll_ms = 1000;
    int index_poll_ms = 250;  ///< how often an API node follows the index change feed
    int rate_limit_per_minute = 1200;
    /// GET /metrics (docs/deployment.md): with a token, only `Authorization: Bearer <token>`;
    /// without one, only clients on the loopback address.
    std::string metrics_token;
    /// Two connections per core (at least 4): more backends than cores only contend, and on
    /// 2 cores a pool of 16 tripled the p99 of a simple read (decision 0052).
    int db_pool_size = std::max(4, 2 * static_cast<int>(std::thread::hardware_concurrency()));
    /// Connection threads of each listener; an idle or slow client holds one only until its
    /// deadline, and one address at most `http_max_connections_per_address` (decision 0061).
    int http_threads = 128;
    int http_header_timeout_ms = 10000;         ///< request line + headers, in total
    int http_keep_alive_timeout_ms = 5000;      ///< idle wait for the next request
    int http_body_timeout_ms = 30000;           ///< reading a body (uploads: plus 1 s per 256 KiB)
    int http_max_connections_per_address = 64;  ///< 0 = no cap (e.g. behind a proxy)
    long long max_upload_bytes = 100LL * 1024 * 1024;
    /// Where document bytes live (decision 0070): `local` (files under <data_dir>/objects) or
    /// `s3` (DOCINTEL_S3_ENDPOINT, _REGION, _BUCKET, _ACCESS_KEY, _SECRET_KEY, _PATH_STYLE).
    std::string object_store = "local";
    std::string s3_endpoint;
    std::string s3_region = "us-east-1";
    std::string s3_bucket;
    std::string s3_access_key;
    std::string s3_secret_key;
    bool s3_path_style = true;
    int worker_threads = 2;
    int job_lease_seconds = 30;
    // Webhooks (docs/events.md): DOCINTEL_WEBHOOK_ALLOW_HTTP=1 permits http:// receivers,
    // DOCINTEL_WEBHOOK_ALLOW_PRIVATE=1 loopback and private addresses (local receivers);
    // DOCINTEL_WEBHOOK_RETRY_BASE_MS scales the retry schedule (5000: about 10 s, 20 s, 40 s …);
    // DOCINTEL_WEBHOOK_SENDERS threads send deliveries (one subscription each at a time).
    bool webhook_allow_http = false;
    bool webhook_allow_private = false;
    int webhook_retry_base_ms = 5000;
    int webhook_senders = 4;
    std::string role = "all";  ///< api | worker | all
    /// DOCINTEL_MCP_TEST_PROFILE=1: the MCP server also serves the conformance suite's fixture
    /// tools and resources. For the conformance test only; never set in a normal start.
    bool mcp_test_profile = false;
    // Outgoing mail for e-mail sign-in codes (DOCINTEL_SMTP_HOST/_PORT/_FROM/_USERNAME/
    // _PASSWORD); no host = no mail, so MFA sign-ins fail closed.
    std::string smtp_host;
    int smtp_port = 25;
    std::string smtp_from = "docintel@localhost";
    std::string smtp_username;
    std::string smtp_password;
    // LLM mode (docs/knowledge.md "LLM mode"): an OpenAI-compatible chat-completions endpoint
    // (DOCINTEL_LLM_BASE_URL, e.g. http://127.0.0.1:8000/v1, and DOCINTEL_LLM_MODEL; optional
    // DOCINTEL_LLM_API_KEY and DOCINTEL_LLM_TIMEOUT_MS). No base URL = the extractive answerer.
    std::string llm_base_url;
    std::string llm_model;
    std::string llm_api_key;
    int llm_timeout_ms = 30000;
    // Sentence vectors of recently summarised documents kept in memory, in MiB
    // (DOCINTEL_SUMMARY_CACHE_MB, file key summary_cache_mb; 0 = off). docs/knowledge.md.
    int summary_cache_mb = 64;

    /// Sets each `DOCINTEL_*=value` line of `$DOCINTEL_DATA_DIR/docintel.env` (default
    /// `var/docintel.env`, written by `make run`) that the environment does not set already, so
    /// programs started by hand find the settings `make run` chose. A missing file is no error.
    /// Call before any thread starts (it changes the environment).
    static void loadEnvFile();

    /// Reads the env file, the config file and DOCINTEL_* variables. Throws std::invalid_argument
    /// naming the bad variable or file entry.
    static Config fromEnvironment();

    /// Fills base_url/mcp_url defaults once the bound port is known (`bound_mcp_port` > 0:
    /// the MCP listener's, for port 0).
    void resolveUrls(int bound_port, int bound_mcp_port = 0);

    std::string keysDir() const { return data_dir + "/keys"; }
    std::string indexDir() const { return index_dir.empty() ? data_dir + "/index" : index_dir; }
    std::string restAudience() const { return base_url + "/api/v1"; }
    /// This server is its own authorization server.
    std::string issuer() const { return base_url; }
};

}  // namespace docintel::server
