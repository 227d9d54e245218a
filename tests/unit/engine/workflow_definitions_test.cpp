// Every workflows/<vertical>/*.workflow.json passes the check the plugin loader runs at load
// (schemas/workflows/workflow.schema.json, compiling inputs and packet schemas, installed
// templates), whether or not its plugin is built yet; broken definitions are refused.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/workflow_catalog.h"
#include "support/test_server.h"

namespace docintel::engine {
namespace {

class WorkflowDefinitions : public ::testing::Test {
  protected:
    WorkflowDefinitions() : catalog_(registry_, schemas_) {
        schemas_.loadBuiltins();
        catalog_.registerSchemas();
    }

    static nlohmann::json load(const std::string& path) {
        std::ifstream in(path);
        return nlohmann::json::parse(in);
    }

    plugin_host::PluginRegistry registry_;
    http::SchemaRegistry schemas_;
    WorkflowCatalog catalog_;
};

TEST_F(WorkflowDefinitions, TheSixWorkflowsOfTheSpecAreValid) {
    std::set<std::string> names;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(test::sourceDir() + "/workflows")) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        const auto definition = load(entry.path());
        const auto ok = catalog_.validateDefinition(definition);
        EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().message);
        EXPECT_EQ(entry.path().parent_path().filename().string(),
                  definition["vertical"].get<std::string>());
        EXPECT_EQ(entry.path().filename().string(),
                  definition["name"].get<std::string>() + ".workflow.json");
        names.insert(definition["name"]);
    }
    EXPECT_EQ(names, (std::set<std::string>{"healthcare_prior_auth", "healthcare_clinical",
                                            "finance_tax_readiness", "talent_readiness",
                                            "employee_mobility", "lease_intelligence"}));
}

TEST_F(WorkflowDefinitions, BrokenDefinitionsAreRefusedWithWhere) {
    auto definition =
        load(test::sourceDir() + "/workflows/healthcare/healthcare_prior_auth.workflow.json");

    auto no_steps = definition;
    no_steps["steps"] = nlohmann::json::array();
    auto r = catalog_.validateDefinition(no_steps);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "invalid_workflow");
    EXPECT_NE(r.error().message.find("/steps"), std::string::npos) << r.error().message;

    auto bad_template = definition;
    bad_template["name"] = "other_flow";
    bad_template["packet_types"][0]["template"] = "nowhere.html.mustache";
    r = catalog_.validateDefinition(bad_template);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("nowhere.html.mustache"), std::string::npos);

    auto bad_status = definition;
    bad_status["packet_types"][0]["allowed_statuses"] = {"running"};
    EXPECT_FALSE(catalog_.validateDefinition(bad_status).ok());

    auto extra = definition;
    extra["unknown_key"] = true;
    EXPECT_FALSE(catalog_.validateDefinition(extra).ok());
}

TEST_F(WorkflowDefinitions, ExtractedFieldsNeedValueSourceAndConfidence) {
    ASSERT_TRUE(
        catalog_
            .validateDefinition(load(test::sourceDir() + "/workflows/healthcare/"
                                                         "healthcare_prior_auth.workflow.json"))
            .ok());
    nlohmann::json good = {
        {"value", "x"},
        {"source", {{"document_id", "d"}, {"page", 2}, {"chunk_id", "c"}, {"excerpt", "e"}}},
        {"confidence", 0.8}};
    EXPECT_TRUE(schemas_.validate("_WorkflowField", good, nlohmann::json::array()).empty());
    nlohmann::json missing = {{"value", nullptr}, {"source", nullptr}, {"confidence", 0}};
    EXPECT_TRUE(schemas_.validate("_WorkflowField", missing, nlohmann::json::array()).empty());
    nlohmann::json no_page = good;
    no_page["source"].erase("page");
    EXPECT_FALSE(schemas_.validate("_WorkflowField", no_page, nlohmann::json::array()).empty());
    nlohmann::json too_sure = good;
    too_sure["confidence"] = 1.5;
    EXPECT_FALSE(schemas_.validate("_WorkflowField", too_sure, nlohmann::json::array()).empty());
}

}  // namespace
}  // namespace docintel::engine
