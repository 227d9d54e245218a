#include "server/plugin_host_services.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "common/id.h"
#include "common/log.h"
#include "server/plugin_host_documents.h"
#include "storage/user_repository.h"

namespace docintel::server {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// A plugin's view of its job's run.
class PluginJobRun final : public plugin::PluginJob {
  public:
    explicit PluginJobRun(jobs::JobContext& context) : context_(context) {}
    const std::string& id() const override { return context_.job().id; }
    const nlohmann::json& payload() const override { return context_.payload(); }
    bool done(const std::string& step) const override { return context_.done(step); }
    plugin::Status mark(const std::string& step, const nlohmann::json& data) override {
        return context_.mark(step, data);
    }
    const nlohmann::json& checkpoint() const override { return context_.job().checkpoint; }
    plugin::Status progress(int percent) override {
        return context_.mark("progress", std::clamp(percent, 0, 100));
    }

  private:
    jobs::JobContext& context_;
};

std::string engineKind(const std::string& plugin, const std::string& kind) {
    return "plugin." + plugin + "." + kind;
}

plugin::Error workspaceNotFound() {
    return plugin::Error{"workspace_not_found", "workspace not found", 404};
}

/// What one plugin is lent: the shared parts, and what is the plugin's own (its storage).
/// Thread-safe (reads only; the backends guard their maps).
class PluginHostServices final : public plugin::HostServices {
  public:
    PluginHostServices(std::string plugin, PluginHostBackends& backends)
        : plugin_(std::move(plugin)), backends_(backends) {}

    void log(const std::string& plugin, const std::string& level,
             const std::string& message) override {
        common::log(common::parseLogLevel(level).value_or(common::LogLevel::kInfo), "plugin_log",
                    {{"plugin", plugin}, {"message", message}});
    }
    std::string dataDir() const override { return backends_.dataDir(); }
    plugin::EvidenceFinder* evidence() override { return backends_.evidence(); }
    plugin::WorkflowRuns* workflowRuns() override { return backends_.workflowRuns(); }

    plugin::Result<std::vector<std::vector<float>>> embed(
        const std::vector<std::string>& texts) override {
        if (!backends_.encoder()) return plugin::HostServices::embed(texts);
        return backends_.encoder()->encode(texts);
    }

    plugin::Status emitEvent(const plugin::PluginEvent& event) override {
        auto* events = backends_.eventLog();
        if (!events) return plugin::HostServices::emitEvent(event);
        if (event.type.empty() || event.resource_type.empty() ||
            (event.workspace_id.empty() && event.user_id.empty())) {
            return plugin::Error::badRequest(
                "invalid_event", "an event needs a type, a resource type and a workspace or user");
        }
        storage::Event e;
        e.type = event.type;
        e.resource_type = event.resource_type;
        e.resource_id = event.resource_id;
        e.workspace_id = event.workspace_id;
        e.user_id = event.user_id;
        e.actor_id = event.actor_id;
        e.payload = event.payload;
        auto id = events->append(e);
        if (!id) return id.error();
        return {};
    }

    plugin::Status runTransaction(
        const std::function<plugin::Status(plugin::PluginTx&)>& fn) override {
        auto* store = backends_.store(plugin_);
        if (!store) {
            return plugin::Error::unavailable(
                "storage_not_ready",
                "plugin " + plugin_ + " has no storage (no migrations, or not applied yet)");
        }
        return store->transact(fn);
    }

    plugin::Result<std::string> workspaceRole(const plugin::Principal& principal,
                                              const std::string& workspace_id) override {
        // Not a UUID: no such workspace (Postgres would refuse the value: a 500, not a 404).
        if (principal.user_id.empty() || !common::isUuid(workspace_id)) return workspaceNotFound();
        auto role = backends_.workspaces().roleOf(workspace_id, principal.user_id);
        if (!role) return role.error();
        if (!role->has_value()) return workspaceNotFound();
        return **role;
    }

    plugin::Result<plugin::WorkspaceMember> findWorkspaceMember(const plugin::Principal& principal,
                                                                const std::string& workspace_id,
                                                                const std::string& email) override {
        auto members = workspaceMembers(principal, workspace_id);
        if (!members) return members.error();
        const std::string wanted = lower(email);
        for (auto& m : *members) {
            if (lower(m.email) == wanted) return std::move(m);
        }
        // Told apart as the core's add-member does for a workspace's members: no account with
        // that e-mail at all, or an account outside this workspace.
        auto user = storage::UserRepository(backends_.db()).findByEmail(wanted);
        if (!user) return user.error();
        if (!user->has_value()) {
            return plugin::Error{"user_not_found", "no user has that e-mail", 404};
        }
        return plugin::Error{"member_not_found", "no member of the workspace has that e-mail", 404};
    }

