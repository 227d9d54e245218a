#include "server/app.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "auth/document_access.h"
#include "auth/key_set.h"
#include "auth/oauth/oauth_server.h"
#include "auth/revocation_list.h"
#include "auth/token_service.h"
#include "auth/workspace_access.h"
#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"
#include "console/console_pages.h"
#include "embed/encoder_set.h"
#include "engine/chunk_evidence_finder.h"
#include "engine/packet_renderer.h"
#include "engine/review_task_service.h"
#include "engine/workflow_catalog.h"
#include "engine/workflow_service.h"
#include "http/api_dispatcher.h"
#include "http/api_routes.h"
#include "http/error_mapper.h"
#include "http/http_server.h"
#include "http/openapi.h"
#include "jobs/worker_pool.h"
#include "knowledge/chat_session_service.h"
#include "knowledge/evaluation_service.h"
#include "knowledge/knowledge_service.h"
#include "mcp/mcp_server.h"
#include "objects/object_store.h"
#include "objects/s3_object_store.h"
#include "objects/url_signer.h"
#include "plugin_host/plugin_loader.h"
#include "plugin_host/plugin_registry.h"
#include "plugin_host/plugin_watcher.h"
#include "search/hybrid_retriever.h"
#include "search/index_sync.h"
#include "search/keyword_index.h"
#include "search/model_vectors.h"
#include "server/event_subsystem.h"
#include "server/node_metrics.h"
#include "server/oauth_settings.h"
#include "server/plugin_host_services.h"
#include "server/rate_sync.h"
#include "services/batch_service.h"
#include "services/document_service.h"
#include "services/identity_service.h"
#include "services/ingestion_service.h"
#include "services/upload_service.h"
#include "services/workspace_service.h"
#include "storage/batch_repository.h"
#include "storage/database.h"
#include "storage/document_repository.h"
#include "storage/embedding_space_repository.h"
#include "storage/index_feed_repository.h"
#include "storage/job_repository.h"
#include "storage/mcp_session_repository.h"
#include "storage/migrator.h"
#include "storage/token_revocation_repository.h"
#include "storage/user_repository.h"
#include "storage/workflow_run_repository.h"
#include "storage/workspace_repository.h"

namespace docintel::server {
namespace {

/// Verifies bearer tokens for one audience (the REST resource).
class BearerAuthenticator final : public http::Authenticator {
  public:
    BearerAuthenticator(const auth::TokenService& tokens, std::string audience)
        : tokens_(tokens), audience_(std::move(audience)) {}
    plugin::Result<plugin::Principal> authenticate(const std::string& token) const override {
        return tokens_.verify(token, audience_);
    }

  private:
    const auth::TokenService& tokens_;
    const std::string audience_;
};

/// The object store the configuration names (decision 0070): files under <data_dir>/objects,
/// or an S3 bucket (created when missing) with local copies under <data_dir>/object-cache.
std::unique_ptr<objects::ObjectStore> makeObjectStore(const Config& c) {
    if (c.object_store == "local") {
        return std::make_unique<objects::LocalObjectStore>(c.data_dir + "/objects");
    }
    if (c.object_store != "s3") {
        throw std::runtime_error("DOCINTEL_OBJECT_STORE is local or s3, not " + c.object_store);
    }
    if (c.s3_endpoint.empty() || c.s3_bucket.empty() || c.s3_access_key.empty() ||
        c.s3_secret_key.empty()) {
        throw std::runtime_error(
            "DOCINTEL_OBJECT_STORE=s3 needs DOCINTEL_S3_ENDPOINT, DOCINTEL_S3_BUCKET, "
            "DOCINTEL_S3_ACCESS_KEY and DOCINTEL_S3_SECRET_KEY");
    }
    objects::S3Settings settings{c.s3_endpoint,
                                 c.s3_region,
                                 c.s3_bucket,
                                 c.s3_access_key,
                                 c.s3_secret_key,
                                 c.s3_path_style,
                                 c.data_dir + "/object-cache"};
    auto store = std::make_unique<objects::S3ObjectStore>(std::move(settings));
    if (auto ok = store->ensureBucket(); !ok) {
        throw std::runtime_error("the S3 bucket is not usable: " + ok.error().message);
    }
    return store;
}

plugin::HttpResponse jsonResponse(int status, nlohmann::json body) {
    return plugin::HttpResponse::json(status, std::move(body));
}

}  // namespace

struct App::Parts {
    explicit Parts(const Config& c)
        : db(c.database_url, c.db_pool_size),
          users(db),
          workspaces(db),
          revocations_repo(db),
          revocations(revocations_repo),
          documents(db),
          index_feed(db),
          embedding_spaces(db),
          jobs(db),
          access(workspaces),
          document_access(access),
          identity(users, workspaces, access),
          workspace_service(workspaces, users, access),
          object_store(makeObjectStore(c)),
          objects(*object_store),
          document_service(documents, objects, document_access),
          workflow_runs(db),
          evidence(documents),
          renderer(c.data_dir + "/tmp"),

