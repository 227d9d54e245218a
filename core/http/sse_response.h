#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "plugin_api/http_types.h"

namespace docintel::http {

/// Emits one frame; false when the client has gone (the producer should stop).
using EmitFrame = std::function<bool(const nlohmann::json&)>;

/// A server-sent-events response: `produce` emits `data: {json}` frames as it goes, each
/// written to the client at once (`Cache-Control: no-cache`, `X-Accel-Buffering: no`). The
/// REST streaming routes and the console's ask send their frames through it.
plugin::HttpResponse sseResponse(std::function<void(const EmitFrame& emit)> produce);

}  // namespace docintel::http
