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

// Media documents (ABI minor 4).
plugin::Result<Json> createMediaUpload(PluginHostBackends& b, const plugin::Principal& p,
                                       const plugin::MediaUpload& upload);
plugin::Result<Json> completeUpload(PluginHostBackends& b, const plugin::Principal& p,
                                    const std::string& workspace_id, const Json& body);
plugin::Result<std::string> documentFile(PluginHostBackends& b, const plugin::Principal& p,
                                         const std::string& document_id);
plugin::Status setState(PluginHostBackends& b, const plugin::Principal& p,
                        const std::string& document_id, const std::string& state,
                        const std::string& error_code, const std::string& message);
plugin::Status storeChunks(PluginHostBackends& b, const plugin::Principal& p,
                           const std::string& document_id,
                           const std::vector<plugin::TimedChunk>& chunks);
plugin::Status embed(PluginHostBackends& b, const plugin::Principal& p,
                     const std::string& document_id);
plugin::Result<std::string> recognizeText(const plugin::GrayImage& image);

// Documents whose text a plugin writes (ABI minor 5).
plugin::Result<Json> createPluginDocument(PluginHostBackends& b, const plugin::Principal& p,
                                          const plugin::PluginDocument& document);
plugin::Status writeText(PluginHostBackends& b, const plugin::Principal& p,
                         const std::string& document_id, const std::string& text,
                         const std::string& doc_type);
plugin::Result<std::vector<std::string>> redactPii(const std::vector<std::string>& texts);

// The plugin's objects, under plugins/<plugin>/ (or documents/<id>/plugins/<plugin>/ for names
// under documents/<id>/).
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
