#include "support/mcp_client.h"

#include <gtest/gtest.h>

#include <utility>

namespace docintel::test {

using nlohmann::json;

json rpc(const std::string& method, json params, json id) {
    json m = {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
    if (!id.is_null()) m["id"] = std::move(id);
    return m;
}

McpClient::McpClient(int port, std::string token) : port_(port), token_(std::move(token)) {
    const auto r = send(rpc("initialize", {{"protocolVersion", "2025-06-18"},
                                           {"capabilities", json::object()},
                                           {"clientInfo", {{"name", "test"}, {"version", "1"}}}}));
    EXPECT_EQ(r.status, 200) << r.body;
    session_ = r.header("mcp-session-id");
    EXPECT_FALSE(session_.empty());
    EXPECT_EQ(send(rpc("notifications/initialized", json::object(), nullptr)).status, 202);
}

Response McpClient::send(const json& body) const {
    std::map<std::string, std::string> headers = {
        {"Accept", "application/json, text/event-stream"}};
    if (!session_.empty()) headers["Mcp-Session-Id"] = session_;
    return httpRequest(port_, "POST", "/mcp", body.dump(), token_, headers);
}

json McpClient::call(const std::string& method, json params) const {
    const auto r = send(rpc(method, std::move(params)));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
}

json McpClient::tool(const std::string& name, json arguments) const {
    return call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}})["result"];
}

json McpClient::result(const std::string& name, json arguments) const {
    const json out = tool(name, std::move(arguments));
    EXPECT_EQ(out.value("isError", true), false) << name << ": " << out.dump();
    return out.value("structuredContent", json::object()).value("result", json());
}

}  // namespace docintel::test
