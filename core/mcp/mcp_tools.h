#pragma once

#include <vector>

#include "engine/workflow_service.h"
#include "http/schema_validator.h"
#include "knowledge/chat_session_service.h"
#include "knowledge/comparison.h"
#include "knowledge/knowledge_service.h"
#include "knowledge/summarizer.h"
#include "mcp/mcp_types.h"
#include "services/batch_service.h"
#include "services/document_service.h"
#include "services/upload_service.h"
#include "services/workspace_service.h"

namespace docintel::mcp {

/// What the built-in tools and resources call: the same services REST calls. References must
/// outlive the MCP server.
struct McpServices {
    services::WorkspaceService& workspaces;
    services::DocumentService& documents;
    services::UploadService& uploads;
    /// The REST request schemas (schemas/api); tools whose arguments are a REST body reuse them.
    const http::SchemaRegistry& schemas;
    /// The workflow engine behind the vertical tools (mcp_vertical_tools.h); null = none.
    engine::WorkflowService* workflows = nullptr;
    knowledge::Summarizer* summaries = nullptr;       ///< null on a worker node
    knowledge::DocumentComparer* comparer = nullptr;  ///< null on a worker node
    /// Grounded answers and chat sessions (mcp_knowledge_tools.cpp); null = tools answer
    /// `search_unavailable`.
    knowledge::KnowledgeService* knowledge = nullptr;
    knowledge::ChatSessionService* chat_sessions = nullptr;
    services::BatchService* batches = nullptr;  ///< the batch tools; null = none
};

/// Error code a handler returns when the arguments passed the schema but are still unusable;
/// the server answers it with JSON-RPC -32602 instead of a tool result.
inline constexpr const char* kInvalidArguments = "invalid_arguments";

/// The built-in tool table (spec §4.3): one entry per tool naming the service call behind it.
/// Tools of areas not built yet arrive with their services: adding one is one entry.
std::vector<Tool> builtinTools(const McpServices& services);

/// summarize_document, summarize_documents and compare_documents (mcp_summary_tools.cpp);
/// none when the services are absent.
std::vector<Tool> summaryTools(const McpServices& services);
/// The knowledge tools (spec §4.3): search_knowledgebase, ask and the chat-session tools.
std::vector<Tool> knowledgeTools(const McpServices& services);
/// The batch tools (mcp_batch_tools.cpp); none without the batch service.
std::vector<Tool> batchTools(const McpServices& services);
/// docintel://batches/{batch_job_id} and docintel://batches/{batch_job_id}/results.
std::vector<Resource> batchResources(const McpServices& services);
/// docintel://sessions/{session_id}.
std::vector<Resource> knowledgeResources(const McpServices& services);

/// The built-in resource templates (spec §2.3): docintel://documents/{document_id} and
/// docintel://documents/{document_id}/chunks.
std::vector<Resource> builtinResources(const McpServices& services);

}  // namespace docintel::mcp