    plugin::Result<std::vector<plugin::WorkspaceMember>> workspaceMembers(
        const plugin::Principal& principal, const std::string& workspace_id) override {
        if (principal.user_id.empty() || !common::isUuid(workspace_id)) return workspaceNotFound();
        auto workspace = backends_.workspaces().findForUser(workspace_id, principal.user_id);
        if (!workspace) return workspace.error();
        if (!workspace->has_value()) return workspaceNotFound();
        std::vector<plugin::WorkspaceMember> out;
        for (const auto& m : (*workspace)->members) {
            out.push_back({workspace_id, m.user_id, m.email, m.display_name, m.role});
        }
        return out;
    }

    plugin::Result<nlohmann::json> listDocuments(const plugin::Principal& principal,
                                                 const std::string& workspace_id) override {
        return plugin_documents::list(backends_, principal, workspace_id);
    }
    plugin::Result<nlohmann::json> getDocument(const plugin::Principal& principal,
                                               const std::string& document_id) override {
        return plugin_documents::get(backends_, principal, document_id);
    }
    plugin::Result<nlohmann::json> documentChunks(const plugin::Principal& principal,
                                                  const std::string& document_id) override {
        return plugin_documents::chunks(backends_, principal, document_id);
    }
    plugin::Result<nlohmann::json> createDocument(const plugin::Principal& principal,
                                                  const plugin::NewDocument& document) override {
        return plugin_documents::create(backends_, principal, document);
    }
    plugin::Result<nlohmann::json> deleteDocument(const plugin::Principal& principal,
                                                  const std::string& document_id) override {
        return plugin_documents::remove(backends_, principal, document_id);
    }
    plugin::Status askGrounded(const plugin::Principal& principal,
                               const plugin::GroundedQuestion& question,
                               const std::function<bool(const nlohmann::json&)>& emit) override {
        return plugin_documents::ask(backends_, principal, question, emit);
    }
    plugin::Result<nlohmann::json> retrieve(const plugin::Principal& principal,
                                            const plugin::GroundedQuestion& question) override {
        return plugin_documents::retrieve(backends_, principal, question);
    }
    plugin::Result<std::vector<plugin::SupportVerdict>> checkSupport(
        const std::vector<plugin::SupportClaim>& claims) override {
        return plugin_documents::checkSupport(backends_, claims);
    }
    plugin::Result<nlohmann::json> summarize(const plugin::Principal& principal,
                                             const std::string& document_id,
                                             const nlohmann::json& request) override {
        return plugin_documents::summarize(backends_, principal, document_id, request);
    }

    plugin::Result<nlohmann::json> putObject(const std::string& name, const std::string& bytes,
                                             const std::string& content_type) override {
        return plugin_documents::putObject(backends_, plugin_, name, bytes, content_type);
    }
    plugin::Result<std::string> readObject(const std::string& name) override {
        return plugin_documents::readObject(backends_, plugin_, name);
    }
    plugin::Status removeObject(const std::string& name) override {
        return plugin_documents::removeObject(backends_, plugin_, name);
    }
    plugin::Result<std::string> signedUploadUrl(const std::string& name,
                                                const std::string& content_type, std::int64_t size,
                                                int ttl_seconds) override {
        return plugin_documents::signedUploadUrl(backends_, plugin_, name, content_type, size,
                                                 ttl_seconds);
    }

    plugin::Result<std::string> signedDownloadUrl(const std::string& name,
                                                  const std::string& content_type,
                                                  int ttl_seconds) override {
        return plugin_documents::signedDownloadUrl(backends_, plugin_, name, content_type,
                                                   ttl_seconds);
    }

    plugin::Result<std::string> enqueueJob(const std::string& kind,
                                           const nlohmann::json& payload) override {
        return backends_.enqueueJob(plugin_, kind, payload);
    }

    bool hasLlm() override { return backends_.llm() != nullptr; }
    plugin::Result<std::string> completeChat(
        const nlohmann::json& messages,
        const std::function<bool(const std::string&)>& on_token) override {
        const auto* llm = backends_.llm();
        if (!llm) return plugin::HostServices::completeChat(messages, on_token);
        if (!messages.is_array() || messages.empty()) {
            return plugin::Error::unprocessable("invalid_messages",
                                                "messages must be a non-empty array");
        }
        const std::function<bool(const std::string&)> keep_going =
            on_token ? on_token : [](const std::string&) { return true; };
        auto done = llm->complete(messages, keep_going);
        if (!done) return done.error();
        return done->text;
    }

