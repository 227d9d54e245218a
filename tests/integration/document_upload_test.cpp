// Direct upload through the real API and the server's own signed-URL object endpoint:
// create → PUT → complete → ingestion job → chunked; and everything that must be refused.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "common/clock.h"
#include "objects/url_signer.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;

class DocumentUpload : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        user_ = server_->createUser("uploader@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    static nlohmann::json createUpload(const std::string& filename, const std::string& type,
                                       std::size_t size, const std::string& token = token_,
                                       const std::map<std::string, std::string>& headers = {}) {
        const auto r = server_->request(
            "POST", "/api/v1/uploads",
            nlohmann::json{{"filename", filename}, {"content_type", type}, {"file_size", size}}
                .dump(),
            token, headers);
        EXPECT_EQ(r.status, 201) << r.body;
        return r.json();
    }

    static Response complete(const nlohmann::json& session, std::size_t size,
                             const std::string& path_field = "storage_source_path") {
        return server_->request("POST", "/api/v1/uploads/complete",
                                nlohmann::json{{"filename", "f"},
                                               {"file_size", size},
                                               {"doc_id", session["doc_id"]},
                                               {path_field, session["storage_source_path"]}}
                                    .dump(),
                                token_);
    }

    static nlohmann::json waitForStatus(const std::string& id, const std::string& token = token_) {
        return server_->waitForDocument(id, token);
    }

    static TestServer* server_;
    static std::string user_;
    static std::string token_;
};
TestServer* DocumentUpload::server_ = nullptr;
std::string DocumentUpload::user_;
std::string DocumentUpload::token_;

TEST_F(DocumentUpload, TextFileGoesFromUploadToChunksWithPagesAndSpans) {
    const std::string path = sharedDir() + "/datasets/doc-corpus/text/book-war-and-peace-1p.txt";
    const std::string bytes = readFile(path);
    const auto session = createUpload("war and peace.txt", "text/plain", bytes.size());
    EXPECT_EQ(session["storage_source_path"], session["gcs_source_path"]);
    EXPECT_FALSE(session["expires_at"].get<std::string>().empty());
    ASSERT_EQ(TestServer::putObject(session["upload_url"], bytes, "text/plain").status, 200);
    const auto done = complete(session, bytes.size(), "gcs_source_path");
    ASSERT_EQ(done.status, 202) << done.body;
    EXPECT_EQ(done.json()["detected_type"], "txt");

    const auto doc = waitForStatus(session["doc_id"]);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["size"], bytes.size());
    EXPECT_EQ(doc["pages"], 1);
    EXPECT_EQ(doc["sha256"].get<std::string>().size(), 64u);

    const auto chunks =
        server_->get("/api/v1/documents/" + doc["id"].get<std::string>() + "/chunks", token_)
            .json();
    ASSERT_GT(chunks["count"].get<int>(), 1);
    std::string all;
    for (const auto& c : chunks["chunks"]) {
        EXPECT_EQ(c["page"], 1);
        EXPECT_LT(c["char_start"].get<int>(), c["char_end"].get<int>());
        EXPECT_GT(c["token_count"].get<int>(), 0);
        EXPECT_LE(c["token_count"].get<int>(), 254);
        EXPECT_EQ(c["model"], "all-MiniLM-L6-v2");
        EXPECT_FALSE(c["model_version"].get<std::string>().empty());
        all += c["text"].get<std::string>();
    }
    EXPECT_NE(all.find("Genoa and Lucca"), std::string::npos);

    // Complete is idempotent: the same answer, no second ingestion job.
    const auto again = complete(session, bytes.size());
    ASSERT_EQ(again.status, 202);
    EXPECT_EQ(again.json()["already_completed"], true);
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM jobs WHERE payload->>'document_id' = '" +
                                   doc["id"].get<std::string>() + "'"),
              "1");
}

