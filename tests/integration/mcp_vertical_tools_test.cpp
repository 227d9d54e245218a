// The MCP vertical workflow tools over real HTTP, with the healthcare plugin loaded from its
// shared library: catalog → start (bad inputs are -32602, foreign documents a tool error) →
// get until pending_review → save review → approve (confirm required) → generate a packet
// whose document is a new document of the workspace; the run resource reads the same run.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/mcp_client.h"
#include "support/plugin_suite.h"

namespace docintel::test {
namespace {

using nlohmann::json;

std::string dataDir() { return sourceDir() + "/tests/data/workflows/healthcare"; }

class McpVerticalTools : public PluginSuite {
  protected:
    static void SetUpTestSuite() {
        startServer("healthcare", "mcp.reviewer@example.com");
        request_doc_ = uploadPdf(dataDir() + "/prior_auth_request.pdf");
        policy_doc_ = uploadPdf(dataDir() + "/payer_policy.pdf");
        ASSERT_EQ(server_->waitForDocument(request_doc_, token_)["status"], "embedded");
        ASSERT_EQ(server_->waitForDocument(policy_doc_, token_)["status"], "embedded");
        mcp_token_ = server_->token(user_, TestServer::allScopes(), 3600, true);
    }

    static json startArgs() {
        return {{"workflow", "healthcare_prior_auth"},
                {"workspace_id", nullptr},
                {"document_ids", {request_doc_}},
                {"inputs", {{"policy_document_ids", {policy_doc_}}}}};
    }

    static json waitForRun(const McpClient& mcp, const std::string& run_id) {
        json run;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            run = mcp.result("get_vertical_run", {{"vertical", "healthcare"}, {"run_id", run_id}});
            if (run.value("status", "") != "running") return run;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return run;
    }

