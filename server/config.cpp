#include "server/config.h"

#include <cstdlib>
#include <stdexcept>

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

}  // namespace

Config Config::fromEnvironment() {
    Config c;
    c.database_url = env("DOCINTEL_DATABASE_URL");
    if (c.database_url.empty()) {
        throw std::invalid_argument("DOCINTEL_DATABASE_URL is not set (make run sets it)");
    }
    c.data_dir = env("DOCINTEL_DATA_DIR", c.data_dir);
    c.host = env("DOCINTEL_HOST", c.host);
    c.port = envInt("DOCINTEL_PORT", c.port, 0, 65535);
    c.mcp_port = envInt("DOCINTEL_MCP_PORT", c.mcp_port, 0, 65535);
    c.base_url = trimSlash(env("DOCINTEL_BASE_URL"));
    c.mcp_url = trimSlash(env("DOCINTEL_MCP_URL"));
    c.plugins_dir = env("DOCINTEL_PLUGINS_DIR", c.data_dir + "/plugins");
    c.plugin_poll_ms = envInt("DOCINTEL_PLUGIN_POLL_MS", c.plugin_poll_ms, 50, 60000);
    c.rate_limit_per_minute =
        envInt("DOCINTEL_RATE_LIMIT_PER_MINUTE", c.rate_limit_per_minute, 1, 100000000);
    c.db_pool_size = envInt("DOCINTEL_DB_POOL_SIZE", c.db_pool_size, 1, 512);
    c.http_threads = envInt("DOCINTEL_HTTP_THREADS", c.http_threads, 2, 1024);
    for (const auto& u : {c.base_url, c.mcp_url}) {
        if (!u.empty() && u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0) {
            throw std::invalid_argument("DOCINTEL_BASE_URL/DOCINTEL_MCP_URL must be http(s) URLs");
        }
    }
    return c;
}

void Config::resolveUrls(int bound_port) {
    if (base_url.empty()) base_url = "http://localhost:" + std::to_string(bound_port);
    if (mcp_url.empty()) mcp_url = "http://localhost:" + std::to_string(mcp_port) + "/mcp";
}

}  // namespace docintel::server
