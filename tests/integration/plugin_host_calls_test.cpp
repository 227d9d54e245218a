// What a feature plugin is lent besides storage, called as the request's principal through a
// fixture route (sdk_other's `host`): workspace role and member lookup by e-mail, documents
// read, created through ingestion and deleted, grounded answers that never reach outside the
// named documents, and the support check.

#include <gtest/gtest.h>

#include <Poco/URI.h>

#include <filesystem>
#include <string>

#include "support/fake_llm.h"
#include "support/sample_texts.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using Json = nlohmann::json;

class PluginHostCalls : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.plugins = {testPluginDir() + "/sdk/sdk_other.so"};
        server_ = new TestServer(options);
        owner_ = server_->token(server_->createUser("owner@example.com"), TestServer::allScopes());
        bob_id_ = server_->createUser("bob@example.com");
        bob_ = server_->token(bob_id_, TestServer::allScopes());
        carol_ = server_->token(server_->createUser("carol@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    /// Calls HostServices::`name` with `args` as the holder of `token`.
    static Response call(const std::string& name, const Json& args, const std::string& token) {
        return server_->request("POST", "/api/v1/plugins/sdk_other/host",
                                Json{{"call", name}, {"args", args}}.dump(), token);
    }
    static Json result(const std::string& name, const Json& args, const std::string& token) {
        const auto r = call(name, args, token);
        EXPECT_EQ(r.status, 200) << name << ": " << r.body;
        return r.json()["result"];
    }

    static TestServer* server_;
    static std::string owner_, bob_id_, bob_, carol_;
};
TestServer* PluginHostCalls::server_ = nullptr;
std::string PluginHostCalls::owner_, PluginHostCalls::bob_id_, PluginHostCalls::bob_,
    PluginHostCalls::carol_;

TEST_F(PluginHostCalls, WorkspaceRoleAndMemberByEmailAsThePrincipalSeesThem) {
    auto r = server_->request("POST", "/api/v1/workspaces", R"({"name":"Course team"})", owner_);
    ASSERT_EQ(r.status, 201) << r.body;
    const std::string ws = r.json()["id"];
    r = server_->request("POST", "/api/v1/workspaces/" + ws + "/members",
                         R"({"email":"bob@example.com","role":"viewer"})", owner_);
    ASSERT_LT(r.status, 300) << r.body;

    EXPECT_EQ(result("workspaceRole", {{"workspace_id", ws}}, owner_), "owner");
    EXPECT_EQ(result("workspaceRole", {{"workspace_id", ws}}, bob_), "viewer");
    r = call("workspaceRole", {{"workspace_id", ws}}, carol_);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.json()["code"], "workspace_not_found");

    const auto bob =
        result("findWorkspaceMember", {{"workspace_id", ws}, {"email", "BOB@example.com"}}, owner_);
    EXPECT_EQ(bob["user_id"], bob_id_);
    EXPECT_EQ(bob["role"], "viewer");
    r = call("findWorkspaceMember", {{"workspace_id", ws}, {"email", "carol@example.com"}}, owner_);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.json()["code"], "member_not_found");
    // A non-member learns nothing, not even that the workspace exists.
    r = call("findWorkspaceMember", {{"workspace_id", ws}, {"email", "bob@example.com"}}, carol_);
    EXPECT_EQ(r.json()["code"], "workspace_not_found");
}

TEST_F(PluginHostCalls, DocumentsAndAnswersGroundedOnlyInTheNamedDocuments) {
    const auto lease = result("createDocument",
                              {{"filename", "lease.txt"},
                               {"content_type", "text/plain"},
                               {"text", std::string(kLeaseText) + kLeaseRenewal}},
                              owner_);
    const auto memo = result("createDocument",
                             {{"filename", "memo.txt"},
                              {"content_type", "text/plain"},
                              {"text",
                               "Production memo\n\nThe bottling plant in Leeds produced 20,000 "
                               "bottles of sparkling water in June."}},
                             owner_);
    const std::string lease_id = lease["id"], memo_id = memo["id"];
    ASSERT_EQ(server_->waitForDocument(lease_id, owner_)["status"], "embedded");
    ASSERT_EQ(server_->waitForDocument(memo_id, owner_)["status"], "embedded");

    const auto listed = result("listDocuments", Json::object(), owner_);
    EXPECT_NE(listed.dump().find(lease_id), std::string::npos) << listed.dump();
    EXPECT_FALSE(result("documentChunks", {{"document_id", lease_id}}, owner_)["chunks"].empty());
    EXPECT_EQ(call("getDocument", {{"document_id", lease_id}}, carol_).status, 404);

    // The rent is only in the lease: asked over the memo alone, the answer refuses.
    auto frames = result(
        "askGrounded", {{"question", "How much is the monthly rent?"}, {"document_ids", {memo_id}}},
        owner_);
    ASSERT_FALSE(frames.empty());
    EXPECT_EQ(frames.front()["type"], "sources");
    for (const auto& s : frames.front()["sources"]) EXPECT_EQ(s["document_id"], memo_id);
    EXPECT_TRUE(frames.back()["refused"].get<bool>()) << frames.back().dump();
    EXPECT_EQ(frames.back()["answer"].get<std::string>().find("4,500"), std::string::npos);

    frames = result("askGrounded",
                    {{"question", "How much is the monthly rent?"}, {"document_ids", {lease_id}}},
                    owner_);
    const auto& done = frames.back();
    EXPECT_EQ(done["type"], "done");
    EXPECT_NE(done["answer"].get<std::string>().find("$4,500"), std::string::npos) << done;
    ASSERT_FALSE(done["citations"].empty());
    for (const auto& c : done["citations"]) EXPECT_EQ(c["document_id"], lease_id);

    // Never widened: no documents named is refused, someone else's document is not found.
    EXPECT_EQ(call("askGrounded", {{"question", "rent?"}}, owner_).status, 422);
    EXPECT_EQ(
        call("askGrounded", {{"question", "rent?"}, {"document_ids", {lease_id}}}, carol_).status,
        404);
    const auto sources =
        result("retrieve", {{"question", "bottles"}, {"document_ids", {memo_id}}}, owner_);
    EXPECT_NE(sources.dump().find(memo_id), std::string::npos);
    EXPECT_EQ(sources.dump().find(lease_id), std::string::npos);

    const auto verdicts =
        result("checkSupport",
               {{"claims",
                 {{{"sentence", "The plant in Leeds produced 20,000 bottles in June."},
                   {"texts",
                    {"The bottling plant in Leeds produced 20,000 bottles of sparkling "
                     "water in June."}}},
                  {{"sentence", "The plant in Leeds produced 90,000 bottles in June."},
                   {"texts",
                    {"The bottling plant in Leeds produced 20,000 bottles of sparkling "
                     "water in June."}}}}}},
               owner_);
    EXPECT_TRUE(verdicts[0]["supported"].get<bool>()) << verdicts.dump();
    EXPECT_FALSE(verdicts[1]["supported"].get<bool>()) << verdicts.dump();

    const auto summary = result("summarize", {{"document_id", memo_id}}, owner_);
    EXPECT_NE(summary.dump().find("20,000"), std::string::npos) << summary.dump();

    EXPECT_EQ(call("deleteDocument", {{"document_id", memo_id}}, carol_).status, 404);
    result("deleteDocument", {{"document_id", memo_id}}, owner_);
    EXPECT_EQ(call("getDocument", {{"document_id", memo_id}}, owner_).status, 404);
}

