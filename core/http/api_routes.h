#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "events/event_service.h"
#include "http/router.h"
#include "knowledge/comparison.h"
#include "knowledge/evaluation_service.h"
#include "knowledge/knowledge_service.h"
#include "knowledge/summarizer.h"
#include "services/artifact_service.h"
#include "services/batch_service.h"
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

    /// The workflow engine's operations (core/engine); an unset one answers 501. Errors with
    /// code `validation_error` carry the 422 detail array as JSON text.
    struct Workflows {
        using Json = plugin::Result<nlohmann::json>;
        std::function<Json(const std::string& workflow)> schema;
        std::function<Json(const std::string& workflow, const nlohmann::json& body)> validate;
        std::function<Json()> operations_catalog;
        std::function<Json(const plugin::Principal&, const std::string& status, int limit)>
            list_reviews;
        std::function<Json(const plugin::Principal&, const nlohmann::json& body)> create_review;
        std::function<Json(const plugin::Principal&, const std::string& task_id)> assign_review;
        std::function<Json(const plugin::Principal&, const std::string& task_id,
                           const nlohmann::json& body)>
            decide_review;
    } workflows;

    knowledge::Summarizer* summaries = nullptr;           ///< null on a worker node
    knowledge::EvaluationService* evaluations = nullptr;  ///< null on a worker node
    services::ArtifactService* artifacts = nullptr;       ///< unset = 501
    services::BatchService* batches = nullptr;            ///< batch jobs and operations; null = 501
    events::EventService* events = nullptr;  ///< event log, subscriptions, webhooks; null = 501
};

/// Declares every REST operation of the spec (§4.1) once: method, path, operation id, scopes,
/// request schema, success status and the service call behind it. The operations of feature
/// plugins (learning) are declared without a call: they are attachable, answer 503
/// `plugin_not_loaded` until their plugin attaches a handler, and are listed in
/// docs/API_STATUS.md.
void registerApiRoutes(Router& router, ApiServices& services);

/// Declares only the operations feature plugins serve (learning's 20), each answering 503
/// `plugin_not_loaded` until attached; registerApiRoutes declares them too. For tools that load
/// plugins without the services behind the core's routes (`docintel-admin plugins list`).
void declareFeatureOperations(Router& router);

}  // namespace docintel::http
