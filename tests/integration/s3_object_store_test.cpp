// The S3 object store (objects/s3_object_store.h, issue 19) against a real S3 server: SeaweedFS
// on loopback (support/seaweed_server.h). The same contract as the local store — exact sizes,
// SHA-256, replacement, local copies for readers, prefix removal — and presigned URLs that the
// S3 server itself checks: the bound content type and size, and the expiry.

#include "objects/s3_object_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <sstream>
#include <thread>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include "common/digest.h"
#include "common/id.h"
#include "support/seaweed_server.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;
using objects::S3ObjectStore;
using objects::S3Settings;

struct Reply {
    int status = 0;
    std::string body;
};

/// A plain HTTP request to a (presigned) URL, as a browser or curl sends it.
Reply httpRequest(const std::string& method, const std::string& url, const std::string& body = {},
                  const std::string& content_type = {}) {
    const Poco::URI uri(url);
    Poco::Net::HTTPClientSession session(uri.getHost(), uri.getPort());
    Poco::Net::HTTPRequest request(method, uri.getPathAndQuery(), Poco::Net::HTTPMessage::HTTP_1_1);
    if (!content_type.empty()) request.setContentType(content_type);
    if (method == "PUT") request.setContentLength(static_cast<std::streamsize>(body.size()));
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    Reply reply;
    Poco::StreamCopier::copyToString(session.receiveResponse(response), reply.body);
    reply.status = static_cast<int>(response.getStatus());
    return reply;
}

class S3Store : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new SeaweedServer();
        cache_ =
            (fs::temp_directory_path() / ("docintel-s3-cache-" + common::randomToken(6))).string();
        store_ = new S3ObjectStore(settings(SeaweedServer::kSecretKey));
        ASSERT_TRUE(store_->ensureBucket()) << server_->logTail();
    }
    static void TearDownTestSuite() {
        delete store_;
        delete server_;
        std::error_code ignored;
        fs::remove_all(cache_, ignored);
    }

    static S3Settings settings(const std::string& secret) {
        S3Settings s;
        s.endpoint = server_->endpoint();
        s.region = SeaweedServer::kRegion;
        s.bucket = "docintel-objects";
        s.access_key = SeaweedServer::kAccessKey;
        s.secret_key = secret;
        s.cache_dir = cache_;
        return s;
    }

    static plugin::Result<objects::ObjectInfo> put(const std::string& key, const std::string& bytes,
                                                   const std::string& type = "text/plain") {
        std::istringstream in(bytes);
        return store_->put(key, in, static_cast<std::int64_t>(bytes.size()), type);
    }

    static inline SeaweedServer* server_ = nullptr;
    static inline S3ObjectStore* store_ = nullptr;
    static inline std::string cache_;
};

TEST_F(S3Store, StoresReadsAndRemovesAnObject) {
    const std::string bytes(3000, 'x');
    auto stored = put("documents/one/memo.txt", bytes);
    ASSERT_TRUE(stored) << stored.error().message;
    EXPECT_EQ(stored->size, 3000);
    EXPECT_EQ(stored->sha256, common::toHex(common::sha256(bytes)));

    const auto info = store_->stat("documents/one/memo.txt");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->size, 3000);
    EXPECT_EQ(info->sha256, stored->sha256);
    EXPECT_EQ(info->content_type, "text/plain");

    const std::string path = store_->localPath("documents/one/memo.txt");
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(readFile(path), bytes);

    EXPECT_TRUE(store_->remove("documents/one/memo.txt"));
    EXPECT_FALSE(store_->stat("documents/one/memo.txt"));
    EXPECT_TRUE(store_->localPath("documents/one/memo.txt").empty());
    EXPECT_FALSE(store_->remove("documents/one/memo.txt"));
}

TEST_F(S3Store, ABodyOfAnotherSizeStoresNothing) {
    std::istringstream short_body("12345");
    auto r = store_->put("documents/two/short.bin", short_body, 10, "application/octet-stream");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "size_mismatch");
    std::istringstream long_body("123456789012345");
    r = store_->put("documents/two/long.bin", long_body, 10, "application/octet-stream");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "size_mismatch");
    EXPECT_FALSE(store_->stat("documents/two/short.bin"));
    EXPECT_FALSE(store_->stat("documents/two/long.bin"));
}

TEST_F(S3Store, ReplacingAnObjectReplacesItsLocalCopy) {
    ASSERT_TRUE(put("documents/three/a.txt", "first version"));
    EXPECT_EQ(readFile(store_->localPath("documents/three/a.txt")), "first version");
    ASSERT_TRUE(put("documents/three/a.txt", "second, longer version"));
    EXPECT_EQ(readFile(store_->localPath("documents/three/a.txt")), "second, longer version");
    EXPECT_EQ(store_->stat("documents/three/a.txt")->size, 22);
}

TEST_F(S3Store, RemovingAPrefixRemovesOnlyItsObjects) {
    for (const char* key : {"documents/four/a.txt", "documents/four/plugins/video/f0.jpg",
                            "documents/four/plugins/video/f1.jpg", "documents/five/a.txt"}) {
        ASSERT_TRUE(put(key, std::string("bytes of ") + key));
    }
    EXPECT_EQ(store_->removePrefix("documents/four/"), 3u);
    EXPECT_FALSE(store_->stat("documents/four/a.txt"));
    EXPECT_FALSE(store_->stat("documents/four/plugins/video/f1.jpg"));
    EXPECT_TRUE(store_->stat("documents/five/a.txt"));
    EXPECT_EQ(store_->removePrefix("documents/four/"), 0u);
    EXPECT_EQ(store_->removePrefix("documents/five/"), 1u);
    EXPECT_FALSE(store_->stat("documents/five/a.txt"));
}

