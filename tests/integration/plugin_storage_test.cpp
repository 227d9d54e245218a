// A feature plugin's storage on a real Postgres (decision 0067): its migrations run once, as its
// own login role, into its own schema; its SQL cannot reach core tables or another plugin's
// schema (the role has no privilege there, whatever the SQL says); its rows go when the
// workspace or document they belong to goes; its events are written in its transaction.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "storage/database.h"
#include "storage/plugin_store.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using Json = nlohmann::json;

std::string sdkProbe(const std::string& name) { return testPluginDir() + "/sdk/" + name + ".so"; }

class PluginStorage : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.plugins = {sdkProbe("sdk_probe"), sdkProbe("sdk_other"),
                           sdkProbe("sdk_bad_migration")};
        server_ = new TestServer(options);
        user_ = server_->createUser("owner@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    /// Runs one statement in `plugin`'s storage through its fixture route.
    static Response sql(const std::string& plugin, const std::string& statement,
                        const Json& params = Json::array(), const Json& event = nullptr) {
        Json body = {{"sql", statement}, {"params", params}};
        if (!event.is_null()) body["event"] = event;
        return server_->request("POST", "/api/v1/plugins/" + plugin + "/sql", body.dump(), token_);
    }
    static Json rows(const std::string& plugin, const std::string& statement,
                     const Json& params = Json::array()) {
        const auto r = sql(plugin, statement, params);
        EXPECT_EQ(r.status, 200) << statement << ": " << r.body;
        return r.json()["rows"];
    }
    static std::string createWorkspace(const std::string& name) {
        const auto r =
            server_->request("POST", "/api/v1/workspaces", Json{{"name", name}}.dump(), token_);
        EXPECT_EQ(r.status, 201) << r.body;
        return r.json()["id"];
    }

    static TestServer* server_;
    static std::string user_;
    static std::string token_;
};
TestServer* PluginStorage::server_ = nullptr;
std::string PluginStorage::user_;
std::string PluginStorage::token_;

TEST_F(PluginStorage, MigrationsRanOnceAsThePluginsRoleInItsOwnSchema) {
    EXPECT_EQ(rows("sdk_probe", "SELECT version FROM applied ORDER BY version"),
              Json::parse(R"([{"version":1},{"version":2}])"));
    const auto who = rows("sdk_probe",
                          "SELECT current_user AS who, session_user AS login, "
                          "current_schema() AS schema")[0];
    const std::string role = who["who"];
    EXPECT_EQ(who["login"], role);  // logged in as the role, not switched to it
    EXPECT_EQ(role.substr(role.size() - std::string("_plugin_sdk_probe").size()),
              "_plugin_sdk_probe");
    EXPECT_EQ(who["schema"], "plugin_sdk_probe");

    auto& db = server_->db();
    EXPECT_EQ(db.scalar("SELECT nspowner::regrole::text FROM pg_namespace "
                        "WHERE nspname = 'plugin_sdk_probe'"),
              role);
    EXPECT_EQ(db.scalar("SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls "
                        "FROM pg_roles WHERE rolname = '" +
                        role + "'"),
              "f");
    EXPECT_EQ(db.scalar("SELECT string_agg(version::text, ',' ORDER BY version) "
                        "FROM plugin_sdk_probe.docintel_migrations"),
              "1,2");

    // Provisioning again (a restart, a second node) applies nothing twice; a new version
    // alone is applied.
    storage::Database host_db(db.url(), 2);
    auto login = storage::PluginProvisioner(host_db).provision("sdk_probe");
    ASSERT_TRUE(login.ok()) << login.error().message;
    EXPECT_EQ(login->role, role);
    storage::PluginStore store(*login, 1);
    std::vector<plugin::PluginMigration> migrations = {
        {1, "notes", "CREATE TABLE notes (id int)"},
        {2, "note tags", "ALTER TABLE notes ADD COLUMN tags jsonb"}};
    auto again = store.migrate(migrations);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_TRUE(again->empty());
    migrations.push_back({3, "more", "INSERT INTO applied VALUES (3)"});
    auto third = store.migrate(migrations);
    ASSERT_TRUE(third.ok()) << third.error().message;
    EXPECT_EQ(*third, std::vector<int>{3});
    EXPECT_EQ(rows("sdk_probe", "SELECT count(*) AS n FROM applied")[0]["n"], 3);
}

