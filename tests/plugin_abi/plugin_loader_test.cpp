// The plugin host against real fixture libraries (tests/plugin_abi/fixtures): what loads, what
// is refused and why, that a refused plugin leaves nothing behind, and that a plugin dropped
// into a watched folder is picked up without a restart.
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "http/router.h"
#include "http/schema_validator.h"
#include "plugin_api/host_services.h"
#include "plugin_host/plugin_loader.h"
#include "plugin_host/plugin_registry.h"
#include "plugin_host/plugin_snapshot.h"
#include "plugin_host/plugin_watcher.h"

namespace docintel::plugin_host {
namespace {

namespace fs = std::filesystem;

fs::path fixtureDir() { return DOCINTEL_TEST_PLUGIN_DIR; }

std::string fixture(const std::string& name) { return (fixtureDir() / (name + ".so")).string(); }

class FakeHost final : public plugin::HostServices {
  public:
    void log(const std::string& plugin, const std::string& level,
             const std::string& message) override {
        ++log_lines;
    }
    std::string dataDir() const override { return "/tmp"; }

    std::atomic<int> log_lines{0};
};

// Waits up to `timeout` for `done`, checking every 20 ms.
bool pollUntil(const std::function<bool()>& done,
               std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

// `symbol` in a plugin library the loader opened (from its private copy, so found by the copy's
// name among the loaded objects), or nullptr.
void* loadedPluginSymbol(const char* symbol) {
    std::vector<std::string> names;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
            const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
            if (name.find("docintel-plugin-") != std::string::npos) {
                static_cast<std::vector<std::string>*>(out)->push_back(name);
            }
            return 0;
        },
        &names);
    for (const auto& name : names) {
        void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD);
        if (library == nullptr) continue;
        void* found = dlsym(library, symbol);
        dlclose(library);  // drops only the reference taken here
        if (found != nullptr) return found;
    }
    return nullptr;
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
  public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ = fs::temp_directory_path() / ("docintel_plugin_test_" + std::to_string(::getpid()) +
                                             "_" + std::to_string(counter++));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

plugin::RouteDefinition builtinListWorkspaces() {
    plugin::RouteDefinition def;
    def.method = "GET";
    def.path = "/api/v1/workspaces";
    def.operation_id = "api_list_workspaces_api_v1_workspaces_get";
    def.handler = [](const plugin::HttpRequest&) -> plugin::Result<plugin::HttpResponse> {
        return plugin::HttpResponse::json({{"workspaces", nlohmann::json::array()}});
    };
    return def;
}

class PluginLoaderTest : public ::testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(router_.add(builtinListWorkspaces(), "workspaces").ok()); }

    // Routes in the table that came from `plugin`.
    std::vector<std::string> routesOf(const std::string& plugin) const {
        std::vector<std::string> ids;
        for (const auto& route : *router_.routes()) {
            if (route->plugin == plugin) ids.push_back(route->def.operation_id);
        }
        return ids;
    }

    std::size_t routeCount() const { return router_.routes()->size(); }

    http::Router router_;
    http::SchemaRegistry schemas_;
    PluginRegistry registry_;
    FakeHost host_;
    PluginLoader loader_{router_, schemas_, registry_, host_};
};

