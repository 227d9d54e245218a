#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "support/test_server.h"

namespace docintel::test {

/// A JSON-RPC 2.0 request (`id` null = a notification).
nlohmann::json rpc(const std::string& method, nlohmann::json params = nlohmann::json::object(),
                   nlohmann::json id = 1);

/// One initialized MCP session against a TestServer's MCP listener, as a client sees it.
class McpClient {
  public:
    /// Initializes a session with `token` (2025-06-18) and sends notifications/initialized.
    McpClient(const TestServer& server, std::string token);

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
    const TestServer& server_;
    std::string token_;
    std::string session_;
};

}  // namespace docintel::test