TEST_F(DocumentUpload, BadPutsAreRefusedAndLeaveNothingBehind) {
    if (server_->usesS3()) {
        GTEST_SKIP() << "the bucket checks presigned PUTs itself: S3Store.APresignedPutIsChecked"
                        "ByTheStore";
    }
    const std::string bytes(1000, 'x');
    const auto session = createUpload("a.txt", "text/plain", bytes.size());
    const std::string url = session["upload_url"];
    const std::string object =
        server_->dataDir() + "/objects/" + session["storage_source_path"].get<std::string>();

    std::string tampered = url;
    tampered.replace(tampered.find("size=1000"), 9, "size=1001");
    EXPECT_EQ(TestServer::putObject(tampered, bytes + "y", "text/plain").status, 403);
    EXPECT_EQ(TestServer::putObject(url + "x", bytes, "text/plain").status,
              403);  // signature changed
    EXPECT_EQ(TestServer::putObject(url, bytes, "application/pdf").status, 400);
    EXPECT_EQ(TestServer::putObject(url, bytes.substr(0, 999), "text/plain").status, 400);
    EXPECT_FALSE(fs::exists(object));

    // An expired grant signed with the server's own key is refused as expired.
    auto signer =
        objects::UrlSigner::fromSecretFile(server_->dataDir() + "/keys/object-signing.secret");
    objects::UploadGrant old{"PUT", session["storage_source_path"], common::nowEpochSeconds() - 5,
                             "text/plain", 1000};
    const auto expired =
        TestServer::putObject(signer.url(server_->baseUrl(), old), bytes, "text/plain");
    EXPECT_EQ(expired.status, 403);
    EXPECT_NE(expired.body.find("upload_url_expired"), std::string::npos);
    EXPECT_FALSE(fs::exists(object));

    // Complete needs the storage path under one of its two names.
    const auto no_path = server_->request(
        "POST", "/api/v1/uploads/complete",
        nlohmann::json{{"filename", "a.txt"}, {"file_size", 1000}, {"doc_id", session["doc_id"]}}
            .dump(),
        token_);
    ASSERT_EQ(no_path.status, 422);
    EXPECT_EQ(no_path.json()["detail"][0]["loc"], nlohmann::json({"body", "storage_source_path"}));

    // Complete without the bytes is a conflict and starts nothing.
    const auto early = complete(session, bytes.size());
    EXPECT_EQ(early.status, 409);
    EXPECT_EQ(early.json()["code"], "upload_missing");
}

TEST_F(DocumentUpload, LimitsAndUnsupportedTypes) {
    const auto big = server_->request(
        "POST", "/api/v1/uploads",
        R"({"filename":"big.pdf","content_type":"application/pdf","file_size":104857601})", token_);
    // Above the schema's 100 MiB a 422 names the field (a lower configured limit is 413).
    EXPECT_EQ(big.status, 422);
    EXPECT_EQ(big.json()["detail"][0]["loc"], nlohmann::json({"body", "file_size"}));

    const std::string bytes =
        readFile(sharedDir() + "/datasets/doc-corpus/office/legacy/simple.doc");
    ASSERT_FALSE(bytes.empty());
    const auto session = createUpload("simple.doc", "application/msword", bytes.size());
    ASSERT_EQ(TestServer::putObject(session["upload_url"], bytes, "application/msword").status,
              200);
    const auto done = complete(session, bytes.size());
    EXPECT_EQ(done.status, 415);
    EXPECT_EQ(done.json()["code"], "unsupported_type");
    const auto doc =
        server_->get("/api/v1/documents/" + session["doc_id"].get<std::string>(), token_).json();
    EXPECT_EQ(doc["status"], "error");
    EXPECT_EQ(doc["error_code"], "unsupported_type");
}

