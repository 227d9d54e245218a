#include "server/config.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "common/log.h"
#include "http/schema_validator.h"

namespace docintel::server {
namespace {

std::string env(const char* name, const std::string& fallback = {}) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

int envInt(const char* name, int fallback, int min, int max) {
    const std::string text = env(name);
    if (text.empty()) return fallback;
    std::size_t used = 0;
    int value = 0;
    try {
        value = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || value < min || value > max) {
        throw std::invalid_argument(std::string(name) + " must be an integer in " +
                                    std::to_string(min) + ".." + std::to_string(max));
    }
    return value;
}

std::string trimSlash(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

/// Applies a JSON configuration file, validated against schemas/server_config.schema.json.
void applyFile(Config& c, const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::invalid_argument("DOCINTEL_CONFIG_FILE " + path + " cannot be read");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::invalid_argument(path + " is not valid JSON: " + e.what());
    }
    http::SchemaRegistry schemas;
    schemas.loadBuiltin("server_config.schema.json", "ServerConfig");
    const auto issues = schemas.validate("ServerConfig", j, nlohmann::json::array());
    if (!issues.empty()) {
        throw std::invalid_argument(path + ": " + issues[0].loc.dump() + " " + issues[0].msg);
    }
    c.database_url = j.value("database_url", c.database_url);
    c.data_dir = j.value("data_dir", c.data_dir);
    c.host = j.value("host", c.host);
    c.port = j.value("port", c.port);
    c.mcp_port = j.value("mcp_port", c.mcp_port);
    c.base_url = trimSlash(j.value("base_url", c.base_url));
    c.mcp_url = trimSlash(j.value("mcp_url", c.mcp_url));
    c.plugins_dir = j.value("plugins_dir", c.plugins_dir);
    c.models_dir = j.value("models_dir", c.models_dir);
    c.index_dir = j.value("index_dir", c.index_dir);
    c.model = j.value("model", c.model);
    c.plugin_poll_ms = j.value("plugin_poll_ms", c.plugin_poll_ms);
    c.index_poll_ms = j.value("index_poll_ms", c.index_poll_ms);
    c.rate_limit_per_minute = j.value("rate_limit_per_minute", c.rate_limit_per_minute);
    c.metrics_token = j.value("metrics_token", c.metrics_token);
    c.db_pool_size = j.value("db_pool_size", c.db_pool_size);
    c.http_threads = j.value("http_threads", c.http_threads);
    c.http_header_timeout_ms = j.value("http_header_timeout_ms", c.http_header_timeout_ms);
    c.http_keep_alive_timeout_ms =
        j.value("http_keep_alive_timeout_ms", c.http_keep_alive_timeout_ms);
    c.http_body_timeout_ms = j.value("http_body_timeout_ms", c.http_body_timeout_ms);
    c.http_max_connections_per_address =
        j.value("http_max_connections_per_address", c.http_max_connections_per_address);
    c.max_upload_bytes = j.value("max_upload_bytes", c.max_upload_bytes);
    c.worker_threads = j.value("worker_threads", c.worker_threads);
    c.job_lease_seconds = j.value("job_lease_seconds", c.job_lease_seconds);
    c.log_level = j.value("log_level", c.log_level);
    c.answer_refuse_below = j.value("answer_refuse_below", c.answer_refuse_below);
    c.summary_cache_mb = j.value("summary_cache_mb", c.summary_cache_mb);
}

}  // namespace

void Config::loadEnvFile() {
    const std::string data_dir = env("DOCINTEL_DATA_DIR", "var");
    std::ifstream in(data_dir + "/docintel.env");
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (line.rfind("DOCINTEL_", 0) != 0 || eq == std::string::npos) continue;
        const std::string name = line.substr(0, eq);
        if (name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos) {
            continue;
        }
        ::setenv(name.c_str(), line.substr(eq + 1).c_str(), 0);
    }
}