TEST_F(PluginLoaderTest, GoodPluginRegistersRoutesSchemaToolsResourcesAndWorkflow) {
    const auto status = loader_.loadFile(fixture("good_plugin"));
    ASSERT_TRUE(status.ok()) << status.error().code << ": " << status.error().message;

    const auto echo = router_.match("POST", "/api/v1/plugins/fixture_good/echo");
    ASSERT_TRUE(echo.route);
    EXPECT_EQ(echo.route->tag, "fixture_good");
    EXPECT_EQ(echo.route->plugin, "fixture_good");
    EXPECT_EQ(echo.route->def.operation_id, "fixture_good_echo");
    EXPECT_EQ(echo.route->def.scopes, std::vector<std::string>{"documents:read"});
    EXPECT_EQ(echo.route->def.request_schema, "FixtureEchoInput");

    plugin::HttpRequest request;
    request.method = "POST";
    request.body = {{"text", "hi"}};
    request.principal.user_id = "user_1";
    const auto response = echo.route->def.handler(request);
    ASSERT_TRUE(response.ok());
    EXPECT_EQ(response->body, (nlohmann::json{{"echo", "hi"}, {"user_id", "user_1"}}));

    const auto hello = router_.match("GET", "/api/v1/plugins/fixture_good/hello");
    ASSERT_TRUE(hello.route);
    EXPECT_EQ(hello.route->tag, "fixture_good");
    const auto hello_response = hello.route->def.handler(plugin::HttpRequest{});
    ASSERT_TRUE(hello_response.ok());
    EXPECT_EQ(hello_response->body, (nlohmann::json{{"hello", "world"}}));

    ASSERT_TRUE(schemas_.has("FixtureEchoInput"));
    nlohmann::json empty_body = nlohmann::json::object();
    EXPECT_FALSE(schemas_.validate("FixtureEchoInput", empty_body, {"body"}).empty());

    const auto tools = registry_.mcpTools();
    ASSERT_EQ(tools.size(), 1u);
    EXPECT_EQ(tools[0].plugin, "fixture_good");
    EXPECT_EQ(tools[0].definition.name, "fixture_good_echo");
    plugin::ToolCall call;
    call.name = "fixture_good_echo";
    call.arguments = {{"text", "hey"}};
    const auto tool_result = tools[0].definition.handler(call);
    ASSERT_TRUE(tool_result.ok());
    EXPECT_EQ(*tool_result, (nlohmann::json{{"echo", "hey"}}));

    const auto resources = registry_.mcpResources();
    ASSERT_EQ(resources.size(), 1u);
    EXPECT_EQ(resources[0].definition.uri_template, "docintel://fixture_good/{id}");
    const auto read = resources[0].definition.reader("docintel://fixture_good/7", {});
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(read->at("uri"), "docintel://fixture_good/7");

    const auto workflows = registry_.workflows();
    ASSERT_EQ(workflows.size(), 1u);
    EXPECT_EQ(workflows[0].definition.at("name"), "fixture_good_flow");

    const auto info = registry_.find("fixture_good");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->version, "1.0.0");
    EXPECT_EQ(
        info->operation_ids,
        (std::vector<std::string>{"fixture_good_echo", "fixture_good_hello", "fixture_good_fail"}));
    EXPECT_FALSE(info->loaded_at.empty());
    EXPECT_GT(host_.log_lines.load(), 0);  // the plugin reached the host services

    const auto catalog = registry_.toJson();
    ASSERT_EQ(catalog.at("plugins").size(), 1u);
    EXPECT_EQ(catalog["plugins"][0]["name"], "fixture_good");
    EXPECT_EQ(catalog["plugins"][0]["file"], "good_plugin.so");
    EXPECT_TRUE(catalog.at("refused").empty());
}

TEST_F(PluginLoaderTest, ThrowingHandlerBecomesInternalError) {
    ASSERT_TRUE(loader_.loadFile(fixture("good_plugin")).ok());
    const auto fail = router_.match("GET", "/api/v1/plugins/fixture_good/fail");
    ASSERT_TRUE(fail.route);

    plugin::HttpRequest request;
    request.trace_id = "trace-1";
    const auto response = fail.route->def.handler(request);
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(response.error().code, "internal_error");
    EXPECT_EQ(response.error().http_status, 500);
    // The client never sees the exception's text.
    EXPECT_EQ(response.error().message.find("on purpose"), std::string::npos);
}

TEST_F(PluginLoaderTest, WrongAbiIsRefusedBeforeCreate) {
    const auto before = routeCount();
    testing::internal::CaptureStderr();
    const auto status = loader_.loadFile(fixture("wrong_abi_plugin"));
    const auto log = testing::internal::GetCapturedStderr();

    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "abi_mismatch");
    EXPECT_NE(log.find("event=plugin_refused"), std::string::npos) << log;
    EXPECT_NE(log.find("code=abi_mismatch"), std::string::npos) << log;
    EXPECT_NE(log.find("wrong_abi_plugin.so"), std::string::npos) << log;

    // The library stays loaded (never unloaded), so its own flag says whether create ran.
    auto created = reinterpret_cast<bool (*)()>(loadedPluginSymbol("fixture_wrong_abi_created"));
    ASSERT_NE(created, nullptr);
    EXPECT_FALSE(created());

    EXPECT_EQ(routeCount(), before);
    EXPECT_TRUE(registry_.plugins().empty());
    const auto refused = registry_.refused();
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0].name, "fixture_wrong_abi");
    EXPECT_EQ(refused[0].code, "abi_mismatch");
    EXPECT_NE(refused[0].reason.find("999"), std::string::npos);
}

