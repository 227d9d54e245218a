#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "embed/sentence_encoder.h"
#include "jobs/worker_pool.h"
#include "knowledge/knowledge_service.h"
#include "knowledge/llm_client.h"
#include "knowledge/summarizer.h"
#include "objects/object_store.h"
#include "objects/url_signer.h"
#include "plugin_api/host_services.h"
#include "storage/database.h"
#include "storage/event_repository.h"
#include "storage/plugin_store.h"
#include "storage/workspace_repository.h"

namespace docintel::services {
class DocumentService;
class IngestionService;
class UploadService;
}  // namespace docintel::services

namespace docintel::server {

/// What the host lends plugins, shared by all of them: the core parts a plugin reaches through
/// its HostServices, and each plugin's storage. The server fills the parts in once at start-up,
/// before any plugin loads; `hostFor` and `provisionStorage` are then called by the plugin
/// loader.
///
/// Ownership: the per-plugin HostServices and stores are kept for the life of the process
/// (plugins are never unloaded and may keep the reference). Thread-safe: `mutex_` guards the
/// maps; the parts are read-only after start-up.
class PluginHostBackends {
  public:
    PluginHostBackends(std::string data_dir, storage::Database& db,
                       storage::WorkspaceRepository& workspaces);

    /// Set once at start-up, before any plugin loads.
    void setEventLog(storage::EventRepository* events) { events_ = events; }
    void setEncoder(const embed::SentenceEncoder* encoder) { encoder_ = encoder; }
    void setWorkflowEngine(plugin::EvidenceFinder* evidence, plugin::WorkflowRuns* runs) {
        evidence_ = evidence;
        runs_ = runs;
    }

    /// Documents: reads and deletes, and creation through the upload path. Null on a node
    /// without them (the calls answer 503).
    void setDocuments(services::DocumentService* documents, services::UploadService* uploads,
                      objects::ObjectStore* objects) {
        documents_ = documents;
        uploads_ = uploads;
        objects_ = objects;
    }
    /// Embedding of media documents plugins chunk (a node with workers; null elsewhere).
    void setIngestion(services::IngestionService* ingestion) { ingestion_ = ingestion; }
    /// Signed upload URLs for plugins' objects: the signer the object route verifies with, and
    /// the server's public base URL.
    void setObjectSigning(objects::UrlSigner signer, std::string base_url) {
        signer_ = std::make_unique<objects::UrlSigner>(std::move(signer));
        base_url_ = std::move(base_url);
    }
    /// Grounded answers and summaries (API nodes; null on a worker).
    void setKnowledge(knowledge::KnowledgeService* knowledge, knowledge::Summarizer* summaries) {
        knowledge_ = knowledge;
        summaries_ = summaries;
    }

    /// The LLM endpoint plugins may use; a config that is not `enabled()` = none.
    void setLlm(const knowledge::LlmConfig& config) {
        if (config.enabled()) llm_ = std::make_unique<knowledge::LlmClient>(config);
    }

    /// The job engine: the queue, and this node's worker pool (null on an API-only node).
    void setJobs(storage::JobRepository* jobs, jobs::WorkerPool* workers) {
        jobs_ = jobs;
        workers_ = workers;
    }
    /// Makes `kind` of `plugin` runnable here as `plugin.<plugin>.<kind>` (the loader's
    /// JobKindSink).
    plugin::Status registerJobKind(const std::string& plugin, plugin::PluginJobKind kind);
    /// Queues a job of a kind `plugin` registered.
    plugin::Result<std::string> enqueueJob(const std::string& plugin, const std::string& kind,
                                           const nlohmann::json& payload);

    /// The HostServices of plugin `plugin` (created on first use, kept).
    plugin::HostServices& hostFor(const std::string& plugin);

    /// Provisions the plugin's role and schema and applies its missing migrations; after
    /// this the plugin's `transact` works (PluginLoader's StorageProvisioner).
    plugin::Status provisionStorage(const std::string& plugin,
                                    const std::vector<plugin::PluginMigration>& migrations);

    /// The plugin's store, or null before provisionStorage succeeded.
    storage::PluginStore* store(const std::string& plugin) const;

    const std::string& dataDir() const { return data_dir_; }
    plugin::EvidenceFinder* evidence() const { return evidence_; }
    plugin::WorkflowRuns* workflowRuns() const { return runs_; }
    const embed::SentenceEncoder* encoder() const { return encoder_; }
    storage::EventRepository* eventLog() const { return events_; }
    storage::WorkspaceRepository& workspaces() const { return workspaces_; }
    storage::Database& db() const { return db_; }
    services::DocumentService* documents() const { return documents_; }
    services::UploadService* uploads() const { return uploads_; }
    objects::ObjectStore* objects() const { return objects_; }
    services::IngestionService* ingestion() const { return ingestion_; }
    const objects::UrlSigner* signer() const { return signer_.get(); }
    const std::string& baseUrl() const { return base_url_; }
    knowledge::KnowledgeService* knowledge() const { return knowledge_; }
    knowledge::Summarizer* summaries() const { return summaries_; }
    const knowledge::LlmClient* llm() const { return llm_.get(); }

  private:
    const std::string data_dir_;
    storage::Database& db_;
    storage::WorkspaceRepository& workspaces_;
    plugin::EvidenceFinder* evidence_ = nullptr;
    plugin::WorkflowRuns* runs_ = nullptr;
    const embed::SentenceEncoder* encoder_ = nullptr;
    storage::EventRepository* events_ = nullptr;
    services::DocumentService* documents_ = nullptr;
    services::UploadService* uploads_ = nullptr;
    objects::ObjectStore* objects_ = nullptr;
    services::IngestionService* ingestion_ = nullptr;
    knowledge::KnowledgeService* knowledge_ = nullptr;
    knowledge::Summarizer* summaries_ = nullptr;
    std::unique_ptr<knowledge::LlmClient> llm_;
    std::unique_ptr<objects::UrlSigner> signer_;
    std::string base_url_;
    storage::JobRepository* jobs_ = nullptr;
    jobs::WorkerPool* workers_ = nullptr;

    mutable std::mutex mutex_;         // guards hosts_, stores_ and job_kinds_
    std::set<std::string> job_kinds_;  ///< engine kinds, plugin.<plugin>.<kind>
    std::map<std::string, std::unique_ptr<plugin::HostServices>> hosts_;
    std::map<std::string, std::unique_ptr<storage::PluginStore>> stores_;
};

}  // namespace docintel::server
