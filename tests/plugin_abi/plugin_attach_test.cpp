// SDK v2 at the loader (no database): a plugin attaches handlers to operations the core route
// table declares, and is refused as a whole when an id is undeclared or already served, or when
// it ships migrations to a host without plugin storage.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "http/router.h"
#include "http/schema_validator.h"
#include "plugin_api/host_services.h"
#include "plugin_host/plugin_loader.h"
#include "plugin_host/plugin_registry.h"

namespace docintel::plugin_host {
namespace {

constexpr const char* kLearningDocs = "api_list_learning_documents_api_v1_learning_documents_get";
constexpr const char* kLearningDocsPath = "/api/v1/learning/documents";

std::string fixture(const std::string& name) {
    return std::string(DOCINTEL_SDK_PROBE_DIR) + "/" + name + ".so";
}

class QuietHost final : public plugin::HostServices {
  public:
    void log(const std::string&, const std::string&, const std::string&) override {}
    std::string dataDir() const override { return "/tmp"; }
};

/// The 503 the core route table answers with until a plugin attaches.
plugin::RouteDefinition declaredLearningDocs() {
    plugin::RouteDefinition def;
    def.method = "GET";
    def.path = kLearningDocsPath;
    def.operation_id = kLearningDocs;
    def.scopes = {"learning:read"};
    def.handler = [](const plugin::HttpRequest&) -> plugin::Result<plugin::HttpResponse> {
        return plugin::Error::unavailable("plugin_not_loaded", "not loaded");
    };
    return def;
}

plugin::RouteDefinition coreWorkspaces() {
    plugin::RouteDefinition def;
    def.method = "GET";
    def.path = "/api/v1/workspaces";
    def.operation_id = "api_list_workspaces_api_v1_workspaces_get";
    def.handler = [](const plugin::HttpRequest&) -> plugin::Result<plugin::HttpResponse> {
        return plugin::HttpResponse::json({{"workspaces", nlohmann::json::array()}});
    };
    return def;
}

class PluginAttachTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(router_.add(declaredLearningDocs(), "learning", {}, false, true).ok());
        ASSERT_TRUE(router_.add(coreWorkspaces(), "workspaces").ok());
    }

    plugin::Result<plugin::HttpResponse> callLearningDocs() const {
        const auto match = router_.match("GET", kLearningDocsPath);
        EXPECT_TRUE(match.route);
        plugin::HttpRequest request;
        request.operation_id = kLearningDocs;
        request.query["workspace_id"] = "w1";
        return match.route->def.handler(request);
    }

    /// A job engine that takes every kind, named as the server names them.
    void acceptJobKinds() {
        loader_.setJobKindSink(
            [this](const std::string& plugin, plugin::PluginJobKind kind) -> plugin::Status {
                job_kinds_.push_back("plugin." + plugin + "." + kind.name);
                return {};
            });
    }

    std::vector<std::string> refusedCodes() const {
        std::vector<std::string> codes;
        for (const auto& r : registry_.refused()) codes.push_back(r.code);
        return codes;
    }

    http::Router router_;
    http::SchemaRegistry schemas_;
    PluginRegistry registry_;
    QuietHost host_;
    PluginLoader loader_{router_, schemas_, registry_, host_};
    std::vector<std::string> job_kinds_;
};

TEST_F(PluginAttachTest, AttachedHandlerServesTheDeclaredOperationAndTheRouteStaysTheCores) {
    const auto before = callLearningDocs();
    ASSERT_FALSE(before.ok());
    EXPECT_EQ(before.error().code, "plugin_not_loaded");

    const auto status = loader_.loadFile(fixture("sdk_dup_attach"));
    ASSERT_TRUE(status.ok()) << status.error().code << ": " << status.error().message;

    const auto after = callLearningDocs();
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->body["served_by"], "sdk_dup_attach");
    EXPECT_EQ(after->body["workspace_id"], "w1");
    const auto route = router_.match("GET", kLearningDocsPath).route;
    EXPECT_EQ(route->tag, "learning");
    EXPECT_TRUE(route->plugin.empty());  // still the core's operation in /openapi.json
    EXPECT_EQ(route->attached_plugin, "sdk_dup_attach");
    EXPECT_EQ(route->def.scopes, std::vector<std::string>{"learning:read"});

    const auto info = registry_.find("sdk_dup_attach");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->attached_operations, std::vector<std::string>{kLearningDocs});
    EXPECT_EQ(registry_.toJson()["plugins"][0]["attached_operations"][0], kLearningDocs);
}