          plugin_backends(c.data_dir, db, workspaces) {}

    storage::Database db;
    storage::UserRepository users;
    storage::WorkspaceRepository workspaces;
    storage::TokenRevocationRepository revocations_repo;
    auth::RevocationList revocations;
    storage::DocumentRepository documents;
    storage::IndexFeedRepository index_feed;
    storage::EmbeddingSpaceRepository embedding_spaces;
    storage::JobRepository jobs;
    auth::WorkspaceAccess access;
    auth::DocumentAccess document_access;
    services::IdentityService identity;
    services::WorkspaceService workspace_service;
    std::unique_ptr<objects::ObjectStore> object_store;
    objects::ObjectStore& objects;  ///< *object_store
    services::DocumentService document_service;
    storage::WorkflowRunRepository workflow_runs;
    engine::ChunkEvidenceFinder evidence;
    engine::PacketRenderer renderer;
    std::unique_ptr<engine::WorkflowCatalog> workflow_catalog;
    std::unique_ptr<engine::WorkflowService> workflow_service;
    std::unique_ptr<engine::ReviewTaskService> review_tasks;
    std::unique_ptr<services::UploadService> upload_service;
    std::unique_ptr<embed::EncoderSet> encoders;
    std::unique_ptr<search::KeywordIndex> keywords;
    std::unique_ptr<search::ModelVectors> vectors;
    std::unique_ptr<search::IndexSync> index_sync;
    std::unique_ptr<search::HybridRetriever> retriever;
    std::unique_ptr<knowledge::KnowledgeService> knowledge;
    std::unique_ptr<knowledge::Summarizer> summarizer;
    std::unique_ptr<knowledge::DocumentComparer> comparer;
    // Answer traces, their evaluations and chat sessions (API nodes).
    std::unique_ptr<storage::AnswerTraceRepository> answer_traces;
    std::unique_ptr<storage::ChatSessionRepository> chat_session_repo;
    std::unique_ptr<knowledge::ChatSessionService> chat_sessions;
    std::unique_ptr<knowledge::EvaluationService> evaluations;
    // Generic artifacts (decision 0056).
    std::unique_ptr<storage::ArtifactRepository> artifact_repo;
    std::unique_ptr<services::ArtifactService> artifacts;
    std::unique_ptr<services::IngestionService> ingestion;
    std::unique_ptr<jobs::WorkerPool> workers;
    PluginHostBackends plugin_backends;  ///< what plugins are lent (decision 0067)
    std::unique_ptr<storage::BatchRepository> batch_repo;
    std::unique_ptr<services::BatchService> batches;
    std::unique_ptr<EventSubsystem> events;  ///< event log, subscriptions, webhooks
    std::unique_ptr<knowledge::Summarizer> batch_summarizer;  ///< worker nodes (no summarizer)