TEST_F(DocumentUpload, DeleteRemovesChunksAndTheObjectAndNothingElse) {
    const std::string bytes = "First paragraph about apples.\n\nSecond paragraph about pears.\n";
    const auto keep = createUpload("keep.txt", "text/plain", bytes.size());
    const auto drop = createUpload("drop.txt", "text/plain", bytes.size());
    for (const auto* s : {&keep, &drop}) {
        ASSERT_EQ(TestServer::putObject((*s)["upload_url"], bytes, "text/plain").status, 200);
        ASSERT_EQ(complete(*s, bytes.size()).status, 202);
        ASSERT_EQ(waitForStatus((*s)["doc_id"])["status"], "embedded");
    }
    const std::string id = drop["doc_id"];
    const std::string object = drop["storage_source_path"];
    ASSERT_TRUE(server_->objectExists(object));
    const auto before_chunks = server_->db().scalar("SELECT count(*) FROM chunks");

    ASSERT_EQ(server_->request("DELETE", "/api/v1/documents/" + id, {}, token_).status, 200);
    EXPECT_EQ(server_->get("/api/v1/documents/" + id, token_).status, 404);
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM chunks WHERE document_id = '" + id + "'"),
              "0");
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM documents WHERE id = '" + id + "'"), "0");
    EXPECT_FALSE(server_->objectExists(object));
    EXPECT_FALSE(server_->objectExists(object + ".meta"));
    // The other document is untouched.
    const std::string kept = keep["doc_id"];
    EXPECT_EQ(server_->get("/api/v1/documents/" + kept, token_).json()["status"], "embedded");
    EXPECT_LT(std::stoi(server_->db().scalar("SELECT count(*) FROM chunks")),
              std::stoi(before_chunks));
    EXPECT_GT(std::stoi(server_->db().scalar("SELECT count(*) FROM chunks WHERE document_id = '" +
                                             kept + "'")),
              0);
}

TEST_F(DocumentUpload, PersonalAndWorkspaceScopes) {
    const std::string other = server_->createUser("neighbour@example.com");
    const std::string other_token = server_->token(other, TestServer::allScopes());
    const std::string bytes = "private notes";
    const auto mine = createUpload("mine.txt", "text/plain", bytes.size());
    // Someone else's personal document does not exist for them.
    EXPECT_EQ(
        server_->get("/api/v1/documents/" + mine["doc_id"].get<std::string>(), other_token).status,
        404);
    EXPECT_EQ(server_
                  ->request("DELETE", "/api/v1/documents/" + mine["doc_id"].get<std::string>(), {},
                            other_token)
                  .status,
              404);

    // A workspace: the owner uploads; a viewer reads but cannot upload; a stranger sees nothing.
    const auto ws =
        server_->request("POST", "/api/v1/workspaces", R"({"name":"Docs team"})", token_).json();
    const std::string ws_id = ws["id"];
    ASSERT_EQ(server_
                  ->request("POST", "/api/v1/workspaces/" + ws_id + "/members",
                            R"({"email":"neighbour@example.com","role":"viewer"})", token_)
                  .status,
              201);
    const std::map<std::string, std::string> in_ws{{"X-DocIntel-Workspace-ID", ws_id}};
    const auto shared = createUpload("shared.txt", "text/plain", bytes.size(), token_, in_ws);
    const auto refused = server_->request(
        "POST", "/api/v1/uploads",
        R"({"filename":"v.txt","content_type":"text/plain","file_size":5})", other_token, in_ws);
    EXPECT_EQ(refused.status, 403);
    const auto listed = server_->request("GET", "/api/v1/documents", {}, other_token, in_ws);
    ASSERT_EQ(listed.status, 200);
    EXPECT_EQ(listed.json()["count"], 1);
    EXPECT_EQ(listed.json()["documents"][0]["id"], shared["doc_id"]);
    EXPECT_EQ(
        server_->get("/api/v1/workspaces/" + ws_id + "/documents", other_token).json()["count"], 1);
    const std::string stranger =
        server_->token(server_->createUser("stranger@example.com"), TestServer::allScopes());
    EXPECT_EQ(server_->request("GET", "/api/v1/documents", {}, stranger, in_ws).status, 404);
    EXPECT_EQ(
        server_->get("/api/v1/documents/" + shared["doc_id"].get<std::string>(), stranger).status,
        404);
    // Personal lists do not mix scopes.
    const auto personal = server_->get("/api/v1/documents", token_).json();
    for (const auto& d : personal["documents"]) {
        EXPECT_TRUE(d["workspace_id"].is_null());
    }
    // Deleting the workspace deletes its documents and nothing else.
    ASSERT_EQ(server_->request("DELETE", "/api/v1/workspaces/" + ws_id, {}, token_).status, 200);
    EXPECT_EQ(
        server_->get("/api/v1/documents/" + shared["doc_id"].get<std::string>(), token_).status,
        404);
    EXPECT_EQ(server_->get("/api/v1/documents/" + mine["doc_id"].get<std::string>(), token_).status,
              200);
}