TEST_F(S3Store, APresignedPutIsCheckedByTheStore) {
    const std::string key = "documents/six/upload.txt";
    const std::string body = "hello, direct upload";
    const std::string url = store_->presignedUrl("PUT", key, "text/plain", 20, 900);

    // Another content type, or another size, than the signed ones: refused by SeaweedFS.
    EXPECT_EQ(httpRequest("PUT", url, body, "application/pdf").status, 403);
    EXPECT_EQ(httpRequest("PUT", url, body + "!", "text/plain").status, 403);
    EXPECT_FALSE(store_->stat(key));

    const Reply ok = httpRequest("PUT", url, body, "text/plain");
    EXPECT_EQ(ok.status, 200) << ok.body;
    const auto info = store_->stat(key);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->size, 20);

    // A presigned GET gives the bytes back.
    const Reply got = httpRequest("GET", store_->presignedUrl("GET", key, "", 0, 300));
    EXPECT_EQ(got.status, 200);
    EXPECT_EQ(got.body, body);

    // After its expiry the URL is refused.
    const std::string brief =
        store_->presignedUrl("PUT", "documents/six/late.txt", "text/plain", 4, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    EXPECT_EQ(httpRequest("PUT", brief, "late", "text/plain").status, 403);
    EXPECT_FALSE(store_->stat("documents/six/late.txt"));
}

TEST_F(S3Store, AWrongSecretIsRefused) {
    S3ObjectStore wrong(settings("not-the-secret"));
    std::istringstream in("abc");
    auto r = wrong.put("documents/seven/a.txt", in, 3, "text/plain");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "object_store_unavailable");
    EXPECT_FALSE(wrong.stat("documents/seven/a.txt"));
    EXPECT_FALSE(store_->stat("documents/seven/a.txt"));
}

// The server with DOCINTEL_OBJECT_STORE=s3: the client PUTs a document's bytes straight to the
// bucket through a presigned URL, completing checks them (size, and the SHA-256 the client
// sent), ingestion reads them, and deleting the document removes them from the bucket.
TEST(S3Server, DocumentsLiveInTheBucket) {
    SeaweedServer s3;
    TestServer::Options options;
    options.s3_endpoint = s3.endpoint();
    options.s3_bucket = "docintel-documents";
    options.s3_access_key = SeaweedServer::kAccessKey;
    options.s3_secret_key = SeaweedServer::kSecretKey;
    TestServer server(options);
    const std::string token =
        server.token(server.createUser("s3@example.com"), TestServer::allScopes());
    const std::string text =
        "Harbour survey\n\nThe north pier was inspected on 3 May 2027. Two bollards need "
        "replacing before the summer season.\n";

    // The upload URL is the bucket's presigned PUT, not the server's /objects/ route.
    const auto created = server.request(
        "POST", "/api/v1/uploads",
        nlohmann::json{
            {"filename", "survey.txt"}, {"content_type", "text/plain"}, {"file_size", text.size()}}
            .dump(),
        token);
    ASSERT_EQ(created.status, 201) << created.body;
    const auto session = created.json();
    const std::string url = session.value("upload_url", "");
    EXPECT_EQ(url.rfind(s3.endpoint() + "/docintel-documents/", 0), 0u) << url;
    EXPECT_NE(url.find("X-Amz-Signature="), std::string::npos) << url;
    ASSERT_EQ(httpRequest("PUT", url, text, "text/plain").status, 200);
    // A SHA-256 that is not the stored bytes' is refused, and the right one accepted.
    nlohmann::json complete = {{"filename", "survey.txt"},
                               {"file_size", text.size()},
                               {"doc_id", session["doc_id"]},
                               {"storage_source_path", session["storage_source_path"]},
                               {"sha256", std::string(64, '0')}};
    auto r = server.request("POST", "/api/v1/uploads/complete", complete.dump(), token);
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_NE(r.body.find("checksum_mismatch"), std::string::npos) << r.body;
    complete["sha256"] = common::toHex(common::sha256(text));
    r = server.request("POST", "/api/v1/uploads/complete", complete.dump(), token);
    ASSERT_EQ(r.status, 202) << r.body;
    const std::string doc = session["doc_id"];
    const auto done = server.waitForDocument(doc, token);
    EXPECT_TRUE(done.value("status", "") == "embedded" || done.value("status", "") == "chunked")
        << done.dump();
    EXPECT_EQ(done.value("sha256", ""), common::toHex(common::sha256(text))) << done.dump();
    EXPECT_NE(server.pageTexts(doc, token)[1].find("north pier"), std::string::npos);

    // Another client of the bucket sees the object; deleting the document removes it.
    const std::string key = session.value("storage_source_path", "");
    ASSERT_TRUE(server.objectExists(key)) << key;
    EXPECT_EQ(server.request("DELETE", "/api/v1/documents/" + doc, "", token).status, 200);
    EXPECT_FALSE(server.objectExists(key));
}

}  // namespace
}  // namespace docintel::test