Config Config::fromEnvironment() {
    loadEnvFile();
    Config c;
    if (const std::string file = env("DOCINTEL_CONFIG_FILE"); !file.empty()) applyFile(c, file);
    c.database_url = env("DOCINTEL_DATABASE_URL", c.database_url);
    if (c.database_url.empty()) {
        throw std::invalid_argument(
            "DOCINTEL_DATABASE_URL is not set (make run sets it; or database_url in the "
            "DOCINTEL_CONFIG_FILE)");
    }
    c.data_dir = env("DOCINTEL_DATA_DIR", c.data_dir);
    c.host = env("DOCINTEL_HOST", c.host);
    c.port = envInt("DOCINTEL_PORT", c.port, 0, 65535);
    c.mcp_port = envInt("DOCINTEL_MCP_PORT", c.mcp_port, 0, 65535);
    c.base_url = trimSlash(env("DOCINTEL_BASE_URL", c.base_url));
    c.mcp_url = trimSlash(env("DOCINTEL_MCP_URL", c.mcp_url));
    c.plugins_dir = env("DOCINTEL_PLUGINS_DIR", c.plugins_dir);
    if (c.plugins_dir.empty()) c.plugins_dir = c.data_dir + "/plugins";
    c.models_dir = env("DOCINTEL_MODELS_DIR", c.models_dir);
    if (c.models_dir.empty()) c.models_dir = c.data_dir + "/models";
    c.index_dir = env("DOCINTEL_INDEX_DIR", c.index_dir);
    c.model = env("DOCINTEL_MODEL", c.model);
    c.log_level = env("DOCINTEL_LOG_LEVEL", c.log_level);
    if (!common::parseLogLevel(c.log_level)) {
        throw std::invalid_argument("DOCINTEL_LOG_LEVEL must be debug, info, warning or error");
    }
    if (const std::string text = env("DOCINTEL_ANSWER_REFUSE_BELOW"); !text.empty()) {
        std::size_t used = 0;
        try {
            c.answer_refuse_below = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != text.size()) c.answer_refuse_below = -1;
    }
    if (!(c.answer_refuse_below >= 0 && c.answer_refuse_below <= 1)) {
        throw std::invalid_argument("DOCINTEL_ANSWER_REFUSE_BELOW must be a number in 0..1");
    }
    c.plugin_poll_ms = envInt("DOCINTEL_PLUGIN_POLL_MS", c.plugin_poll_ms, 50, 60000);
    c.index_poll_ms = envInt("DOCINTEL_INDEX_POLL_MS", c.index_poll_ms, 20, 60000);
    c.rate_limit_per_minute =
        envInt("DOCINTEL_RATE_LIMIT_PER_MINUTE", c.rate_limit_per_minute, 1, 100000000);
    c.db_pool_size = envInt("DOCINTEL_DB_POOL_SIZE", c.db_pool_size, 1, 512);
    c.metrics_token = env("DOCINTEL_METRICS_TOKEN", c.metrics_token);
    c.http_threads = envInt("DOCINTEL_HTTP_THREADS", c.http_threads, 2, 1024);
    c.http_header_timeout_ms =
        envInt("DOCINTEL_HTTP_HEADER_TIMEOUT_MS", c.http_header_timeout_ms, 100, 600000);
    c.http_keep_alive_timeout_ms =
        envInt("DOCINTEL_HTTP_KEEPALIVE_TIMEOUT_MS", c.http_keep_alive_timeout_ms, 100, 600000);
    c.http_body_timeout_ms =
        envInt("DOCINTEL_HTTP_BODY_TIMEOUT_MS", c.http_body_timeout_ms, 100, 3600000);
    c.http_max_connections_per_address = envInt("DOCINTEL_HTTP_MAX_CONNECTIONS_PER_ADDRESS",
                                                c.http_max_connections_per_address, 0, 1000000);
    c.worker_threads = envInt("DOCINTEL_WORKER_THREADS", c.worker_threads, 1, 64);
    c.job_lease_seconds = envInt("DOCINTEL_JOB_LEASE_SECONDS", c.job_lease_seconds, 2, 3600);
    c.object_store = env("DOCINTEL_OBJECT_STORE", c.object_store);
    c.s3_endpoint = trimSlash(env("DOCINTEL_S3_ENDPOINT", c.s3_endpoint));
    c.s3_region = env("DOCINTEL_S3_REGION", c.s3_region);
    c.s3_bucket = env("DOCINTEL_S3_BUCKET", c.s3_bucket);
    c.s3_access_key = env("DOCINTEL_S3_ACCESS_KEY", c.s3_access_key);
    c.s3_secret_key = env("DOCINTEL_S3_SECRET_KEY", c.s3_secret_key);
    c.s3_path_style = env("DOCINTEL_S3_PATH_STYLE", c.s3_path_style ? "1" : "0") != "0";
    c.webhook_allow_http = env("DOCINTEL_WEBHOOK_ALLOW_HTTP") == "1";
    c.webhook_allow_private = env("DOCINTEL_WEBHOOK_ALLOW_PRIVATE") == "1";
    c.webhook_retry_base_ms =
        envInt("DOCINTEL_WEBHOOK_RETRY_BASE_MS", c.webhook_retry_base_ms, 1, 3600000);
    c.webhook_senders = envInt("DOCINTEL_WEBHOOK_SENDERS", c.webhook_senders, 1, 64);
    c.max_upload_bytes = static_cast<long long>(envInt(
                             "DOCINTEL_MAX_UPLOAD_MB",
                             static_cast<int>(c.max_upload_bytes / (1024 * 1024)), 1, 1 << 20)) *
                         1024 * 1024;
    c.mcp_test_profile = env("DOCINTEL_MCP_TEST_PROFILE") == "1";
    c.smtp_host = env("DOCINTEL_SMTP_HOST", c.smtp_host);
    c.smtp_port = envInt("DOCINTEL_SMTP_PORT", c.smtp_port, 1, 65535);
    c.smtp_from = env("DOCINTEL_SMTP_FROM", c.smtp_from);
    c.smtp_username = env("DOCINTEL_SMTP_USERNAME", c.smtp_username);
    c.smtp_password = env("DOCINTEL_SMTP_PASSWORD", c.smtp_password);
    c.llm_base_url = trimSlash(env("DOCINTEL_LLM_BASE_URL", c.llm_base_url));
    c.llm_model = env("DOCINTEL_LLM_MODEL", c.llm_model);
    c.llm_api_key = env("DOCINTEL_LLM_API_KEY", c.llm_api_key);
    c.llm_timeout_ms = envInt("DOCINTEL_LLM_TIMEOUT_MS", c.llm_timeout_ms, 100, 600000);
    c.summary_cache_mb = envInt("DOCINTEL_SUMMARY_CACHE_MB", c.summary_cache_mb, 0, 65536);
    if (!c.llm_base_url.empty()) {
        if (c.llm_base_url.rfind("http://", 0) != 0 && c.llm_base_url.rfind("https://", 0) != 0) {
            throw std::invalid_argument("DOCINTEL_LLM_BASE_URL must be an http(s) URL");
        }
        if (c.llm_model.empty()) {
            throw std::invalid_argument(
                "DOCINTEL_LLM_MODEL must be set with DOCINTEL_LLM_BASE_URL");
        }
    }
    for (const auto& u : {c.base_url, c.mcp_url}) {
        if (!u.empty() && u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0) {
            throw std::invalid_argument("DOCINTEL_BASE_URL/DOCINTEL_MCP_URL must be http(s) URLs");
        }
    }
    return c;
}

void Config::resolveUrls(int bound_port, int bound_mcp_port) {
    if (base_url.empty()) base_url = "http://localhost:" + std::to_string(bound_port);
    if (mcp_url.empty()) {
        mcp_url =
            "http://localhost:" + std::to_string(bound_mcp_port > 0 ? bound_mcp_port : mcp_port) +
            "/mcp";
    }
}

}  // namespace docintel::server
