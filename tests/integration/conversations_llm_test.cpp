// Guided turns in LLM mode against a real engine: llama.cpp's server (xllamacpp) running
// SmolLM2-135M-Instruct (support/llama_server.h), the conversations plugin on a real server.
// The tiny model writes what it likes, so the test pins what must hold whatever it writes
// (issue 18): the engine is asked for the turn's fields, the turn succeeds, and only the
// template's keys with non-empty string values are kept in the collection state.

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "support/llama_server.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

TEST(ConversationsLlm, KeepsOnlyTheTemplatesFieldsWhateverTheModelWrites) {
    std::unique_ptr<LlamaServer> llm;
    ASSERT_NO_THROW(llm = std::make_unique<LlamaServer>());
    TestServer::Options options;
    options.plugins = {builtPlugin("conversations")};
    options.llm_base_url = llm->baseUrl();
    options.llm_model = LlamaServer::kModel;
    options.llm_timeout_ms = 60000;
    TestServer server(options);
    const std::string user = server.createUser("llm-intake@example.com");
    const std::string token = server.token(user, TestServer::allScopes());

    auto r = server.request("POST", "/api/v1/conversations",
                            json{{"template_id", "customer-intake"}}.dump(), token);
    ASSERT_EQ(r.status, 201) << r.body;
    const json started = r.json();
    const std::string id = started["session_id"];
    std::set<std::string> keys;
    for (const auto& f : started["template"]["fields"]) keys.insert(f["key"].get<std::string>());
    ASSERT_EQ(keys.size(), 4u) << started.dump();
    const std::string base = "/api/v1/conversations/" + id;
    ASSERT_EQ(
        server.request("POST", base + "/consent", json{{"confirmed", true}}.dump(), token).status,
        200);

    const std::string before = llm->logTail(100000);
    r = server.request("POST", base + "/turns",
                       json{{"transcript",
                             "Hi, my name is Priya Sharma. I would like to move my pension to a "
                             "new provider, and it is urgent. Please call me back on my phone."}}
                           .dump(),
                       token);
    ASSERT_EQ(r.status, 200) << r.body;
    // The engine processed a completion for the turn (its slot log).
    const std::string after = llm->logTail(100000);
    ASSERT_GT(after.size(), before.size()) << after;
    EXPECT_NE(after.substr(before.size()).find("processing task"), std::string::npos)
        << after.substr(before.size());

    const json state = r.json()["session_state"];
    const json& collected = state["collected_fields"];
    ASSERT_TRUE(collected.is_object()) << state.dump();
    EXPECT_FALSE(collected.empty()) << state.dump();
    for (const auto& [key, field] : collected.items()) {
        EXPECT_TRUE(keys.count(key)) << "not a field of the template: " << key;
        ASSERT_TRUE(field.is_object()) << field.dump();
        ASSERT_TRUE(field["value"].is_string()) << field.dump();
        EXPECT_FALSE(field["value"].get<std::string>().empty()) << key;
    }
    // The missing fields are recomputed from what was kept.
    for (const auto& missing : state["missing_required_fields"]) {
        EXPECT_FALSE(collected.contains(missing.get<std::string>())) << state.dump();
    }
    EXPECT_EQ(state.value("ready_to_finish", true), state["missing_required_fields"].empty());
}

}  // namespace
}  // namespace docintel::test
