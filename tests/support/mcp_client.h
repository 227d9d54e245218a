#pragma once

#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "support/test_server.h"

namespace docintel::test {

/// A JSON-RPC 2.0 request (`id` null = a notification).
nlohmann::json rpc(const std::string& method, nlohmann::json params = nlohmann::json::object(),
                   nlohmann::json id = 1);

/// One initialized MCP session against an MCP listener, as a client sees it.
class McpClient {
  public:
    /// Initializes a session with `token` (2025-06-18) and sends notifications/initialized.
    McpClient(const TestServer& server, std::string token)
        : McpClient(server.mcpPort(), std::move(token)) {}
    /// The same against the MCP listener on 127.0.0.1:`port` (a server process, say).
    McpClient(int port, std::string token);
    /// The session `session_id`, opened elsewhere, continued through 127.0.0.1:`port`.
    McpClient(int port, std::string token, std::string session_id)
        : port_(port), token_(std::move(token)), session_(std::move(session_id)) {}

    const std::string& sessionId() const { return session_; }
    /// The JSON-RPC response to `method` (HTTP 200 expected).
    nlohmann::json call(const std::string& method,
                        nlohmann::json params = nlohmann::json::object()) const;
    /// `tools/call` → its CallToolResult (`structuredContent`, `isError`, ...).
    nlohmann::json tool(const std::string& name,
                        nlohmann::json arguments = nlohmann::json::object()) const;
    /// `tools/call` of a tool expected to succeed → `structuredContent.result`.
    nlohmann::json result(const std::string& name,
                          nlohmann::json arguments = nlohmann::json::object()) const;

    /// Any JSON-RPC message in this session, as the HTTP response.
    Response send(const nlohmann::json& message) const;

  private:
    int port_;
    std::string token_;
    std::string session_;
};

}  // namespace docintel::test