TEST_F(PluginLoaderTest, ThrowingRegistrationIsRefusedAndRegistersNothing) {
    const auto before = routeCount();
    const auto status = loader_.loadFile(fixture("throwing_plugin"));

    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "registration_failed");
    EXPECT_NE(status.error().message.find("fixture_throwing fails on purpose"), std::string::npos);
    EXPECT_EQ(routeCount(), before);
    EXPECT_FALSE(router_.match("GET", "/api/v1/plugins/fixture_throwing/before").route);
    EXPECT_FALSE(registry_.isLoaded("fixture_throwing"));
    ASSERT_EQ(registry_.refused().size(), 1u);
    EXPECT_EQ(registry_.refused()[0].code, "registration_failed");
}

TEST_F(PluginLoaderTest, CollidingPluginIsRefusedWhole) {
    const auto before = routeCount();
    const auto status = loader_.loadFile(fixture("colliding_plugin"));

    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "route_conflict");
    EXPECT_NE(status.error().message.find("/api/v1/workspaces"), std::string::npos);
    EXPECT_EQ(routeCount(), before);
    EXPECT_TRUE(routesOf("fixture_colliding").empty());
    EXPECT_FALSE(router_.match("GET", "/api/v1/plugins/fixture_colliding/fine").route);
    const auto builtin = router_.match("GET", "/api/v1/workspaces");
    ASSERT_TRUE(builtin.route);
    EXPECT_EQ(builtin.route->tag, "workspaces");
    EXPECT_TRUE(builtin.route->plugin.empty());
    EXPECT_FALSE(registry_.isLoaded("fixture_colliding"));
}

TEST_F(PluginLoaderTest, SecondPluginWithTheSameNameIsRefused) {
    ASSERT_TRUE(loader_.loadFile(fixture("good_plugin")).ok());
    const auto routes = routeCount();

    // A copy is a different file to the dynamic loader, so its descriptor is really read.
    TempDir dir;
    const auto copy = dir.path() / "good_plugin_copy.so";
    fs::copy_file(fixture("good_plugin"), copy);
    const auto duplicate = loader_.loadFile(copy.string());
    ASSERT_FALSE(duplicate.ok());
    EXPECT_EQ(duplicate.error().code, "duplicate_plugin");

    // The same path again is refused too: the dynamic loader would hand back the open library.
    const auto again = loader_.loadFile(fixture("good_plugin"));
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().code, "path_reused");

    EXPECT_EQ(routeCount(), routes);
    EXPECT_EQ(registry_.plugins().size(), 1u);
    EXPECT_EQ(registry_.mcpTools().size(), 1u);
}

TEST_F(PluginLoaderTest, FilesThatAreNotPluginsAreRefused) {
    TempDir dir;
    const auto junk = dir.path() / "junk.so";
    {
        std::ofstream out(junk);
        out << "not an ELF file";
    }
    const auto status = loader_.loadFile(junk.string());
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, "load_failed");

    const auto missing = loader_.loadFile((dir.path() / "missing.so").string());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, "file_unreadable");
    EXPECT_EQ(registry_.refused().size(), 2u);
}

// A drop caught half-written (a copy stalled under load) is refused without being opened, and
// loads once it is whole.
TEST_F(PluginLoaderTest, HalfWrittenPluginIsRefusedUntilItIsWhole) {
    EXPECT_EQ(elfIncompleteness(fixture("good_plugin")), "");
    TempDir dir;
    const auto drop = dir.path() / "good_plugin.so";
    const auto whole = fs::file_size(fixture("good_plugin"));
    fs::copy_file(fixture("good_plugin"), drop);
    fs::resize_file(drop, whole / 2);

    const auto half = loader_.loadFile(drop.string());
    ASSERT_FALSE(half.ok());
    EXPECT_EQ(half.error().code, "incomplete_file");
    EXPECT_FALSE(registry_.isLoaded("fixture_good"));

    fs::copy_file(fixture("good_plugin"), drop, fs::copy_options::overwrite_existing);
    const auto status = loader_.loadFile(drop.string());
    ASSERT_TRUE(status.ok()) << status.error().code << ": " << status.error().message;
    EXPECT_TRUE(registry_.isLoaded("fixture_good"));
}

