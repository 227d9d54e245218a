#include "plugin_host/plugin_loader.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/log.h"
#include "common/metrics.h"
#include "plugin_api/plugin.h"
#include "plugin_host/catch_all.h"
#include "plugin_host/plugin_snapshot.h"
#include "plugin_host/staging_registrar.h"

namespace docintel::plugin_host {
namespace {

using common::LogLevel;
using plugin::Error;
using plugin::Status;

constexpr const char* kDescriptorSymbol = "docintel_plugin_descriptor";

// ^[a-z][a-z0-9_]{1,63}$
bool validPluginName(const std::string& name) {
    if (name.size() < 2 || name.size() > 64 || name[0] < 'a' || name[0] > 'z') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

}  // namespace

std::optional<PluginFileIdentity> identifyPluginFile(const std::string& path) {
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec).lexically_normal();
    if (ec) return std::nullopt;
    struct stat st {};
    if (::stat(absolute.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    PluginFileIdentity identity;
    identity.path = absolute.string();
    identity.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
                        static_cast<std::int64_t>(st.st_mtim.tv_nsec);
    identity.size = static_cast<std::uintmax_t>(st.st_size);
    return identity;
}

PluginLoader::PluginLoader(http::Router& router, http::SchemaRegistry& schemas,
                           PluginRegistry& registry, plugin::HostServices& host)
    : router_(router), schemas_(schemas), registry_(registry), host_(host) {}

bool PluginLoader::attempted(const PluginFileIdentity& identity) const {
    std::lock_guard lock(load_mutex_);
    return attempted_.count(identity) > 0;
}

Status PluginLoader::loadFile(const std::string& path) {
    std::lock_guard lock(load_mutex_);
    std::optional<std::string> failure;
    try {
        return loadLocked(path);
    } catch (const std::exception& e) {
        failure = currentExceptionType() + ": " + e.what();
    } catch (...) {
        failure = currentExceptionType();
    }
    return refuse(path, {}, Error::internal("loading failed with " + *failure));
}

Status PluginLoader::refuse(const std::string& path, const std::string& name, Error error) {
    common::log(LogLevel::kWarning, "plugin_refused",
                {{"path", path}, {"name", name}, {"code", error.code}, {"reason", error.message}});
    registry_.addRefused({path, name, error.code, error.message, common::nowIso8601()});
    common::Metrics::instance().add("docintel_plugin_load_failures_total",
                                    "Plugin files refused at load, by error code.",
                                    {{"code", error.code}});
    return error;
}

Status PluginLoader::loadLocked(const std::string& requested_path) {
    const auto identity = identifyPluginFile(requested_path);
    if (!identity) {
        return refuse(requested_path, {},
                      Error{"file_unreadable", "not a readable regular file", 404});
    }
    attempted_.insert(*identity);
    const std::string& path = identity->path;

    // Libraries are never unloaded, so the build first opened from a path keeps serving; a new
    // file there is refused with that reason rather than as a duplicate name.
    if (opened_paths_.count(path) > 0) {
        return refuse(path, {},
                      Error::conflict("path_reused",
                                      "a library was already opened from this path and "
                                      "libraries are never unloaded; drop the new build "
                                      "under a new file name"));
    }

    // Opened from a private copy: the dropped file may still be growing, or be overwritten in
    // place later, and either would change pages the process has mapped.
    auto snapshot = PluginSnapshot::take(*identity);
    if (!snapshot.ok()) return refuse(path, {}, snapshot.error());
    dlerror();
    void* library = dlopen(snapshot->path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* message = dlerror();
        return refuse(
            path, {},
            Error::unprocessable("load_failed", std::string("dlopen failed: ") +
                                                    (message != nullptr ? message : "unknown")));
    }
    // From here on the library stays mapped for the life of the process (never dlclose'd).
    opened_paths_.insert(path);

    void* symbol = dlsym(library, kDescriptorSymbol);
    if (symbol == nullptr) {
        return refuse(path, {},
                      Error::unprocessable("no_descriptor", std::string("the library exports no ") +
                                                                kDescriptorSymbol));
    }
    const auto descriptor_fn = reinterpret_cast<DocintelPluginDescriptorFn>(symbol);
    const DocintelPluginDescriptor* descriptor = nullptr;
    if (auto thrown = catchAll([&] { descriptor = descriptor_fn(); })) {
        return refuse(
            path, {},
            Error::unprocessable("invalid_descriptor", "the descriptor function threw " + *thrown));
    }
    if (descriptor == nullptr) {
        return refuse(path, {},
                      Error::unprocessable("invalid_descriptor", "the descriptor is null"));
    }

    const std::string name = descriptor->name != nullptr ? descriptor->name : "";
    if (descriptor->abi_major != DOCINTEL_PLUGIN_ABI_MAJOR ||
        descriptor->abi_minor > DOCINTEL_PLUGIN_ABI_MINOR) {
        return refuse(
            path, name,
            Error::unprocessable("abi_mismatch",
                                 "plugin ABI " + std::to_string(descriptor->abi_major) + "." +
                                     std::to_string(descriptor->abi_minor) + ", host ABI " +
                                     std::to_string(DOCINTEL_PLUGIN_ABI_MAJOR) + "." +
                                     std::to_string(DOCINTEL_PLUGIN_ABI_MINOR)));
    }
    if (descriptor->build_id == nullptr ||
        std::strcmp(descriptor->build_id, DOCINTEL_PLUGIN_BUILD_ID) != 0) {
        return refuse(path, name,
                      Error::unprocessable(
                          "build_mismatch",
                          std::string("plugin build ") +
                              (descriptor->build_id != nullptr ? descriptor->build_id : "(none)") +
                              ", host build " + DOCINTEL_PLUGIN_BUILD_ID));
    }
    if (!validPluginName(name) || descriptor->version == nullptr ||
        descriptor->version[0] == '\0' || descriptor->create == nullptr ||
        descriptor->destroy == nullptr) {
        return refuse(path, name,
                      Error::unprocessable("invalid_descriptor",
                                           "the descriptor needs a name matching "
                                           "^[a-z][a-z0-9_]{1,63}$, a version, create and "
                                           "destroy"));
    }
    if (registry_.isLoaded(name)) {
        return refuse(
            path, name,
            Error::conflict("duplicate_plugin", "a plugin named " + name + " is already loaded"));
    }
    const std::string version = descriptor->version;

    plugin::Plugin* raw = nullptr;
    if (auto thrown = catchAll([&] { raw = descriptor->create(); })) {
        return refuse(path, name, Error::unprocessable("create_failed", "create threw " + *thrown));
    }
    if (raw == nullptr) {
        return refuse(path, name, Error::unprocessable("create_failed", "create returned null"));
    }
    auto destroy = descriptor->destroy;
    auto registrar = std::make_shared<StagingRegistrar>(name);
    // Shared by every handler wrapper: the plugin object lives as long as something may call it.
    // The registrar lives as long as the plugin; what is left in it goes before the plugin does.
    std::shared_ptr<plugin::Plugin> owner(raw, [destroy, name, registrar](plugin::Plugin* p) {
        registrar->clear();
        if (auto thrown = catchAll([&] { destroy(p); })) {
            common::log(LogLevel::kError, "plugin_destroy_threw",
                        {{"plugin", name}, {"exception", *thrown}});
        }
    });

    plugin::HostServices& host = host_factory_ ? host_factory_(name) : host_;
    auto thrown = catchAll([&] { owner->registerWith(*registrar, host); });
    registrar->freeze();
    if (thrown) {
        return refuse(path, name,
                      Error::unprocessable("registration_failed", "registerWith threw " + *thrown));
    }
    StagingRegistrar& staged = *registrar;
    Status valid = validateSchemas(staged, schemas_);
    if (valid) valid = validateRoutes(staged, router_, schemas_);
    if (valid) valid = validateMcp(staged, registry_);
    if (valid) valid = validateSteps(staged, registry_);
    if (valid) valid = validateWorkflows(staged, registry_, workflowValidator());
    if (valid) valid = validateAttachments(staged, router_);
    if (valid) valid = validateMigrations(staged);
    if (valid) valid = validateJobKinds(staged);
    if (valid) valid = validateConsolePages(staged);
    if (!valid) return refuse(path, name, valid.error());
    if (!staged.job_kinds.empty() && !job_kind_sink_) {
        return refuse(path, name,
                      Error::unavailable("jobs_unavailable",
                                         "the plugin registers job kinds and this host runs none"));
    }
    if (!staged.migrations.empty()) {
        if (!storage_provisioner_) {
            return refuse(path, name,
                          Error::unavailable("storage_unavailable",
                                             "the plugin ships migrations and this host has no "
                                             "plugin storage"));
        }
        if (auto ready = storage_provisioner_(name, staged.migrations); !ready) {
            return refuse(path, name,
                          Error::unprocessable("storage_failed", ready.error().message));
        }
    }

    // Commit. Loads are serialised and everything was checked, so a failure here means a
    // built-in registration raced this load; what was added already cannot be removed.
    PluginContribution contribution;
    contribution.info.name = name;
    contribution.info.version = version;
    contribution.info.path = path;
    Status committed;
    for (auto& [schema_name, schema] : staged.schemas) {
        if (!schemas_.add(schema_name, std::move(schema))) {
            committed = Error::conflict("commit_failed", "schema " + schema_name + " was taken");
            break;
        }
        contribution.info.schemas.push_back(schema_name);
    }
    for (auto& def : staged.routes) {
        if (!committed) break;
        const std::string operation_id = def.operation_id;
        def.handler = guard(owner, name, "route " + operation_id, std::move(def.handler));
        if (auto status = router_.add(std::move(def), name, name); !status) {
            committed = Error::conflict("commit_failed", status.error().message);
            break;
        }
        contribution.info.operation_ids.push_back(operation_id);
    }
    for (auto& [operation_id, handler] : staged.attachments) {
        if (!committed) break;
        auto guarded = guard(owner, name, "operation " + operation_id, std::move(handler));
        if (auto status = router_.attach(operation_id, name, std::move(guarded)); !status) {
            committed = Error::conflict("commit_failed", status.error().message);
            break;
        }
        contribution.info.attached_operations.push_back(operation_id);
    }
    for (auto& kind : staged.job_kinds) {
        if (!committed) break;
        kind.run = guard(owner, name, "job kind " + kind.name, std::move(kind.run));
        if (auto status = job_kind_sink_(name, std::move(kind)); !status) {
            committed = Error::conflict("commit_failed", status.error().message);
            break;
        }
    }
    for (auto& tool : staged.tools) {
        tool.handler = guard(owner, name, "mcp tool " + tool.name, std::move(tool.handler));
        contribution.info.mcp_tools.push_back(tool.name);
        contribution.tools.push_back(std::move(tool));
    }
    for (auto& resource : staged.resources) {
        resource.reader =
            guard(owner, name, "mcp resource " + resource.uri_template, std::move(resource.reader));
        contribution.info.mcp_resources.push_back(resource.uri_template);
        contribution.resources.push_back(std::move(resource));
    }
    for (auto& step : staged.steps) {
        step.run = guard(owner, name, "workflow step " + step.name, std::move(step.run));
        contribution.info.workflow_steps.push_back(step.name);
        contribution.steps.push_back(std::move(step));
    }
    for (auto& page : staged.console_pages) {
        page.view = guard(owner, name, "console page " + page.path, std::move(page.view));
        contribution.info.console_pages.push_back(page.path);
        contribution.console_pages.push_back(std::move(page));
    }
    for (auto& workflow : staged.workflows) {
        contribution.info.workflows.push_back(workflow.at("name").get<std::string>());
        contribution.workflows.push_back(std::move(workflow));
    }
    contribution.info.loaded_at = common::nowIso8601();
    const PluginInfo info = contribution.info;
    if (committed) committed = registry_.addLoaded(std::move(contribution));
    if (!committed) {
        common::log(LogLevel::kError, "plugin_partially_registered",
                    {{"path", path}, {"name", name}, {"reason", committed.error().message}});
        return refuse(path, name, Error::conflict("commit_failed", committed.error().message));
    }

    common::log(LogLevel::kInfo, "plugin_loaded",
                {{"name", name},
                 {"version", version},
                 {"path", path},
                 {"routes", std::to_string(info.operation_ids.size())},
                 {"attached_operations", std::to_string(info.attached_operations.size())},
                 {"mcp_tools", std::to_string(info.mcp_tools.size())},
                 {"mcp_resources", std::to_string(info.mcp_resources.size())},
                 {"workflows", std::to_string(info.workflows.size())}});
    return {};
}

void PluginLoader::setWorkflowValidator(WorkflowValidator validator) {
    std::lock_guard lock(load_mutex_);
    workflow_validator_ = std::move(validator);
}

WorkflowValidator PluginLoader::workflowValidator() const { return workflow_validator_; }

void PluginLoader::setStorageProvisioner(StorageProvisioner provisioner) {
    std::lock_guard lock(load_mutex_);
    storage_provisioner_ = std::move(provisioner);
}

void PluginLoader::setJobKindSink(JobKindSink sink) {
    std::lock_guard lock(load_mutex_);
    job_kind_sink_ = std::move(sink);
}

void PluginLoader::setHostFactory(HostFactory factory) {
    std::lock_guard lock(load_mutex_);
    host_factory_ = std::move(factory);
}

plugin::Result<DirectoryLoadCounts> PluginLoader::loadDirectory(const std::string& dir) {
    std::error_code ec;
    std::vector<std::string> files;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto file_name = it->path().filename().string();
        if (file_name.empty() || file_name[0] == '.' || it->path().extension() != ".so") continue;
        std::error_code type_ec;
        if (it->is_regular_file(type_ec)) files.push_back(it->path().string());
    }
    if (ec) {
        common::log(LogLevel::kWarning, "plugin_dir_unreadable",
                    {{"path", dir}, {"reason", ec.message()}});
        return Error::notFound("plugin directory " + dir + " is not readable: " + ec.message());
    }
    std::sort(files.begin(), files.end());
    DirectoryLoadCounts counts;
    for (const auto& file : files) {
        if (loadFile(file)) {
            ++counts.loaded;
        } else {
            ++counts.refused;
        }
    }
    return counts;
}

}  // namespace docintel::plugin_host