TEST_F(PluginHostCalls, ObjectsUnderThePluginsPrefixAndSignedUploads) {
    auto stored = result(
        "putObject",
        {{"name", "courses/c1/notes.txt"}, {"text", "study notes"}, {"content_type", "text/plain"}},
        owner_);
    EXPECT_EQ(stored["size"], 11);
    EXPECT_EQ(result("readObject", {{"name", "courses/c1/notes.txt"}}, owner_), "study notes");
    EXPECT_TRUE(std::filesystem::exists(server_->dataDir() +
                                        "/objects/plugins/sdk_other/courses/c1/notes.txt"));
    for (const char* bad : {"../escape.txt", "/abs.txt", "a/../../b", "a//b", "sp ace"}) {
        const auto r = call("readObject", {{"name", bad}}, owner_);
        EXPECT_EQ(r.status, 422) << bad;
        EXPECT_EQ(r.json()["code"], "invalid_object_name") << bad;
    }

    const std::string bytes = "uploaded straight to the store";
    const std::string url =
        result("signedUploadUrl",
               {{"name", "uploads/u1.txt"}, {"content_type", "text/plain"}, {"size", bytes.size()}},
               owner_);
    EXPECT_EQ(TestServer::putObject(url, bytes, "text/plain").status, 200);
    EXPECT_EQ(result("readObject", {{"name", "uploads/u1.txt"}}, owner_), bytes);
    // The signature covers the size: a different size is refused.
    EXPECT_NE(TestServer::putObject(url, bytes + "!", "text/plain").status, 200);

    // A signed download answers the bytes without a token, as the type it was signed for; the
    // signature covers the key, so another object under the same signature is refused.
    const std::string download = result(
        "signedDownloadUrl", {{"name", "uploads/u1.txt"}, {"content_type", "text/plain"}}, owner_);
    const std::string path = Poco::URI(download).getPathAndQuery();
    auto got = server_->request("GET", path, "", "");
    EXPECT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.body, bytes);
    std::string other = path;
    other.replace(other.find("u1.txt"), 6, "u2.txt");
    EXPECT_EQ(server_->request("GET", other, "", "").status, 403);
    EXPECT_EQ(call("signedDownloadUrl", {{"name", "uploads/none.txt"}}, owner_).status, 404);

    result("removeObject", {{"name", "uploads/u1.txt"}}, owner_);
    EXPECT_EQ(call("readObject", {{"name", "uploads/u1.txt"}}, owner_).status, 404);
}

TEST_F(PluginHostCalls, TheConfiguredLlmWhenThereIsOne) {
    const Json messages = Json::array({{{"role", "user"}, {"content", "Say hello."}}});
    auto r = call("completeChat", {{"messages", messages}}, owner_);
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(r.json()["code"], "llm_unavailable");

    FakeLlm fake;
    fake.setResponder([](const Json&) { return FakeLlm::Reply{FakeLlm::words("Hello there.")}; });
    TestServer::Options options;
    options.plugins = {testPluginDir() + "/sdk/sdk_other.so"};
    options.llm_base_url = fake.baseUrl() + "/";
    options.llm_model = "fake-llm";
    TestServer with_llm(options);
    const std::string token =
        with_llm.token(with_llm.createUser("llm@example.com"), TestServer::allScopes());
    r = with_llm.request("POST", "/api/v1/plugins/sdk_other/host",
                         Json{{"call", "completeChat"}, {"args", {{"messages", messages}}}}.dump(),
                         token);
    ASSERT_EQ(r.status, 200) << r.body;
    const Json out = r.json()["result"];
    EXPECT_EQ(out["text"], "Hello there.");
    EXPECT_EQ(out["streamed"], "Hello there.");
    EXPECT_TRUE(out["has_llm"].get<bool>());
    ASSERT_FALSE(fake.requests().empty());
    EXPECT_EQ(fake.requests().back()["messages"], messages);
}

}  // namespace
}  // namespace docintel::test