TEST_F(PluginStorage, ThePluginsRoleCannotReachCoreTablesOrAnotherPluginsSchema) {
    // The fixture shows the plugin-side error with status 400 (a 500's message never
    // reaches a client).
    const auto expectDenied = [](const Response& r, const std::string& what) {
        EXPECT_EQ(r.status, 400) << r.body;
        EXPECT_EQ(r.json()["code"], "storage_denied") << r.body;
        EXPECT_NE(r.json()["detail"].get<std::string>().find(what), std::string::npos) << r.body;
    };
    expectDenied(sql("sdk_probe", "SELECT email, password_hash FROM public.users"),
                 "permission denied for table users");
    expectDenied(sql("sdk_probe", "SELECT * FROM public.documents"),
                 "permission denied for table documents");
    expectDenied(sql("sdk_probe", "DELETE FROM public.workspaces"),
                 "permission denied for table workspaces");
    expectDenied(sql("sdk_probe", "SELECT * FROM plugin_sdk_other.notes"),
                 "permission denied for schema plugin_sdk_other");
    expectDenied(sql("sdk_other", "INSERT INTO plugin_sdk_probe.notes (text) VALUES ('x')"),
                 "permission denied for schema plugin_sdk_probe");
    expectDenied(sql("sdk_probe", "CREATE TABLE public.planted (id int)"),
                 "permission denied for schema public");
    // Its own SQL cannot switch to a more privileged role: it logged in as its own.
    const auto server_role = server_->db().scalar("SELECT current_user");
    expectDenied(sql("sdk_probe", "SET ROLE " + server_role), "permission denied to set role");
    const auto reset = sql("sdk_probe", "RESET ROLE");
    ASSERT_EQ(reset.status, 200) << reset.body;
    expectDenied(sql("sdk_probe", "SELECT count(*) FROM public.users"),
                 "permission denied for table users");
    // Its own tables work; other SQL errors are storage_error with the SQLSTATE.
    EXPECT_EQ(rows("sdk_probe", "SELECT count(*) AS n FROM notes")[0]["n"], 0);
    const auto bad = sql("sdk_probe", "SELECT * FROM no_such_table");
    EXPECT_EQ(bad.json()["code"], "storage_error");
    EXPECT_NE(bad.json()["detail"].get<std::string>().find("42P01"), std::string::npos);
}

TEST_F(PluginStorage, AMigrationThatReadsACoreTableRefusesThePlugin) {
    const auto refused = server_->get("/api/v1", token_).json()["plugins"]["refused"];
    bool found = false;
    for (const auto& r : refused) {
        if (r["name"] != "sdk_bad_migration") continue;
        found = true;
        EXPECT_EQ(r["code"], "storage_failed");
        EXPECT_NE(r["reason"].get<std::string>().find("permission denied for table users"),
                  std::string::npos)
            << r.dump();
    }
    EXPECT_TRUE(found) << refused.dump();
    EXPECT_EQ(sql("sdk_bad_migration", "SELECT 1").status, 404);
    EXPECT_EQ(server_->db().scalar("SELECT to_regclass('plugin_sdk_bad_migration.stolen')"), "");
}