TEST_F(DocumentUpload, VersionChainsMarkTheLatest) {
    const std::string bytes = "contract text";
    const std::string v1 = createUpload("contract-v1.txt", "text/plain", bytes.size())["doc_id"];
    const std::string v2 = createUpload("contract-v2.txt", "text/plain", bytes.size())["doc_id"];
    const std::string v3 = createUpload("contract-v3.txt", "text/plain", bytes.size())["doc_id"];
    auto link = [&](const std::string& id, const std::string& previous) {
        return server_->request("POST", "/api/v1/documents/" + id + "/versions",
                                nlohmann::json{{"previous_document_id", previous},
                                               {"change_summary", "revised terms"},
                                               {"changed_pages", {1, 2}}}
                                    .dump(),
                                token_);
    };
    ASSERT_EQ(link(v2, v1).status, 201);
    const auto r = link(v3, v2);
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(r.json()["latest_document_id"], v3);
    const auto chain = server_->get("/api/v1/documents/" + v1 + "/versions", token_).json();
    ASSERT_EQ(chain["count"], 3);
    EXPECT_EQ(chain["versions"][0]["id"], v1);
    EXPECT_EQ(chain["versions"][2]["id"], v3);
    EXPECT_EQ(chain["versions"][2]["version"], 3);
    EXPECT_EQ(chain["versions"][2]["is_latest"], true);
    EXPECT_EQ(chain["versions"][0]["is_latest"], false);
    EXPECT_EQ(chain["versions"][1]["changed_pages"], nlohmann::json({1, 2}));
    // A version that already has a successor cannot get another; no cycles; no self links.
    const std::string other = createUpload("other.txt", "text/plain", bytes.size())["doc_id"];
    EXPECT_EQ(link(other, v1).status, 409);
    EXPECT_EQ(link(v1, v3).status, 409);
    EXPECT_EQ(link(other, other).status, 409);
    // Someone else's document cannot be linked.
    const std::string stranger =
        server_->token(server_->createUser("versions@example.com"), TestServer::allScopes());
    EXPECT_EQ(server_->get("/api/v1/documents/" + v1 + "/versions", stranger).status, 404);
}

TEST_F(DocumentUpload, ReembeddingNeedsChunksAndStoresVectorsAgain) {
    const std::string bytes = "Tides rise twice a day.\n\nThe moon pulls the oceans.\n";
    const auto session = createUpload("tides.txt", "text/plain", bytes.size());
    const std::string id = session["doc_id"];
    const auto early =
        server_->request("POST", "/api/v1/documents/" + id + "/embedding", {}, token_);
    EXPECT_EQ(early.status, 409);
    EXPECT_EQ(early.json()["code"], "not_chunked");
    ASSERT_EQ(TestServer::putObject(session["upload_url"], bytes, "text/plain").status, 200);
    ASSERT_EQ(complete(session, bytes.size()).status, 202);
    ASSERT_EQ(waitForStatus(id)["status"], "embedded");
    const auto sql = "SELECT count(*) FROM chunks WHERE document_id = '" + id +
                     "' AND length(embedding) = 384 * 4";
    const auto vectors = server_->db().scalar(sql);
    EXPECT_NE(vectors, "0");

    server_->db().scalar("UPDATE chunks SET embedding = NULL WHERE document_id = '" + id + "'");
    const auto again =
        server_->request("POST", "/api/v1/documents/" + id + "/embedding", {}, token_);
    ASSERT_EQ(again.status, 202) << again.body;
    EXPECT_EQ(again.json()["status"], "embedding");
    ASSERT_EQ(waitForStatus(id)["status"], "embedded");
    EXPECT_EQ(server_->db().scalar(sql), vectors);
}

}  // namespace
}  // namespace docintel::test
