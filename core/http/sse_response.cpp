#include "http/sse_response.h"

#include <string>
#include <utility>

namespace docintel::http {

plugin::HttpResponse sseResponse(std::function<void(const EmitFrame& emit)> produce) {
    plugin::HttpResponse r;
    r.content_type = "text/event-stream";
    r.headers.emplace_back("Cache-Control", "no-cache");
    r.headers.emplace_back("X-Accel-Buffering", "no");
    r.stream = [produce =
                    std::move(produce)](const std::function<bool(const std::string&)>& write) {
        produce([&write](const nlohmann::json& frame) {
            return write("data: " + frame.dump() + "\n\n");
        });
    };
    return r;
}

}  // namespace docintel::http
