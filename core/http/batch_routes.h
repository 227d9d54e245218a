#pragma once

#include <map>
#include <string>

#include "plugin_api/http_types.h"
#include "services/batch_service.h"

namespace docintel::http {

/// The handlers of the batch and operations rows of the route table (spec §4.1), by operation
/// id; registerApiRoutes puts them in place of the 501 placeholders.
std::map<std::string, plugin::HttpHandler> batchHandlers(services::BatchService& batches);

}  // namespace docintel::http
