#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "http/router.h"
#include "knowledge/knowledge_service.h"
#include "services/document_service.h"
#include "services/identity_service.h"
#include "services/ingestion_service.h"
#include "services/upload_service.h"
#include "services/workspace_service.h"

namespace docintel::http {

/// What the built-in operations call. References must outlive the router.
struct ApiServices {
    services::IdentityService& identity;
    services::WorkspaceService& workspaces;
    services::DocumentService& documents;
    services::UploadService& uploads;
    knowledge::KnowledgeService* knowledge;  ///< null on a worker node
    /// RFC 9728 metadata of the REST resource.
    std::function<nlohmann::json()> protected_resource_metadata;
    /// The API catalog (`GET /api/v1`): areas, operations and loaded plugins.
    std::function<nlohmann::json()> catalog;
};

/// Declares every REST operation of the spec (§4.1) once: method, path, operation id, scopes,
/// request schema, success status and the service call behind it. Operations that later work
/// implements answer 501 `not_implemented` and are listed in docs/API_STATUS.md.
void registerApiRoutes(Router& router, ApiServices& services);

}  // namespace docintel::http