    inline static std::string mcp_token_, request_doc_, policy_doc_;
};

TEST_F(McpVerticalTools, ToolsAreListedWithSchemasAndTheCatalogIsAuthoritative) {
    McpClient mcp(*server_, mcp_token_);
    std::map<std::string, json> tools;
    const json listed = mcp.call("tools/list");
    for (const auto& t : listed["result"]["tools"]) tools[t["name"].get<std::string>()] = t;
    for (const char* name : {"list_vertical_workflows", "start_vertical_workflow",
                             "get_vertical_run", "list_vertical_runs", "save_vertical_review",
                             "approve_vertical_run", "generate_vertical_packet"}) {
        ASSERT_TRUE(tools.count(name)) << name;
        EXPECT_EQ(tools[name]["inputSchema"]["type"], "object") << name;
        EXPECT_TRUE(tools[name].contains("outputSchema")) << name;
    }
    EXPECT_EQ(tools["approve_vertical_run"]["inputSchema"]["required"],
              json({"vertical", "run_id"}));

    const json catalog = mcp.result("list_vertical_workflows")["catalog"];
    json prior_auth;
    for (const auto& w : catalog) {
        if (w["workflow"] == "healthcare_prior_auth") prior_auth = w;
    }
    ASSERT_TRUE(prior_auth.is_object()) << catalog.dump();
    EXPECT_EQ(prior_auth["vertical"], "healthcare");
    EXPECT_EQ(prior_auth["required_inputs"], json({"policy_document_ids"}));
    EXPECT_EQ(prior_auth["packet_types"], json({"prior_auth", "missing_information"}));

    const json resource = mcp.call("resources/read", {{"uri", "docintel://workflows/catalog"}});
    const auto& content = resource["result"]["contents"][0];
    EXPECT_EQ(content["mimeType"], "application/json");
    EXPECT_EQ(json::parse(content["text"].get<std::string>())["catalog"], catalog);
}

TEST_F(McpVerticalTools, BadStartsAreRefusedAndNothingIsCreated) {
    McpClient mcp(*server_, mcp_token_);
    json missing = startArgs();
    missing["inputs"] = json::object();
    const json bad =
        mcp.call("tools/call", {{"name", "start_vertical_workflow"}, {"arguments", missing}});
    ASSERT_TRUE(bad.contains("error")) << bad.dump();
    EXPECT_EQ(bad["error"]["code"], -32602);
    EXPECT_NE(bad["error"]["message"].get<std::string>().find("inputs.policy_document_ids"),
              std::string::npos)
        << bad.dump();

    json unknown = startArgs();
    unknown["workflow"] = "no_such_workflow";
    const json not_found = mcp.tool("start_vertical_workflow", unknown);
    EXPECT_EQ(not_found["isError"], true);
    EXPECT_EQ(not_found["structuredContent"]["error"]["code"], "workflow_not_found");

    // Another user's token cannot start a run over these documents, nor see runs.
    const std::string other = server_->createUser("mcp.outsider@example.com");
    McpClient outsider(*server_, server_->token(other, TestServer::allScopes(), 3600, true));
    const json foreign = outsider.tool("start_vertical_workflow", startArgs());
    EXPECT_EQ(foreign["isError"], true);
    EXPECT_EQ(foreign["structuredContent"]["error"]["code"], "document_not_found");
    EXPECT_EQ(outsider.result("list_vertical_runs", {{"vertical", "healthcare"}})["count"], 0);

    // A token without workflows:write is refused before anything runs, naming the scope.
    McpClient reader(*server_, server_->token(user_, {"workflows:read"}, 3600, true));
    const auto refused = reader.send(
        rpc("tools/call", {{"name", "start_vertical_workflow"}, {"arguments", startArgs()}}));
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(refused.json()["error"]["data"]["scope"], "workflows:write");
    EXPECT_EQ(reader.result("list_vertical_runs", {{"vertical", "healthcare"}})["count"], 0);
}

TEST_F(McpVerticalTools, RunReviewApproveAndPacketThroughTools) {
    McpClient mcp(*server_, mcp_token_);
    const json started = mcp.result("start_vertical_workflow", startArgs());
    const std::string run_id = started["run_id"];
    ASSERT_FALSE(run_id.empty()) << started.dump();
    const json run = waitForRun(mcp, run_id);
    ASSERT_EQ(run["status"], "pending_review") << run.dump();
    ASSERT_TRUE(run["review_packet"].is_object());

    const json listed = mcp.result("list_vertical_runs",
                                   {{"vertical", "healthcare"}, {"status", "pending_review"}});
    bool found = false;
    for (const auto& r : listed["runs"]) found = found || r["run_id"] == run_id;
    EXPECT_TRUE(found) << listed.dump();

    const json read =
        mcp.call("resources/read", {{"uri", "docintel://workflows/healthcare/runs/" + run_id}});
    EXPECT_EQ(json::parse(read["result"]["contents"][0]["text"].get<std::string>())["run_id"],
              run_id);

    // The reviewer records the missing criterion's evidence and corrects the member id.
    json edited = run["review_packet"];
    for (auto& c : edited["criteria"]) {
        if (c["status"]["value"] != "met") {
            c["status"] = {{"value", "met"}, {"source", nullptr}, {"confidence", 1.0}};
        }
    }
    edited["patient"]["member_id"]["value"] = "HPX-448-20932";
    const json saved = mcp.result(
        "save_vertical_review",
        {{"vertical", "healthcare"}, {"run_id", run_id}, {"packet", edited}, {"notes", "checked"}});
    EXPECT_EQ(saved["review_packet"]["patient"]["member_id"]["value"], "HPX-448-20932");

    // Approving without confirm does nothing.
    const json unconfirmed =
        mcp.tool("approve_vertical_run", {{"vertical", "healthcare"}, {"run_id", run_id}});
    EXPECT_EQ(unconfirmed["isError"], true);
    EXPECT_EQ(unconfirmed["structuredContent"]["error"]["code"], "confirmation_required");
    EXPECT_EQ(waitForRun(mcp, run_id)["status"], "pending_review");

    const json approved = mcp.result(
        "approve_vertical_run",
        {{"vertical", "healthcare"}, {"run_id", run_id}, {"notes", "approved"}, {"confirm", true}});
    EXPECT_EQ(approved["status"], "approved") << approved.dump();

    const json packet =
        mcp.result("generate_vertical_packet",
                   {{"vertical", "healthcare"}, {"run_id", run_id}, {"packet_type", "prior_auth"}});
    const std::string doc_id = packet["document"]["doc_id"];
    ASSERT_FALSE(doc_id.empty()) << packet.dump();
    const json doc = mcp.result("get_document", {{"document_id", doc_id}});
    EXPECT_EQ(doc["document_id"], doc_id);

    const json unknown_type =
        mcp.tool("generate_vertical_packet",
                 {{"vertical", "healthcare"}, {"run_id", run_id}, {"packet_type", "nope"}});
    EXPECT_EQ(unknown_type["isError"], true);
}

}  // namespace
}  // namespace docintel::test