    std::shared_ptr<auth::KeySet> keys;
    std::unique_ptr<auth::TokenService> tokens;
    std::unique_ptr<BearerAuthenticator> authenticator;
    std::unique_ptr<auth::oauth::OAuthServer> oauth;  ///< absent in a worker process
    std::unique_ptr<console::ConsolePages> console;   ///< the reviewer console (API nodes)
    http::Router router;
    http::SchemaRegistry schemas;
    std::unique_ptr<http::ApiServices> api_services;
    std::unique_ptr<http::ApiDispatcher> dispatcher;
    std::unique_ptr<http::HttpServer> http;
    plugin_host::PluginRegistry plugin_registry;
    std::unique_ptr<plugin_host::PluginLoader> plugin_loader;
    std::unique_ptr<plugin_host::PluginWatcher> plugin_watcher;
    // MCP on its own listener (roles api and all).
    std::unique_ptr<BearerAuthenticator> mcp_authenticator;
    std::unique_ptr<mcp::McpServices> mcp_services;
    std::unique_ptr<storage::McpSessionRepository> mcp_sessions;
    std::unique_ptr<mcp::McpServer> mcp;
    std::unique_ptr<http::HttpServer> mcp_http;

    std::mutex background_mutex;  // guards stopping
    std::condition_variable background_wake;
    bool stopping = false;
    std::thread background;  ///< refreshes the revocation list, shares rate-limit counts
    std::unique_ptr<RateSync> rate_sync;                  ///< rate limits across nodes
    std::optional<common::MetricsReader> metrics_reader;  ///< this node's /metrics readings
};

App::App(Config config) : config_(std::move(config)) {
    // Plugins may bring OpenMP (the video plugin's whisper.cpp); its default spin-waiting
    // threads starve the server's own on a small machine (4-5x slower transcription on two
    // shared cores). libgomp reads this when a plugin first loads it; an operator's value wins.
    setenv("OMP_WAIT_POLICY", "passive", 0);
}

App::~App() { stop(0); }

int App::port() const { return parts_ && parts_->http ? parts_->http->port() : 0; }

int App::mcpPort() const { return parts_ && parts_->mcp_http ? parts_->mcp_http->port() : 0; }

void App::start(bool migrate) {
    parts_ = std::make_unique<Parts>(config_);
    Parts& p = *parts_;
    if (migrate) {
        auto applied = storage::Migrator(p.db).migrate();
        if (!applied) throw std::runtime_error("migration failed: " + applied.error().message);
    }
    std::filesystem::create_directories(config_.data_dir);
    p.keys = auth::KeySet::loadOrCreate(config_.keysDir());
    p.revocations.refresh();

    http::HttpServerOptions options;
    options.host = config_.host;
    options.port = config_.port;
    options.max_threads = config_.http_threads;
    options.connections.header_timeout_ms = config_.http_header_timeout_ms;
    options.connections.keep_alive_timeout_ms = config_.http_keep_alive_timeout_ms;
    options.connections.body_timeout_ms = config_.http_body_timeout_ms;
    options.connections.max_per_address = config_.http_max_connections_per_address;
    p.http = std::make_unique<http::HttpServer>(options, [this](const http::RawRequest& r) {
        const Parts& parts = *parts_;
        if (r.method == "GET") {
            if (r.path == "/healthz") return jsonResponse(200, {{"status", "ok"}});
            if (r.path == "/readyz") {
                const double max_lag = std::max(5.0, config_.index_poll_ms / 100.0);
                const auto ready = readiness(parts_->db, parts_->index_sync.get(), max_lag);
                return jsonResponse(ready.ready ? 200 : 503, ready.body);
            }
            if (r.path == "/metrics") return serveMetrics(r, config_.metrics_token);
            if (r.path == "/openapi.json") {
                http::OpenApiInfo info{"docintel", "1.0.0", config_.base_url, config_.issuer()};
                return jsonResponse(200, http::buildOpenApi(parts.router, parts.schemas, info));
            }
            if (r.path == "/.well-known/jwks.json") return jsonResponse(200, parts.keys->jwks());
        }
        if (parts_->console && console::ConsolePages::owns(r.path)) {
            return parts_->console->handle(r);
        }
        if (parts_->oauth) {
            if (auto handled = parts_->oauth->handle(r)) return std::move(*handled);
        }
        return parts.dispatcher->dispatch(r);
    });
    p.http->setBodyLimit([this](const std::string& method, const std::string& path) {
        return parts_->router.maxBodyBytes(method, path, http::kDefaultMaxBodyBytes);
    });
    p.http->bind();
    if (config_.role != "worker") {
        http::HttpServerOptions mcp_options = options;
        mcp_options.port = config_.mcp_port;
        p.mcp_http = std::make_unique<http::HttpServer>(
            mcp_options, [this](const http::RawRequest& r) { return parts_->mcp->handle(r); });
        p.mcp_http->bind();
    }
    config_.resolveUrls(p.http->port(), p.mcp_http ? p.mcp_http->port() : 0);
    p.upload_service = std::make_unique<services::UploadService>(
        p.documents, p.objects,
        objects::UrlSigner::fromSecretFile(config_.keysDir() + "/object-signing.secret"),
        p.document_access, services::UploadLimits{config_.max_upload_bytes, 15 * 60},
        config_.base_url);
    p.http->setStreamHandler("/objects/", [this](const http::RawRequest& r, std::istream& body) {
        const auto length =
            r.headers.count("content-length") ? std::stoll(r.headers.at("content-length")) : -1LL;
        const auto ct = r.headers.count("content-type") ? r.headers.at("content-type") : "";
        auto response =
            parts_->upload_service->receive(r.method, r.path, r.query, ct, length, body);
        response.headers.emplace_back("X-Trace-Id", http::traceIdFor(r.headers));
        return response;
    });

    p.tokens = std::make_unique<auth::TokenService>(
        p.keys, config_.issuer(), [&revocations = p.revocations](const std::string& jti) {
            return revocations.isRevoked(jti);
        });
    p.authenticator = std::make_unique<BearerAuthenticator>(*p.tokens, config_.restAudience());
    if (config_.role != "worker") {
        p.oauth = std::make_unique<auth::oauth::OAuthServer>(oauthSettings(config_), p.db,
                                                             *p.tokens, p.revocations, p.users);
    }

    // Workers embed chunks; API nodes embed questions.
    p.encoders = std::make_unique<embed::EncoderSet>(config_.models_dir, config_.model,
                                                     embed::SentenceEncoder::Options{2});
    // What compares texts it encodes itself uses the primary model (decision 0075).
    const embed::SentenceEncoder* encoder = p.encoders->primary();
    // API nodes search: each keeps its own indexes in step with Postgres.
    if (config_.role != "worker") {
        auto keywords = search::KeywordIndex::open(config_.indexDir());
        if (!keywords) throw std::runtime_error(keywords.error().message);
        p.keywords = std::move(keywords).value();
        if (encoder) p.vectors = std::make_unique<search::ModelVectors>();
        p.index_sync =
            std::make_unique<search::IndexSync>(p.index_feed, *p.keywords, p.vectors.get());
        if (auto s = p.index_sync->start(config_.index_poll_ms); !s) {
            throw std::runtime_error("search indexes: " + s.error().message);
        }
        p.retriever = std::make_unique<search::HybridRetriever>(*p.keywords, p.vectors.get());
        knowledge::KnowledgeOptions knowledge_options;
        knowledge_options.answer.refuse_below = config_.answer_refuse_below;
        p.knowledge = std::make_unique<knowledge::KnowledgeService>(
            p.documents, p.document_access, *p.retriever, *p.encoders, knowledge_options);
        knowledge::SummaryOptions summary_options;
        summary_options.vector_cache_bytes = static_cast<std::size_t>(config_.summary_cache_mb)
                                             << 20;
        p.summarizer = std::make_unique<knowledge::Summarizer>(p.documents, p.document_access,
                                                               encoder, summary_options);
        p.summarizer->enableLlm(
            {config_.llm_base_url, config_.llm_model, config_.llm_api_key, config_.llm_timeout_ms});
        p.comparer = std::make_unique<knowledge::DocumentComparer>(*p.summarizer);
        p.answer_traces = std::make_unique<storage::AnswerTraceRepository>(p.db);
        p.knowledge->setTraceStore(p.answer_traces.get());
        p.knowledge->setIndexCatchUp([sync = p.index_sync.get()](std::int64_t changed) {
            if (auto s = sync->catchUpTo(changed); !s) {
                common::log(common::LogLevel::kWarning, "index_catch_up_failed",
                            {{"error", s.error().message}});
            }
        });
        p.knowledge->enableLlm(
            {config_.llm_base_url, config_.llm_model, config_.llm_api_key, config_.llm_timeout_ms});
        p.chat_session_repo = std::make_unique<storage::ChatSessionRepository>(p.db);
        p.chat_sessions = std::make_unique<knowledge::ChatSessionService>(
            *p.chat_session_repo, p.documents, p.document_access);
        p.evaluations = std::make_unique<knowledge::EvaluationService>(*p.answer_traces,
                                                                       p.document_access, encoder);
    }
    p.schemas.loadBuiltins();
    p.schemas.add("_object", {{"type", "object"}});

    p.workflow_catalog = std::make_unique<engine::WorkflowCatalog>(p.plugin_registry, p.schemas);
    p.workflow_catalog->registerSchemas();
    p.workflow_service = std::make_unique<engine::WorkflowService>(engine::WorkflowService::Parts{
        *p.workflow_catalog, p.workflow_runs, p.documents, p.objects, p.access, p.document_access,
        p.plugin_registry, p.evidence, p.renderer, p.schemas});
    p.workflow_service->setWake([&p] {
        if (p.workers) p.workers->wake();
    });
    p.review_tasks =
        std::make_unique<engine::ReviewTaskService>(*p.workflow_service, p.workflow_runs);
    p.plugin_backends.setWorkflowEngine(&p.evidence, p.workflow_service.get());
    if (p.knowledge) {
        // agent_mode (decision 0055): the engine lends the knowledge service its run results.
        p.knowledge->setRunFacts(
            [&engine = *p.workflow_service](const plugin::Principal& caller,
                                            const knowledge::RunFactQuery& query) {
                return engine.runFacts(caller, query);
            });
    }
    p.plugin_backends.setEncoder(encoder);
    p.api_services = std::make_unique<http::ApiServices>(http::ApiServices{
        p.identity,
        p.workspace_service,
        p.document_service,
        *p.upload_service,
        p.knowledge.get(),
        [this] {
            return nlohmann::json{
                {"resource", config_.restAudience()},
                {"authorization_servers", nlohmann::json::array({config_.issuer()})},
                {"scopes_supported",
                 [] {
                     nlohmann::json names = nlohmann::json::array();
                     for (const auto& [name, _] : http::scopeDescriptions().items()) {
                         names.push_back(name);
                     }
                     return names;
                 }()},
                {"bearer_methods_supported", {"header"}},
                {"resource_signing_alg_values_supported", {"ES256"}},
                {"resource_name", "docintel REST API"},
                {"resource_documentation", config_.base_url + "/openapi.json"}};
        },
        [this] {
            const Parts& parts = *parts_;
            nlohmann::json areas = nlohmann::json::object();
            for (const auto& route : *parts.router.routes()) {
                if (!route->def.path.starts_with("/api/v1")) continue;
                areas[route->tag].push_back({{"operation_id", route->def.operation_id},
                                             {"method", route->def.method},
                                             {"path", route->def.path}});
            }
            return nlohmann::json{{"name", "docintel"},
                                  {"version", "1.0.0"},
                                  {"openapi", config_.base_url + "/openapi.json"},
                                  {"areas", areas},
                                  {"plugins", parts.plugin_registry.toJson()}};
        },
        {}});
    p.api_services->summaries = p.summarizer.get();
    p.api_services->evaluations = p.evaluations.get();
    p.artifact_repo = std::make_unique<storage::ArtifactRepository>(p.db);
    p.artifacts = std::make_unique<services::ArtifactService>(
        *p.artifact_repo, p.documents, p.document_access, p.answer_traces.get());
    p.api_services->artifacts = p.artifacts.get();
    {
        auto& wf = p.api_services->workflows;
        auto& engine = *p.workflow_service;
        auto& reviews = *p.review_tasks;
        wf.schema = [&engine](const std::string& w) { return engine.schema(w); };
        wf.validate = [&engine](const std::string& w, const nlohmann::json& body) {
            return engine.validate(w, body);
        };
        wf.operations_catalog = [&p, &engine]() -> plugin::Result<nlohmann::json> {
            return nlohmann::json{{"operations",
                                   {{{"operation_type", services::UploadService::kIngestJob},
                                     {"resource_type", "document"}},
                                    {{"operation_type", services::IngestionService::kEmbedJob},
                                     {"resource_type", "document"}},
                                    {{"operation_type", engine::WorkflowService::kRunJob},
                                     {"resource_type", "workflow_run"}}}},
                                  {"workflows", engine.catalog()},
                                  {"plugins", p.plugin_registry.toJson()["plugins"]}};
        };
        wf.list_reviews = [&reviews](const plugin::Principal& c, const std::string& status,
                                     int limit) { return reviews.list(c, status, limit); };
        wf.create_review = [&reviews](const plugin::Principal& c, const nlohmann::json& body) {
            return reviews.create(c, body);
        };
        wf.assign_review = [&reviews](const plugin::Principal& c, const std::string& id) {
            return reviews.assign(c, id);
        };
        wf.decide_review = [&reviews](const plugin::Principal& c, const std::string& id,
                                      const nlohmann::json& body) {
            return reviews.decide(c, id, body);
        };
    }
    // A worker process serves only /healthz and /readyz, and runs jobs.
    p.batch_repo = std::make_unique<storage::BatchRepository>(p.db);
    p.batches = std::make_unique<services::BatchService>(
        services::BatchService::Parts{*p.batch_repo, p.documents, *p.upload_service,
                                      p.document_service, p.access, p.document_access, encoder});
    p.batches->setWake([&p] {
        if (p.workers) p.workers->wake();
    });
    if (!p.summarizer) {
        p.batch_summarizer =
            std::make_unique<knowledge::Summarizer>(p.documents, p.document_access, encoder);
    }
    p.batches->setSummarizer(p.summarizer ? p.summarizer.get() : p.batch_summarizer.get());
    p.api_services->batches = p.batches.get();
    p.events = std::make_unique<EventSubsystem>(config_, p.db, p.jobs, p.document_access);
    p.api_services->events = &p.events->service();
    p.plugin_backends.setEventLog(&p.events->log());
    if (p.oauth) {
        p.console = std::make_unique<console::ConsolePages>(
            console::ConsoleServices{p.workspace_service, p.document_service, *p.workflow_service,
                                     *p.review_tasks, *p.upload_service, p.schemas,
                                     p.knowledge.get(), &p.events->service(), &p.plugin_registry},
            p.oauth->signIn(console::ConsolePages::signInOptions(p.oauth->settings())),
            config_.data_dir + "/cache/console-pages");
        // With S3 the browser PUTs to the bucket: its origin, from a URL the store signs.
        p.console->setUploadOrigin(
            p.objects.presignedUrl("PUT", "console-origin", "application/octet-stream", 1, 60));
    }
    if (config_.role != "worker") http::registerApiRoutes(p.router, *p.api_services);

    http::DispatcherOptions dispatcher_options;
    dispatcher_options.resource_metadata_url =
        config_.base_url + "/.well-known/oauth-protected-resource/api";
    dispatcher_options.rate_limit_per_window = config_.rate_limit_per_minute;
    dispatcher_options.rate_limit_window_seconds = 60;
    p.dispatcher = std::make_unique<http::ApiDispatcher>(p.router, p.schemas, *p.authenticator,
                                                         dispatcher_options);

    // Workers first: plugins loaded below (and hot-dropped later) add their job kinds to them.
    if (config_.role != "api") {
        p.ingestion = std::make_unique<services::IngestionService>(p.documents, p.objects,
                                                                   *p.encoders, p.embedding_spaces);
        p.ingestion->enableLlm(
            {config_.llm_base_url, config_.llm_model, config_.llm_api_key, config_.llm_timeout_ms});
        p.workers = std::make_unique<jobs::WorkerPool>(
            p.jobs, common::hostWorkerId(), config_.worker_threads, config_.job_lease_seconds);
        p.workers->handle(services::UploadService::kIngestJob,
                          [&p](jobs::JobContext& c) { return p.ingestion->ingest(c); });
        p.workers->handle(services::IngestionService::kEmbedJob,
                          [&p](jobs::JobContext& c) { return p.ingestion->embed(c); });
        p.batches->setIngestion(p.ingestion.get());
        p.workers->handle(services::BatchService::kRunJob,
                          [&p](jobs::JobContext& c) { return p.batches->run(c); });
        p.workers->handle(engine::WorkflowService::kRunJob,
                          [&p](jobs::JobContext& c) { return p.workflow_service->runJob(c); });
        p.workers->start();
        p.events->startDelivery(common::hostWorkerId());
    }

    p.plugin_backends.setDocuments(&p.document_service, p.upload_service.get(), &p.objects);
    p.plugin_backends.setIngestion(p.ingestion.get());
    p.plugin_backends.setKnowledge(p.knowledge.get(), p.summarizer.get());
    p.plugin_backends.setJobs(&p.jobs, p.workers.get());
    p.plugin_backends.setObjectSigning(
        objects::UrlSigner::fromSecretFile(config_.keysDir() + "/object-signing.secret"),
        config_.base_url);
    p.plugin_backends.setLlm(
        {config_.llm_base_url, config_.llm_model, config_.llm_api_key, config_.llm_timeout_ms});
    p.plugin_loader = std::make_unique<plugin_host::PluginLoader>(
        p.router, p.schemas, p.plugin_registry, p.plugin_backends.hostFor(""));
    p.plugin_loader->setHostFactory([&p](const std::string& name) -> plugin::HostServices& {
        return p.plugin_backends.hostFor(name);
    });
    p.plugin_loader->setJobKindSink([&p](const std::string& name, plugin::PluginJobKind kind) {
        return p.plugin_backends.registerJobKind(name, std::move(kind));
    });
    p.plugin_loader->setStorageProvisioner(
        [&p](const std::string& name, const std::vector<plugin::PluginMigration>& migrations) {
            return p.plugin_backends.provisionStorage(name, migrations);
        });
    p.plugin_loader->setWorkflowValidator([&p](const nlohmann::json& definition) {
        return p.workflow_catalog->validateDefinition(definition);
    });
    if (std::filesystem::is_directory(config_.plugins_dir)) {
        (void)p.plugin_loader->loadDirectory(config_.plugins_dir);
    }
    p.plugin_watcher = std::make_unique<plugin_host::PluginWatcher>(
        *p.plugin_loader, config_.plugins_dir, config_.plugin_poll_ms);
    p.plugin_watcher->start();

    if (p.mcp_http) startMcp(p);
    p.rate_sync = std::make_unique<RateSync>(p.db, common::hostWorkerId());
    if (config_.role != "worker") p.rate_sync->add("rest", p.dispatcher->rateLimiter());
    if (p.mcp) p.rate_sync->add("mcp", p.mcp->rateLimiter());
    p.metrics_reader.emplace([&p, role = config_.role] {
        return readNodeMetrics(
            {p.db, p.plugin_registry, p.index_sync.get(), p.ingestion.get(), role});
    });

    p.background = std::thread([&p] {
        std::unique_lock lock(p.background_mutex);
        while (!p.stopping) {
            p.background_wake.wait_for(lock, std::chrono::seconds(1));
            if (p.stopping) break;
            lock.unlock();
            p.revocations.refresh();
            p.rate_sync->syncOnce(common::nowEpochSeconds());
            lock.lock();
        }
    });

    p.http->start();
    if (p.mcp_http) p.mcp_http->start();
    common::log(common::LogLevel::kInfo, "server_started",
                {{"port", std::to_string(p.http->port())},
                 {"base_url", config_.base_url},
                 {"mcp_url", p.mcp_http ? config_.mcp_url : std::string("off")},
                 {"role", config_.role},
                 {"plugins_dir", config_.plugins_dir}});
}

void App::startMcp(Parts& p) {
    p.mcp_authenticator = std::make_unique<BearerAuthenticator>(*p.tokens, config_.mcp_url);
    p.mcp_services = std::make_unique<mcp::McpServices>(
        mcp::McpServices{p.workspace_service, p.document_service, *p.upload_service, p.schemas,
                         p.workflow_service.get()});
    p.mcp_services->summaries = p.summarizer.get();
    p.mcp_services->comparer = p.comparer.get();
    p.mcp_services->knowledge = p.knowledge.get();
    p.mcp_services->chat_sessions = p.chat_sessions.get();
    p.mcp_services->batches = p.batches.get();
    mcp::PluginSource plugins{
        [&registry = p.plugin_registry] { return registry.generation(); },
        [&registry = p.plugin_registry] {
            std::vector<mcp::Tool> tools;
            for (const auto& t : registry.mcpTools()) {
                tools.push_back(mcp::toolFromPlugin(t.plugin, t.definition));
            }
            return tools;
        },
        [&registry = p.plugin_registry] {
            std::vector<mcp::Resource> resources;
            for (const auto& r : registry.mcpResources()) {
                resources.push_back(mcp::resourceFromPlugin(r.plugin, r.definition));
            }
            return resources;
        }};
    mcp::McpServerOptions options;
    options.mcp_url = config_.mcp_url;
    options.issuer = config_.issuer();
    for (const auto& [name, _] : http::scopeDescriptions().items()) {
        options.scopes_supported.push_back(name);
    }
    options.rate_limit_per_window = config_.rate_limit_per_minute;
    p.mcp_sessions = std::make_unique<storage::McpSessionRepository>(p.db);
    options.shared_sessions = p.mcp_sessions.get();
    options.test_profile = config_.mcp_test_profile;
    if (options.test_profile) {
        common::log(common::LogLevel::kWarning, "mcp_test_profile",
                    {{"what", "serving the MCP conformance fixtures"}});
    }
    p.mcp = std::make_unique<mcp::McpServer>(*p.mcp_services, *p.mcp_authenticator,
                                             std::move(plugins), std::move(options));
}

void App::stop(int grace_ms) {
    if (!parts_) return;
    Parts& p = *parts_;
    if (p.mcp_http) p.mcp_http->stop(grace_ms);
    if (p.http) p.http->stop(grace_ms);
    if (p.workers) p.workers->stop(grace_ms);
    if (p.events) p.events->stop(grace_ms);
    if (p.index_sync) p.index_sync->stop();
    if (p.plugin_watcher) p.plugin_watcher->stop();
    {
        std::lock_guard lock(p.background_mutex);
        p.stopping = true;
    }
    p.background_wake.notify_all();
    if (p.background.joinable()) p.background.join();
    parts_.reset();
}

}  // namespace docintel::server
