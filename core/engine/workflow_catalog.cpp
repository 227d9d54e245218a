#include "engine/workflow_catalog.h"

#include <stdexcept>
#include <string_view>

#include "common/log.h"

namespace docintel::templates {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::engine {
namespace {

constexpr const char* kDefinitionSchema = "_WorkflowDefinition";

std::string inputsName(const std::string& workflow) { return "_wf." + workflow + ".inputs"; }
std::string packetName(const std::string& workflow) { return "_wf." + workflow + ".packet"; }

// Validates a value against a schema that is not registered (yet) by registering it under a
// scratch name once; a `$ref` that does not resolve shows up as an exception.
plugin::Status compiles(http::SchemaRegistry& schemas, const std::string& name,
                        const nlohmann::json& schema) {
    if (!schemas.has(name)) schemas.add(name, schema);
    if (schemas.get(name) != schema) {
        return plugin::Error::conflict("workflow_conflict", "schema " + name + " is taken");
    }
    try {
        nlohmann::json probe = nlohmann::json::object();
        (void)schemas.validate(name, probe, nlohmann::json::array());
    } catch (const std::exception& e) {
        return plugin::Error::unprocessable("invalid_workflow",
                                            name + " does not compile: " + e.what());
    }
    return {};
}

}  // namespace

const nlohmann::json* Workflow::packetType(const std::string& type) const {
    for (const auto& p : definition.at("packet_types")) {
        if (p.value("type", "") == type) return &p;
    }
    return nullptr;
}

WorkflowCatalog::WorkflowCatalog(const plugin_host::PluginRegistry& registry,
                                 http::SchemaRegistry& schemas)
    : registry_(registry), schemas_(schemas) {}

void WorkflowCatalog::registerSchemas() {
    schemas_.loadBuiltin("workflows/workflow.schema.json", kDefinitionSchema);
    schemas_.loadBuiltin("workflows/rule.schema.json", "_WorkflowRule");
    schemas_.loadBuiltin("workflows/field.schema.json", "_WorkflowField");
    for (const char* name :
         {"VerticalRunStartInput", "VerticalReviewInput", "VerticalApprovalInput",
          "VerticalChangesInput", "VerticalPacketInput"}) {
        schemas_.loadBuiltin(std::string("workflows/") + name + ".schema.json", name);
    }
}

std::optional<std::string> WorkflowCatalog::templateText(const std::string& name) {
    const auto& files = docintel::templates::embeddedFiles();
    const auto it = files.find(name);
    if (it == files.end()) return std::nullopt;
    return std::string(it->second);
}

plugin::Status WorkflowCatalog::validateDefinition(const nlohmann::json& definition) const {
    nlohmann::json copy = definition;
    const auto issues = schemas_.validate(kDefinitionSchema, copy, nlohmann::json::array());
    if (!issues.empty()) {
        std::string where;
        for (const auto& part : issues.front().loc) {
            where += "/" + (part.is_string() ? part.get<std::string>() : part.dump());
        }
        return plugin::Error::unprocessable(
            "invalid_workflow", (where.empty() ? "/" : where) + ": " + issues.front().msg);
    }
    const std::string name = definition.at("name").get<std::string>();
    if (auto ok = compiles(schemas_, inputsName(name), definition.at("inputs")); !ok) return ok;
    if (auto ok = compiles(schemas_, packetName(name), definition.at("packet_schema")); !ok) {
        return ok;
    }
    for (const auto& p : definition.at("packet_types")) {
        const std::string tmpl = p.at("template").get<std::string>();
        if (!templateText(tmpl)) {
            return plugin::Error::unprocessable("invalid_workflow",
                                                "packet template " + tmpl + " is not installed");
        }
    }
    return {};
}

void WorkflowCatalog::refreshLocked() {
    const auto generation = registry_.generation();
    if (generation == generation_) return;
    for (const auto& w : registry_.workflows()) {
        const std::string name = w.definition.value("name", "");
        if (name.empty() || workflows_.count(name)) continue;
        // The loader validated it; registering the schemas here covers a loader without the
        // engine's validator (tests).
        if (auto ok = validateDefinition(w.definition); !ok) {
            common::log(common::LogLevel::kWarning, "workflow_ignored",
                        {{"workflow", name}, {"reason", ok.error().message}});
            continue;
        }
        auto wf = std::make_shared<Workflow>();
        wf->plugin = w.plugin;
        wf->definition = w.definition;
        wf->inputs_schema = inputsName(name);
        wf->packet_schema = packetName(name);
        workflows_[name] = std::move(wf);
    }
    generation_ = generation;
}

std::shared_ptr<const Workflow> WorkflowCatalog::find(const std::string& name) {
    std::lock_guard lock(mutex_);
    refreshLocked();
    const auto it = workflows_.find(name);
    return it == workflows_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const Workflow>> WorkflowCatalog::all() {
    std::lock_guard lock(mutex_);
    refreshLocked();
    std::vector<std::shared_ptr<const Workflow>> out;
    for (const auto& [_, w] : workflows_) out.push_back(w);
    return out;
}

}  // namespace docintel::engine