// `cp` onto a loaded plugin truncates and rewrites the file in place; the code the process runs
// is its own copy, so the plugin keeps answering (a mapping of the dropped file would die of
// SIGBUS here).
TEST_F(PluginLoaderTest, OverwritingALoadedPluginFileInPlaceLeavesItServing) {
    TempDir dir;
    TempDir copies;  // where the loader's private copies go (TMPDIR)
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string saved = tmpdir != nullptr ? tmpdir : "";
    ::setenv("TMPDIR", copies.path().c_str(), 1);
    const auto drop = dir.path() / "good_plugin.so";
    fs::copy_file(fixture("good_plugin"), drop);
    const auto status = loader_.loadFile(drop.string());
    tmpdir != nullptr ? ::setenv("TMPDIR", saved.c_str(), 1) : ::unsetenv("TMPDIR");
    ASSERT_TRUE(status.ok()) << status.error().code << ": " << status.error().message;
    EXPECT_TRUE(fs::is_empty(copies.path()));  // the copy is gone; its mapping stays

    {
        std::ofstream out(drop, std::ios::binary | std::ios::trunc);
        out << std::string(100, '\0');
    }
    const auto hello = router_.match("GET", "/api/v1/plugins/fixture_good/hello");
    ASSERT_TRUE(hello.route);
    const auto response = hello.route->def.handler(plugin::HttpRequest{});
    ASSERT_TRUE(response.ok());
    EXPECT_EQ(response->body, (nlohmann::json{{"hello", "world"}}));
}

TEST_F(PluginLoaderTest, LoadDirectoryLoadsGoodPluginsAndRefusesBadOnes) {
    const auto counts = loader_.loadDirectory(fixtureDir().string());
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts->loaded, 2);   // good, hot
    EXPECT_EQ(counts->refused, 3);  // colliding, throwing, wrong_abi
    EXPECT_TRUE(registry_.isLoaded("fixture_good"));
    EXPECT_TRUE(registry_.isLoaded("fixture_hot"));
    EXPECT_TRUE(router_.match("GET", "/api/v1/plugins/fixture_hot/ping").route);

    const auto missing = loader_.loadDirectory((fixtureDir() / "no_such_dir").string());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, "not_found");
}

TEST_F(PluginLoaderTest, WatcherLoadsAPluginDroppedIntoTheFolder) {
    TempDir dir;
    PluginWatcher watcher(loader_, dir.path().string(), 200);
    watcher.start();
    ASSERT_TRUE(pollUntil([&] { return watcher.polls() >= 1; }));
    EXPECT_FALSE(registry_.isLoaded("fixture_hot"));

    fs::copy_file(fixture("hot_plugin"), dir.path() / "hot_plugin.so");

    ASSERT_TRUE(pollUntil([&] { return registry_.isLoaded("fixture_hot"); }));
    const auto ping = router_.match("GET", "/api/v1/plugins/fixture_hot/ping");
    ASSERT_TRUE(ping.route);
    EXPECT_EQ(ping.route->tag, "fixture_hot");
    const auto response = ping.route->def.handler(plugin::HttpRequest{});
    ASSERT_TRUE(response.ok());
    EXPECT_EQ(response->body, (nlohmann::json{{"pong", true}}));
    watcher.stop();
}

TEST_F(PluginLoaderTest, WatcherRefusesABadDropOnceAndKeepsWatching) {
    TempDir dir;
    PluginWatcher watcher(loader_, dir.path().string(), 200);
    watcher.start();

    fs::copy_file(fixture("throwing_plugin"), dir.path() / "throwing_plugin.so");
    ASSERT_TRUE(pollUntil([&] { return registry_.refused().size() == 1; }));

    // Several more polls see the same file version; it is not attempted again.
    const auto seen = watcher.polls();
    ASSERT_TRUE(pollUntil([&] { return watcher.polls() >= seen + 3; }));
    EXPECT_EQ(registry_.refused().size(), 1u);

    fs::copy_file(fixture("hot_plugin"), dir.path() / "hot_plugin.so");
    ASSERT_TRUE(pollUntil([&] { return registry_.isLoaded("fixture_hot"); }));
    EXPECT_FALSE(registry_.isLoaded("fixture_throwing"));
}

TEST_F(PluginLoaderTest, WatcherSkipsFilesAlreadyLoadedAtStart) {
    TempDir dir;
    fs::copy_file(fixture("hot_plugin"), dir.path() / "hot_plugin.so");
    const auto counts = loader_.loadDirectory(dir.path().string());
    ASSERT_TRUE(counts.ok());
    ASSERT_EQ(counts->loaded, 1);

    PluginWatcher watcher(loader_, dir.path().string(), 200);
    watcher.start();
    ASSERT_TRUE(pollUntil([&] { return watcher.polls() >= 4; }));
    EXPECT_TRUE(registry_.refused().empty());
}

TEST_F(PluginLoaderTest, WatcherStopsPromptly) {
    TempDir dir;
    PluginWatcher watcher(loader_, dir.path().string(), 60'000);
    watcher.start();
    ASSERT_TRUE(pollUntil([&] { return watcher.polls() >= 1; }));
    const auto started = std::chrono::steady_clock::now();
    watcher.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
}

}  // namespace
}  // namespace docintel::plugin_host