TEST_F(PluginStorage, RowsGoWithTheWorkspaceAndTheDocumentTheyBelongTo) {
    const std::string workspace = createWorkspace("Cascade");
    const std::string document = server_->uploadDocument(
        token_, "notes.txt", "text/plain", "Plugins keep rows that belong to documents.");
    const std::string insert =
        "INSERT INTO notes (workspace_id, user_id, document_id, text) "
        "VALUES ($1::uuid, $2::uuid, $3::uuid, $4) RETURNING id";
    rows("sdk_probe", insert, {workspace, nullptr, nullptr, "of the workspace"});
    rows("sdk_probe", insert, {nullptr, nullptr, document, "of the document"});
    rows("sdk_probe", insert, {nullptr, user_, nullptr, "of the user"});
    // References are checked: a workspace that does not exist is a conflict.
    const auto dangling =
        sql("sdk_probe", insert,
            {"00000000-0000-4000-8000-000000000000", nullptr, nullptr, "of nothing"});
    EXPECT_EQ(dangling.status, 409) << dangling.body;

    ASSERT_EQ(server_->request("DELETE", "/api/v1/workspaces/" + workspace, "", token_).status,
              200);
    ASSERT_EQ(server_->request("DELETE", "/api/v1/documents/" + document, "", token_).status, 200);
    EXPECT_EQ(rows("sdk_probe", "SELECT text FROM notes ORDER BY id"),
              Json::parse(R"([{"text":"of the user"}])"));
    rows("sdk_probe", "DELETE FROM notes");
}

TEST_F(PluginStorage, EventsAreWrittenInThePluginsTransaction) {
    const Json event = {
        {"type", "sdk_probe.note.created"}, {"resource_type", "note"}, {"resource_id", "n1"}};
    auto r = sql("sdk_probe", "INSERT INTO notes (text) VALUES ('kept') RETURNING id",
                 Json::array(), event);
    ASSERT_EQ(r.status, 200) << r.body;
    Json rolled_back = event;
    rolled_back["resource_id"] = "n2";
    rolled_back["fail_after"] = true;
    r = sql("sdk_probe", "INSERT INTO notes (text) VALUES ('dropped')", Json::array(), rolled_back);
    EXPECT_EQ(r.status, 409) << r.body;

    EXPECT_EQ(rows("sdk_probe", "SELECT text FROM notes ORDER BY id"),
              Json::parse(R"([{"text":"kept"}])"));
    const auto events = server_->get("/api/v1/events?limit=100", token_);
    ASSERT_EQ(events.status, 200) << events.body;
    std::vector<std::string> ids;
    const Json listed = events.json();
    for (const auto& e : listed["events"]) {
        if (e["event_type"] == "sdk_probe.note.created") ids.push_back(e["resource_id"]);
    }
    EXPECT_EQ(ids, std::vector<std::string>{"n1"}) << events.body;
    rows("sdk_probe", "DELETE FROM notes");
}

TEST_F(PluginStorage, APluginsJobKindRunsOnTheJobEngineWithCheckpointsAndProgress) {
    const auto call = [](const Json& args) {
        return server_->request("POST", "/api/v1/plugins/sdk_probe/host",
                                Json{{"call", "enqueueJob"}, {"args", args}}.dump(), token_);
    };
    auto r = call({{"kind", "note_steps"}, {"payload", {{"label", "j1"}}}});
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string job_id = r.json()["result"];
    auto& db = server_->db();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline &&
           db.scalar("SELECT status FROM jobs WHERE id = '" + job_id + "'") != "succeeded") {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(db.scalar("SELECT kind FROM jobs WHERE id = '" + job_id + "'"),
              "plugin.sdk_probe.note_steps");
    ASSERT_EQ(db.scalar("SELECT status FROM jobs WHERE id = '" + job_id + "'"), "succeeded");
    const auto checkpoint =
        Json::parse(db.scalar("SELECT checkpoint::text FROM jobs WHERE id = '" + job_id + "'"));
    EXPECT_EQ(checkpoint["first"], true);
    EXPECT_EQ(checkpoint["second"], true);
    EXPECT_EQ(checkpoint["progress"], 100);
    EXPECT_EQ(rows("sdk_probe", "SELECT text FROM notes WHERE text LIKE 'job:%' ORDER BY id"),
              Json::parse(R"([{"text":"job:first:j1"},{"text":"job:second:j1"}])"));

    r = call({{"kind", "no_such_kind"}});
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(r.json()["code"], "unknown_job_kind");
    rows("sdk_probe", "DELETE FROM notes");
}

}  // namespace
}  // namespace docintel::test