    plugin::Result<nlohmann::json> createMediaUpload(const plugin::Principal& principal,
                                                     const plugin::MediaUpload& upload) override {
        return plugin_documents::createMediaUpload(backends_, principal, upload);
    }
    plugin::Result<nlohmann::json> completeUpload(const plugin::Principal& principal,
                                                  const std::string& workspace_id,
                                                  const nlohmann::json& body) override {
        return plugin_documents::completeUpload(backends_, principal, workspace_id, body);
    }
    plugin::Result<std::string> documentFile(const plugin::Principal& principal,
                                             const std::string& document_id) override {
        return plugin_documents::documentFile(backends_, principal, document_id);
    }
    plugin::Status setDocumentState(const plugin::Principal& principal,
                                    const std::string& document_id, const std::string& state,
                                    const std::string& error_code,
                                    const std::string& message) override {
        return plugin_documents::setState(backends_, principal, document_id, state, error_code,
                                          message);
    }
    plugin::Status storeDocumentChunks(const plugin::Principal& principal,
                                       const std::string& document_id,
                                       const std::vector<plugin::TimedChunk>& chunks) override {
        return plugin_documents::storeChunks(backends_, principal, document_id, chunks);
    }
    plugin::Status embedDocument(const plugin::Principal& principal,
                                 const std::string& document_id) override {
        return plugin_documents::embed(backends_, principal, document_id);
    }
    plugin::Result<std::string> recognizeText(const plugin::GrayImage& image) override {
        return plugin_documents::recognizeText(image);
    }
    plugin::Result<nlohmann::json> createPluginDocument(
        const plugin::Principal& principal, const plugin::PluginDocument& document) override {
        return plugin_documents::createPluginDocument(backends_, principal, document);
    }
    plugin::Status writeDocumentText(const plugin::Principal& principal,
                                     const std::string& document_id, const std::string& text,
                                     const std::string& doc_type) override {
        return plugin_documents::writeText(backends_, principal, document_id, text, doc_type);
    }
    plugin::Result<std::vector<std::string>> redactPii(
        const std::vector<std::string>& texts) override {
        return plugin_documents::redactPii(texts);
    }

  private:
    const std::string plugin_;
    PluginHostBackends& backends_;
};

}  // namespace

PluginHostBackends::PluginHostBackends(std::string data_dir, storage::Database& db,
                                       storage::WorkspaceRepository& workspaces)
    : data_dir_(std::move(data_dir)), db_(db), workspaces_(workspaces) {}

plugin::HostServices& PluginHostBackends::hostFor(const std::string& plugin) {
    std::lock_guard lock(mutex_);
    auto& host = hosts_[plugin];
    if (!host) host = std::make_unique<PluginHostServices>(plugin, *this);
    return *host;
}

plugin::Status PluginHostBackends::provisionStorage(
    const std::string& plugin, const std::vector<plugin::PluginMigration>& migrations) {
    auto login = storage::PluginProvisioner(db_).provision(plugin);
    if (!login) return login.error();
    auto store = std::make_unique<storage::PluginStore>(std::move(login).value());
    auto applied = store->migrate(migrations);
    if (!applied) return applied.error();
    std::lock_guard lock(mutex_);
    // A plugin name loads once per process, so there is no store to replace.
    stores_[plugin] = std::move(store);
    return {};
}

plugin::Status PluginHostBackends::registerJobKind(const std::string& plugin,
                                                   plugin::PluginJobKind kind) {
    const std::string engine_kind = engineKind(plugin, kind.name);
    {
        std::lock_guard lock(mutex_);
        job_kinds_.insert(engine_kind);
    }
    if (workers_) {
        workers_->handle(engine_kind, [run = std::move(kind.run)](jobs::JobContext& context) {
            PluginJobRun job(context);
            return run(job);
        });
    }
    return {};
}

plugin::Result<std::string> PluginHostBackends::enqueueJob(const std::string& plugin,
                                                           const std::string& kind,
                                                           const nlohmann::json& payload) {
    if (!jobs_)
        return plugin::Error::unavailable("jobs_unavailable", "this node has no job engine");
    const std::string engine_kind = engineKind(plugin, kind);
    {
        std::lock_guard lock(mutex_);
        if (job_kinds_.count(engine_kind) == 0) {
            return plugin::Error{"unknown_job_kind",
                                 "plugin " + plugin + " has no job kind " + kind, 404};
        }
    }
    auto id = jobs_->enqueue(engine_kind, payload);
    if (id && workers_) workers_->wake();
    return id;
}

storage::PluginStore* PluginHostBackends::store(const std::string& plugin) const {
    std::lock_guard lock(mutex_);
    const auto it = stores_.find(plugin);
    return it == stores_.end() ? nullptr : it->second.get();
}

}  // namespace docintel::server
