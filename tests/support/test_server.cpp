#include "support/test_server.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/String.h>
#include <Poco/URI.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "auth/key_set.h"
#include "auth/password_hasher.h"
#include "auth/token_service.h"
#include "common/clock.h"
#include "common/id.h"
#include "objects/s3_object_store.h"
#include "storage/database.h"
#include "storage/token_revocation_repository.h"
#include "storage/user_repository.h"
#include "support/seaweed_server.h"

namespace docintel::test {
namespace {

std::string replaceDatabase(const std::string& url, const std::string& db) {
    const auto slash = url.rfind('/');
    const auto q = url.find('?', slash);
    return url.substr(0, slash + 1) + db + (q == std::string::npos ? "" : url.substr(q));
}

}  // namespace

nlohmann::json Response::json() const {
    return body.empty() ? nlohmann::json() : nlohmann::json::parse(body);
}

std::string Response::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

std::string sharedDir() { return DOCINTEL_SOURCE_DIR "/../shared"; }
std::string sourceDir() { return DOCINTEL_SOURCE_DIR; }

std::string builtPlugin(const std::string& name) {
    return std::string(DOCINTEL_BINARY_DIR) + "/plugins/" + name + ".so";
}

std::string modelsDir() {
    const char* env = std::getenv("DOCINTEL_MODELS_DIR");
    return env != nullptr && *env != '\0' ? env : sourceDir() + "/var/models";
}

std::vector<nlohmann::json> sseFrames(const std::string& body) {
    std::vector<nlohmann::json> frames;
    std::size_t at = 0;
    while ((at = body.find("data: ", at)) != std::string::npos) {
        const auto end = body.find("\n\n", at);
        frames.push_back(nlohmann::json::parse(body.substr(at + 6, end - at - 6)));
        at = end;
    }
    return frames;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
std::string testPluginDir() { return DOCINTEL_TEST_PLUGIN_DIR; }

namespace {

/// Ends the test process when its database or server cannot be set up. Thrown from a suite's
/// set-up, the error would make GoogleTest report the tests as skipped, which CTest counts as
/// passing; a failed set-up must fail the run.
[[noreturn]] void setupFailed(const std::string& what) {
    std::fprintf(stderr, "test set-up failed: %s\n", what.c_str());
    std::exit(1);
}

}  // namespace

TestDatabase::TestDatabase() try {
    const char* base = std::getenv("DOCINTEL_TEST_DATABASE_URL");
    if (!base || !*base) {
        throw std::runtime_error("DOCINTEL_TEST_DATABASE_URL is not set (run through make test)");
    }
    admin_url_ = replaceDatabase(base, "postgres");
    std::string suffix = common::newUuid().substr(0, 8);
    name_ = "docintel_test_" + suffix;
    pqxx::connection c(admin_url_);
    pqxx::nontransaction n(c);
    n.exec("CREATE DATABASE " + name_);
    url_ = replaceDatabase(base, name_);
} catch (const std::exception& e) {
    setupFailed(e.what());
}

TestDatabase::~TestDatabase() {
    try {
        pqxx::connection c(admin_url_);
        pqxx::nontransaction n(c);
        n.exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
        // The login roles the server made for its plugins (<database>_plugin_<name>).
        for (const auto& row : n.exec("SELECT rolname FROM pg_roles WHERE rolname LIKE '" + name_ +
                                      "\\_plugin\\_%'")) {
            n.exec("DROP ROLE IF EXISTS \"" + row[0].as<std::string>() + "\"");
        }
    } catch (const std::exception&) {
        // best effort: a leftover test database does no harm
    }
}

std::string TestDatabase::scalar(const std::string& sql) const {
    pqxx::connection c(url_);
    pqxx::nontransaction n(c);
    auto r = n.exec(sql);
    if (r.empty() || r[0][0].is_null()) return {};
    return r[0][0].as<std::string>();
}

TestServer::TestServer(Options options) : db_(std::make_unique<TestDatabase>()) {
    namespace fs = std::filesystem;
    data_dir_ = (fs::temp_directory_path() / ("docintel-test-" + common::newUuid())).string();
    plugins_dir_ = data_dir_ + "/plugins";
    fs::create_directories(plugins_dir_);
    for (const auto& plugin : options.plugins) {
        fs::copy_file(plugin, fs::path(plugins_dir_) / fs::path(plugin).filename());
    }
    server::Config config;
    config.database_url = db_->url();
    config.data_dir = data_dir_;
    config.host = "127.0.0.1";
    config.port = 0;
    config.mcp_port = 0;
    config.mcp_test_profile = options.mcp_test_profile;
    config.plugins_dir = plugins_dir_;
    config.models_dir = modelsDir();
    config.plugin_poll_ms = options.plugin_poll_ms;
    config.index_poll_ms = options.index_poll_ms;
    config.rate_limit_per_minute = options.rate_limit_per_minute;
    config.db_pool_size = 8;
    config.http_threads = 16;
    config.http_header_timeout_ms = options.http_header_timeout_ms;
    config.http_max_connections_per_address = options.http_max_connections_per_address;
    if (options.smtp_port) {
        config.smtp_host = "127.0.0.1";
        config.smtp_port = options.smtp_port;
    }
    config.llm_base_url = options.llm_base_url;
    config.llm_model = options.llm_model;
    config.llm_timeout_ms = options.llm_timeout_ms;
    config.webhook_allow_http = options.webhook_allow_http;
    config.webhook_allow_private = options.webhook_allow_private;
    config.webhook_retry_base_ms = options.webhook_retry_base_ms;
    if (options.s3_endpoint.empty() && usesS3ByDefault()) {
        // The upload and ingestion suites' second run (tests/CMakeLists.txt, `.s3`): one
        // SeaweedFS per test process, a bucket per server.
        static SeaweedServer* shared = new SeaweedServer();  // lives as long as the process
        options.s3_endpoint = shared->endpoint();
        options.s3_bucket = "t-" + common::newUuid().substr(0, 8);
        options.s3_access_key = SeaweedServer::kAccessKey;
        options.s3_secret_key = SeaweedServer::kSecretKey;
    }
    options_ = options;
    if (!options.s3_endpoint.empty()) {
        config.object_store = "s3";
        config.s3_endpoint = options.s3_endpoint;
        config.s3_bucket = options.s3_bucket;
        config.s3_access_key = options.s3_access_key;
        config.s3_secret_key = options.s3_secret_key;
    }
    app_ = std::make_unique<server::App>(config);
    try {
        app_->start();
    } catch (const std::exception& e) {
        setupFailed(std::string("server did not start: ") + e.what());
    }
}

TestServer::~TestServer() {
    app_->stop(1000);
    app_.reset();
    std::error_code ec;
    std::filesystem::remove_all(data_dir_, ec);
}

std::string TestServer::baseUrl() const { return app_->config().base_url; }

std::string TestServer::createUser(const std::string& email) {
    storage::Database db(db_->url(), 1);
    storage::UserRepository users(db);
    auto user = users.create(email, email.substr(0, email.find('@')),
                             auth::PasswordHasher::hash("correct horse", 1000), false);
    if (!user) throw std::runtime_error("createUser: " + user.error().message);
    return user->id;
}

std::vector<std::string> TestServer::allScopes() {
    return {"workspaces:read", "workspaces:write",     "documents:read",  "documents:write",
            "knowledge:query", "knowledge:generate",   "sessions:write",  "video:read",
            "video:process",   "batches:read",         "batches:write",   "workflows:read",
            "workflows:write", "reviews:write",        "reviews:approve", "packets:write",
            "learning:read",   "learning:participate", "learning:manage"};
}

std::string TestServer::token(const std::string& user_id, const std::vector<std::string>& scopes,
                              long long ttl_seconds, bool mcp, long long not_before_offset,
                              std::string* jti) {
    auto keys = auth::KeySet::loadOrCreate(app_->config().keysDir());
    auth::TokenService tokens(keys, app_->config().issuer(), nullptr);
    auth::TokenClaims claims;
    claims.subject = user_id;
    claims.scopes = scopes;
    claims.audience = mcp ? app_->config().mcp_url : app_->config().restAudience();
    claims.ttl_seconds = ttl_seconds;
    claims.not_before_offset = not_before_offset;
    return tokens.mint(claims, jti);
}

void TestServer::revoke(const std::string& jti) {
    storage::Database db(db_->url(), 1);
    storage::TokenRevocationRepository repo(db);
    if (auto r = repo.revoke(jti, common::nowEpochSeconds() + 3600); !r) {
        throw std::runtime_error("revoke: " + r.error().message);
    }
}

namespace {

Response send(int port, const std::string& method, const std::string& path, const std::string& body,
              const std::string& token, const std::map<std::string, std::string>& headers) {
    Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
    session.setTimeout(Poco::Timespan(30, 0));
    Poco::Net::HTTPRequest req(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    if (!token.empty()) req.set("Authorization", "Bearer " + token);
    for (const auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH") {
        if (!headers.count("Content-Type")) {
            req.setContentType("application/json");
        }
        req.setContentLength(static_cast<std::streamsize>(body.size()));
    }
    session.sendRequest(req) << body;
    Poco::Net::HTTPResponse resp;
    std::istream& in = session.receiveResponse(resp);
    Response out;
    out.status = resp.getStatus();
    for (const auto& [k, v] : resp) out.headers[Poco::toLower(k)] = v;
    Poco::StreamCopier::copyToString(in, out.body);
    return out;
}

}  // namespace

Response httpRequest(int port, const std::string& method, const std::string& path,
                     const std::string& body, const std::string& token,
                     const std::map<std::string, std::string>& headers) {
    return send(port, method, path, body, token, headers);
}

Response TestServer::request(const std::string& method, const std::string& path,
                             const std::string& body, const std::string& token,
                             const std::map<std::string, std::string>& headers) const {
    return send(port(), method, path, body, token, headers);
}

Response TestServer::mcpRequest(const std::string& method, const std::string& path,
                                const std::string& body, const std::string& token,
                                const std::map<std::string, std::string>& headers) const {
    return send(mcpPort(), method, path, body, token, headers);
}

Response TestServer::putObject(const std::string& url, const std::string& bytes,
                               const std::string& content_type, long long content_length) {
    Poco::URI uri(url);
    Poco::Net::HTTPClientSession session("127.0.0.1", uri.getPort());
    Poco::Net::HTTPRequest req("PUT", uri.getPathAndQuery(), Poco::Net::HTTPMessage::HTTP_1_1);
    if (!content_type.empty()) req.setContentType(content_type);
    req.setContentLength(content_length == -2 ? static_cast<std::streamsize>(bytes.size())
                                              : content_length);
    session.sendRequest(req) << bytes;
    Poco::Net::HTTPResponse resp;
    Response out;
    Poco::StreamCopier::copyToString(session.receiveResponse(resp), out.body);
    out.status = resp.getStatus();
    return out;
}

std::string TestServer::uploadDocument(const std::string& token, const std::string& filename,
                                       const std::string& content_type, const std::string& bytes,
                                       const std::string& workspace_id,
                                       const nlohmann::json& create_extra,
                                       const nlohmann::json& complete_extra) const {
    return uploadDocumentTo(port(), token, filename, content_type, bytes, workspace_id,
                            create_extra, complete_extra);
}

std::string uploadDocumentTo(int port, const std::string& token, const std::string& filename,
                             const std::string& content_type, const std::string& bytes,
                             const std::string& workspace_id, const nlohmann::json& create_extra,
                             const nlohmann::json& complete_extra) {
    const auto request = [port](auto&&... args) { return send(port, args...); };
    std::map<std::string, std::string> headers;
    if (!workspace_id.empty()) headers["X-DocIntel-Workspace-ID"] = workspace_id;
    nlohmann::json create = {
        {"filename", filename}, {"content_type", content_type}, {"file_size", bytes.size()}};
    create.update(create_extra);
    const auto created = request("POST", "/api/v1/uploads", create.dump(), token, headers);
    if (created.status != 201) throw std::runtime_error("upload create: " + created.body);
    const auto session = created.json();
    const auto put =
        TestServer::putObject(session["upload_url"].get<std::string>(), bytes, content_type);
    if (put.status >= 300) throw std::runtime_error("upload PUT: " + put.body);
    nlohmann::json complete = {{"filename", filename},
                               {"file_size", bytes.size()},
                               {"doc_id", session["doc_id"]},
                               {"storage_source_path", session["storage_source_path"]}};
    complete.update(complete_extra);
    const auto completed =
        request("POST", "/api/v1/uploads/complete", complete.dump(), token, headers);
    if (completed.status != 202) throw std::runtime_error("upload complete: " + completed.body);
    return session["doc_id"].get<std::string>();
}

bool TestServer::usesS3ByDefault() {
    const char* store = std::getenv("DOCINTEL_TEST_OBJECT_STORE");
    return store != nullptr && std::string(store) == "s3";
}

bool TestServer::objectExists(const std::string& key) const {
    if (options_.s3_endpoint.empty()) return std::filesystem::exists(data_dir_ + "/objects/" + key);
    objects::S3Settings probe;
    probe.endpoint = options_.s3_endpoint;
    probe.bucket = options_.s3_bucket;
    probe.access_key = options_.s3_access_key;
    probe.secret_key = options_.s3_secret_key;
    probe.cache_dir = data_dir_ + "/probe-cache";
    return objects::S3ObjectStore(probe).stat(key).has_value();
}

nlohmann::json TestServer::pollStatus(const std::string& path, const std::string& token,
                                      const std::set<std::string>& final_statuses,
                                      int seconds) const {
    return pollStatusAt(port(), path, token, final_statuses, seconds);
}

nlohmann::json pollStatusAt(int port, const std::string& path, const std::string& token,
                            const std::set<std::string>& final_statuses, int seconds) {
    nlohmann::json out;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        out = send(port, "GET", path, {}, token, {}).json();
        if (final_statuses.count(out.value("status", ""))) return out;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return out;
}

std::map<int, std::string> TestServer::pageTexts(const std::string& document_id,
                                                 const std::string& token) const {
    std::map<int, std::string> pages;
    const auto chunks = get("/api/v1/documents/" + document_id + "/chunks", token).json();
    for (const auto& c : chunks["chunks"]) {
        std::string text = c["text"].get<std::string>();
        std::replace(text.begin(), text.end(), '\n', ' ');
        pages[c["page"].get<int>()] += text + " ";
    }
    return pages;
}

nlohmann::json TestServer::waitForDocument(const std::string& id, const std::string& token) const {
    return pollStatus("/api/v1/documents/" + id, token, {"embedded", "error"}, 60);
}

}  // namespace docintel::test
