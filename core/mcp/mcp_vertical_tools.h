#pragma once

#include <vector>

#include "engine/workflow_service.h"
#include "mcp/mcp_types.h"

namespace docintel::mcp {

/// The vertical workflow tools of spec §4.3 (list_vertical_workflows, start_vertical_workflow,
/// get_vertical_run, list_vertical_runs, save_vertical_review, approve_vertical_run,
/// generate_vertical_packet): thin adapters over the same WorkflowService the plugins' REST
/// run routes call. `workflows` must outlive the tools.
std::vector<Tool> verticalTools(engine::WorkflowService& workflows);

/// docintel://workflows/catalog and docintel://workflows/{vertical}/runs/{run_id}.
std::vector<Resource> verticalResources(engine::WorkflowService& workflows);

}  // namespace docintel::mcp
