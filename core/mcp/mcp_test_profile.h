#pragma once

#include <vector>

#include "mcp/mcp_types.h"

namespace docintel::mcp {

/// The fixture tools and resources the MCP conformance suite expects (`test_simple_text`,
/// `test://static-text`, ...). Served only when the server runs with the MCP test profile
/// (DOCINTEL_MCP_TEST_PROFILE=1), never in a normal start. They need no scope and touch no data.
std::vector<Tool> testProfileTools();
std::vector<Resource> testProfileResources();

}  // namespace docintel::mcp
