#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/host_services.h"
#include "server/plugin_host_services.h"

/// The documents, knowledge and object calls of a plugin's HostServices
/// (server/plugin_host_services.cpp forwards to these): thin adapters over the services REST uses,
/// as the principal.
namespace docintel::server::plugin_documents {

using Json = nlohmann::json;

plugin::Result<Json> list(PluginHostBackends& b, const plugin::Principal& p,
                          const std::string& workspace_id);
plugin::Result<Json> get(PluginHostBackends& b, const plugin::Principal& p,
                         const std::string& document_id);
plugin::Result<Json> chunks(PluginHostBackends& b, const plugin::Principal& p,
                            const std::string& document_id);
plugin::Result<Json> create(PluginHostBackends& b, const plugin::Principal& p,
                            const plugin::NewDocument& document);
plugin::Result<Json> remove(PluginHostBackends& b, const plugin::Principal& p,
                            const std::string& document_id);
plugin::Status ask(PluginHostBackends& b, const plugin::Principal& p,
                   const plugin::GroundedQuestion& question,
                   const std::function<bool(const Json&)>& emit);
plugin::Result<Json> retrieve(PluginHostBackends& b, const plugin::Principal& p,
                              const plugin::GroundedQuestion& question);
plugin::Result<std::vector<plugin::SupportVerdict>> checkSupport(
    PluginHostBackends& b, const std::vector<plugin::SupportClaim>& claims);
plugin::Result<Json> summarize(PluginHostBackends& b, const plugin::Principal& p,
                               const std::string& document_id, const Json& request);

// The plugin's objects, under plugins/<plugin>/.
plugin::Result<Json> putObject(PluginHostBackends& b, const std::string& plugin,
                               const std::string& name, const std::string& bytes,
                               const std::string& content_type);
plugin::Result<std::string> readObject(PluginHostBackends& b, const std::string& plugin,
                                       const std::string& name);
plugin::Status removeObject(PluginHostBackends& b, const std::string& plugin,
                            const std::string& name);
plugin::Result<std::string> signedUploadUrl(PluginHostBackends& b, const std::string& plugin,
                                            const std::string& name,
                                            const std::string& content_type, std::int64_t size,
                                            int ttl_seconds);
plugin::Result<std::string> signedDownloadUrl(PluginHostBackends& b, const std::string& plugin,
                                              const std::string& name,
                                              const std::string& content_type, int ttl_seconds);

}  // namespace docintel::server::plugin_documents
