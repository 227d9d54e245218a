#pragma once

// Internal to core/mcp: the state of one HTTP request to the MCP endpoint while it is answered.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp/mcp_server.h"

namespace docintel::mcp {

struct McpServer::Exchange {
    std::string trace_id;
    plugin::Principal principal;
    std::string subject;            ///< user id, or client id
    std::string resource_metadata;  ///< `resource_metadata="..."` for WWW-Authenticate
    std::optional<McpSession> session;
    nlohmann::json id = nullptr;  ///< the JSON-RPC request id
    bool accepts_sse = false;
    nlohmann::json progress_token = nullptr;    ///< params._meta.progressToken of tools/call
    std::vector<nlohmann::json> notifications;  ///< sent before the response on an SSE stream
    std::string rpc_method;
    std::string tool;
    std::string operation;  ///< the metrics label: "mcp:<method>[:<tool>]" once known, else ""
    std::string new_session_id;

    /// A JSON-RPC error raised by a method (instead of its result).
    struct RpcFailure {
        int code = 0;
        std::string message;
        nlohmann::json data;
        int http_status = 200;
        std::vector<std::pair<std::string, std::string>> headers;
    };
    std::optional<RpcFailure> failure;

    /// Records a JSON-RPC error for the current request; returns null for the caller to return.
    nlohmann::json fail(int code, std::string message, nlohmann::json data = nullptr,
                        int http_status = 200,
                        std::vector<std::pair<std::string, std::string>> headers = {}) {
        failure =
            RpcFailure{code, std::move(message), std::move(data), http_status, std::move(headers)};
        return nullptr;
    }

    static nlohmann::json errorBody(const nlohmann::json& id, int code, const std::string& message,
                                    const nlohmann::json& data) {
        nlohmann::json error = {{"code", code}, {"message", message}};
        if (!data.is_null()) error["data"] = data;
        return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
    }

    /// An HTTP error carrying a JSON-RPC error body.
    plugin::HttpResponse error(int http_status, int code, const std::string& message,
                               const nlohmann::json& data = nullptr) const {
        return plugin::HttpResponse::json(http_status, errorBody(id, code, message, data));
    }

    /// The answer to a request: its result or recorded failure, as JSON, or as an SSE stream
    /// when notifications were raised and the client accepts one.
    plugin::HttpResponse respond(nlohmann::json result) {
        nlohmann::json body;
        plugin::HttpResponse response;
        response.status = 200;
        if (failure) {
            body = errorBody(id, failure->code, failure->message, failure->data);
            response.status = failure->http_status;
            response.headers = failure->headers;
        } else {
            body = {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
        }
        if (notifications.empty() || !accepts_sse || response.status != 200) {
            response.body = std::move(body);
            return response;
        }
        std::string stream;
        const auto event = [&stream](const nlohmann::json& message) {
            stream += "event: message\ndata: ";
            stream += message.dump();
            stream += "\n\n";
        };
        for (const auto& n : notifications) event(n);
        event(body);
        response.content_type = "text/event-stream";
        response.raw_body = std::move(stream);
        response.headers.emplace_back("Cache-Control", "no-cache");
        return response;
    }
};

}  // namespace docintel::mcp
