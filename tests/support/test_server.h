#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/app.h"

namespace docintel::test {

/// A response as a client sees it.
struct Response {
    int status = 0;
    std::map<std::string, std::string> headers;  ///< names lower-cased
    std::string body;
    nlohmann::json json() const;
    std::string header(const std::string& lower_name) const;
};

/// A fresh database on the test Postgres (DOCINTEL_TEST_DATABASE_URL names any database on
/// that server), dropped when the object goes. One per test binary.
class TestDatabase {
  public:
    TestDatabase();
    ~TestDatabase();
    const std::string& url() const { return url_; }
    /// Runs a query and returns the first column of the first row as text ("" if none).
    std::string scalar(const std::string& sql) const;

  private:
    std::string admin_url_;
    std::string name_;
    std::string url_;
};

/// The real server (App) on port 0 over a TestDatabase, with its own data and plugins
/// directories, plus helpers to create users and mint tokens the way docintel-admin does.
class TestServer {
  public:
    struct Options {
        int rate_limit_per_minute = 100000;
        int plugin_poll_ms = 200;
        /// How often the node's indexes follow the change feed (Config::index_poll_ms).
        int index_poll_ms = 250;
        /// Plugin files copied into the plugins folder before the server starts.
        std::vector<std::string> plugins;
        /// Serve the MCP conformance fixtures (DOCINTEL_MCP_TEST_PROFILE).
        bool mcp_test_profile = false;
        /// An SMTP server on 127.0.0.1 for e-mail sign-in codes (0 = none).
        int smtp_port = 0;
        /// LLM mode: an OpenAI-compatible endpoint (empty = off).
        std::string llm_base_url;
        std::string llm_model;
        int llm_timeout_ms = 30000;
        /// Connection limits (decision 0061); short deadlines make the slow-client tests quick.
        int http_header_timeout_ms = 10000;
        int http_max_connections_per_address = 64;
        /// Webhook destinations (DOCINTEL_WEBHOOK_ALLOW_HTTP / _ALLOW_PRIVATE) and the retry
        /// schedule's base (DOCINTEL_WEBHOOK_RETRY_BASE_MS).
        bool webhook_allow_http = false;
        bool webhook_allow_private = false;
        int webhook_retry_base_ms = 5000;
        /// The S3 object store (decision 0070; empty endpoint = the local store).
        std::string s3_endpoint;
        std::string s3_bucket;
        std::string s3_access_key;
        std::string s3_secret_key;
    };
    TestServer() : TestServer(Options{}) {}
    explicit TestServer(Options options);
    ~TestServer();

    int port() const { return app_->port(); }
    /// DOCINTEL_TEST_OBJECT_STORE=s3: servers without an S3 endpoint of their own keep their
    /// objects in a SeaweedFS bucket (the upload suites' `.s3` runs), not on local disk.
    static bool usesS3ByDefault();
    bool usesS3() const { return !options_.s3_endpoint.empty(); }
    /// Whether the object store holds `key` (a document's storage path), in either store.
    bool objectExists(const std::string& key) const;
    /// The MCP listener (port 0 → a free port) and its URL, the MCP token audience.
    int mcpPort() const { return app_->mcpPort(); }
    std::string mcpUrl() const { return app_->config().mcp_url; }
    std::string baseUrl() const;
    const std::string& dataDir() const { return data_dir_; }
    const std::string& pluginsDir() const { return plugins_dir_; }
    TestDatabase& db() { return *db_; }

    /// Creates a user (password "correct horse") and returns its id.
    std::string createUser(const std::string& email);
    /// A REST-audience token for the user with `scopes` (mcp=true: the MCP audience).
    std::string token(const std::string& user_id, const std::vector<std::string>& scopes,
                      long long ttl_seconds = 600, bool mcp = false,
                      long long not_before_offset = 0, std::string* jti = nullptr);
    /// Every scope of spec §5.4.
    static std::vector<std::string> allScopes();