TEST_F(PluginAttachTest, AttachingAnOperationAlreadyServedRefusesTheWholePlugin) {
    ASSERT_TRUE(loader_.loadFile(fixture("sdk_dup_attach")).ok());
    const auto routes_before = router_.routes()->size();
    loader_.setStorageProvisioner(
        [](const std::string&, const std::vector<plugin::PluginMigration>&) -> plugin::Status {
            ADD_FAILURE() << "a refused plugin must not get storage";
            return {};
        });

    const auto status = loader_.loadFile(fixture("sdk_probe"));
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "attach_conflict");
    EXPECT_NE(status.error().message.find("sdk_dup_attach"), std::string::npos);
    EXPECT_FALSE(registry_.isLoaded("sdk_probe"));
    EXPECT_EQ(router_.routes()->size(), routes_before);  // its own sql route is not there
    EXPECT_FALSE(router_.match("POST", "/api/v1/plugins/sdk_probe/sql").route);
    EXPECT_FALSE(schemas_.has("SdkProbeSql_sdk_probe"));
    EXPECT_EQ(callLearningDocs()->body["served_by"], "sdk_dup_attach");
}

TEST_F(PluginAttachTest, AttachingAnUndeclaredOrCoreOperationIsRefused) {
    const auto undeclared = loader_.loadFile(fixture("sdk_bad_attach"));
    ASSERT_FALSE(undeclared.ok());
    EXPECT_EQ(undeclared.error().code, "attach_conflict");
    EXPECT_NE(undeclared.error().message.find("not declared"), std::string::npos);
    EXPECT_FALSE(router_.match("POST", "/api/v1/plugins/sdk_bad_attach/sql").route);

    // The core's own operations cannot be taken over.
    const auto core =
        router_.attach("api_list_workspaces_api_v1_workspaces_get", "intruder",
                       [](const plugin::HttpRequest&) -> plugin::Result<plugin::HttpResponse> {
                           return plugin::HttpResponse::json({});
                       });
    ASSERT_FALSE(core.ok());
    EXPECT_EQ(core.error().code, "not_attachable");
    EXPECT_EQ(refusedCodes(), std::vector<std::string>{"attach_conflict"});
}

TEST_F(PluginAttachTest, JobKindsNeedAJobEngine) {
    const auto status = loader_.loadFile(fixture("sdk_other"));
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "jobs_unavailable");
}

TEST_F(PluginAttachTest, JobKindsAreCommittedWithTheirPlugin) {
    acceptJobKinds();
    loader_.setStorageProvisioner(
        [](const std::string&, const std::vector<plugin::PluginMigration>&) -> plugin::Status {
            return {};
        });
    const auto status = loader_.loadFile(fixture("sdk_other"));
    ASSERT_TRUE(status.ok()) << status.error().code << ": " << status.error().message;
    EXPECT_EQ(job_kinds_, std::vector<std::string>{"plugin.sdk_other.note_steps"});
}

TEST_F(PluginAttachTest, MigrationsNeedPluginStorage) {
    acceptJobKinds();
    const auto status = loader_.loadFile(fixture("sdk_other"));
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "storage_unavailable");
    EXPECT_FALSE(router_.match("POST", "/api/v1/plugins/sdk_other/sql").route);
}

TEST_F(PluginAttachTest, AFailedProvisioningRefusesThePluginAndNothingIsServed) {
    acceptJobKinds();
    std::vector<int> versions;
    loader_.setStorageProvisioner(
        [&](const std::string& name,
            const std::vector<plugin::PluginMigration>& migrations) -> plugin::Status {
            EXPECT_EQ(name, "sdk_other");
            for (const auto& m : migrations) versions.push_back(m.version);
            return plugin::Error::internal("permission denied for table users");
        });
    const auto status = loader_.loadFile(fixture("sdk_other"));
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "storage_failed");
    EXPECT_NE(status.error().message.find("permission denied"), std::string::npos);
    EXPECT_EQ(versions, (std::vector<int>{1, 2}));
    // Job kinds are committed only with the rest of a plugin that loads.
    EXPECT_TRUE(job_kinds_.empty());
    EXPECT_FALSE(router_.match("POST", "/api/v1/plugins/sdk_other/sql").route);
}

}  // namespace
}  // namespace docintel::plugin_host