    Response request(const std::string& method, const std::string& path,
                     const std::string& body = {}, const std::string& token = {},
                     const std::map<std::string, std::string>& headers = {}) const;
    Response get(const std::string& path, const std::string& token = {}) const {
        return request("GET", path, {}, token);
    }
    /// A request to the MCP listener; `headers` are sent as given (nothing is added but the
    /// bearer token when set, and Content-Type application/json with a body).
    Response mcpRequest(const std::string& method, const std::string& path,
                        const std::string& body = {}, const std::string& token = {},
                        const std::map<std::string, std::string>& headers = {}) const;

    /// PUTs `bytes` to a signed upload URL; `content_type` empty = none sent, `content_length`
    /// -2 = the size of `bytes`.
    static Response putObject(const std::string& url, const std::string& bytes,
                              const std::string& content_type, long long content_length = -2);
    /// Uploads `bytes` through the API (create → PUT to the signed URL → complete) and returns
    /// the document id; `workspace_id` set = into that workspace.
    /// `create_extra` / `complete_extra` are added to the two request bodies (e.g.
    /// `{"redact_pii": true}`).
    std::string uploadDocument(
        const std::string& token, const std::string& filename, const std::string& content_type,
        const std::string& bytes, const std::string& workspace_id = {},
        const nlohmann::json& create_extra = nlohmann::json::object(),
        const nlohmann::json& complete_extra = nlohmann::json::object()) const;
    /// GETs `path` until its `status` is one of `final_statuses` (`seconds` at most); returns
    /// the last body.
    nlohmann::json pollStatus(const std::string& path, const std::string& token,
                              const std::set<std::string>& final_statuses, int seconds = 120) const;
    /// The text of each page of a document, from its chunks (page → chunk texts), on one line as
    /// excerpts and quotes show it: line breaks are spaces.
    std::map<int, std::string> pageTexts(const std::string& document_id,
                                         const std::string& token) const;
    /// Polls the document until it is `embedded` or `error` (60 s at most); returns it.
    nlohmann::json waitForDocument(const std::string& id, const std::string& token) const;

    /// Revokes a token id through the same store the server reads.
    void revoke(const std::string& jti);

  private:
    std::unique_ptr<TestDatabase> db_;
    std::string data_dir_;
    std::string plugins_dir_;
    std::unique_ptr<server::App> app_;
    Options options_;  ///< as started (with the S3 settings it was given)
};

/// A JSON request to a server on 127.0.0.1:`port` (one started as a process, say), as
/// TestServer::request sends it. Throws when nothing answers.
Response httpRequest(int port, const std::string& method, const std::string& path,
                     const std::string& body = {}, const std::string& token = {},
                     const std::map<std::string, std::string>& headers = {});

/// TestServer::uploadDocument and ::pollStatus against a server on 127.0.0.1:`port`.
std::string uploadDocumentTo(int port, const std::string& token, const std::string& filename,
                             const std::string& content_type, const std::string& bytes,
                             const std::string& workspace_id = {},
                             const nlohmann::json& create_extra = nlohmann::json::object(),
                             const nlohmann::json& complete_extra = nlohmann::json::object());
nlohmann::json pollStatusAt(int port, const std::string& path, const std::string& token,
                            const std::set<std::string>& final_statuses, int seconds = 30);

/// `../shared` (datasets, spec) relative to the source tree.
std::string sharedDir();
/// The JSON of each `data: ` frame of a server-sent-event body, in order.
std::vector<nlohmann::json> sseFrames(const std::string& body);
/// A whole file's bytes ("" when it cannot be read).
std::string readFile(const std::string& path);
/// The source tree root.
std::string sourceDir();
/// A plugin built in-tree: <build>/plugins/<name>.so (DOCINTEL_PLUGIN_OUTPUT_DIR).
std::string builtPlugin(const std::string& name);
/// The encoder models' folder: $DOCINTEL_MODELS_DIR, else <source>/var/models (`make model`).
std::string modelsDir();
/// The folder the fixture plugins (tests/plugin_abi/fixtures) are built into.
std::string testPluginDir();

/// Polls `probe` every 100 ms until it holds or `seconds` have passed; its last answer (for
/// what a running server picks up on its own, e.g. a plugin dropped into its folder).
template <typename F>
bool eventually(F probe, int seconds = 10) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        if (probe()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return probe();
}

}  // namespace docintel::test
