// Classification at ingestion, over real HTTP: an uploaded document ends `embedded` with a
// doc_type and its confidence in GET /documents/{id} and in the document list.

#include <gtest/gtest.h>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class DocumentClassification : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        token_ =
            server_->token(server_->createUser("classifier@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    static std::string upload(const std::string& filename, const std::string& type,
                              const std::string& bytes) {
        const auto session = server_->request(
            "POST", "/api/v1/uploads",
            nlohmann::json{
                {"filename", filename}, {"content_type", type}, {"file_size", bytes.size()}}
                .dump(),
            token_);
        EXPECT_EQ(session.status, 201) << session.body;
        const auto s = session.json();
        Poco::URI uri(s["upload_url"].get<std::string>());
        Poco::Net::HTTPClientSession http("127.0.0.1", uri.getPort());
        Poco::Net::HTTPRequest put("PUT", uri.getPathAndQuery(), Poco::Net::HTTPMessage::HTTP_1_1);
        put.setContentType(type);
        put.setContentLength(static_cast<std::streamsize>(bytes.size()));
        http.sendRequest(put) << bytes;
        Poco::Net::HTTPResponse response;
        std::string ignored;
        Poco::StreamCopier::copyToString(http.receiveResponse(response), ignored);
        EXPECT_EQ(response.getStatus(), 200);
        const auto done =
            server_->request("POST", "/api/v1/uploads/complete",
                             nlohmann::json{{"filename", filename},
                                            {"file_size", bytes.size()},
                                            {"doc_id", s["doc_id"]},
                                            {"storage_source_path", s["storage_source_path"]}}
                                 .dump(),
                             token_);
        EXPECT_EQ(done.status, 202) << done.body;
        return s["doc_id"].get<std::string>();
    }

    static nlohmann::json waitForEmbedded(const std::string& id) {
        nlohmann::json doc;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            doc = server_->get("/api/v1/documents/" + id, token_).json();
            const std::string status = doc.value("status", "");
            if (status == "embedded" || status == "error") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return doc;
    }

    static TestServer* server_;
    static std::string token_;
};
TestServer* DocumentClassification::server_ = nullptr;
std::string DocumentClassification::token_;

TEST_F(DocumentClassification, AnUploadedLeaseIsALease) {
    const std::string id = upload(
        "lease.txt", "text/plain",
        "RESIDENTIAL LEASE AGREEMENT\n\nLandlord: Pine Court Apartments LLC. Tenant: Robin "
        "Alvarez. The Landlord rents to the Tenant the premises at Unit 7, 40 Pine Court for a "
        "lease term of twelve months. Monthly rent is $1,380, due on the first of each month; a "
        "late fee of $50 applies after the fifth. The Tenant pays a security deposit of $1,380. "
        "The Tenant may not sublet the premises without the Landlord's written consent.\n");
    const auto doc = waitForEmbedded(id);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["doc_type"], "lease") << doc.dump();
    ASSERT_TRUE(doc["doc_type_confidence"].is_number()) << doc.dump();
    EXPECT_GT(doc["doc_type_confidence"].get<double>(), 0.5);
    EXPECT_LE(doc["doc_type_confidence"].get<double>(), 1.0);

    // The list shows the same class.
    const auto list = server_->get("/api/v1/documents", token_).json();
    bool listed = false;
    for (const auto& d : list["documents"]) {
        if (d["id"] == id) {
            listed = true;
            EXPECT_EQ(d["doc_type"], "lease");
        }
    }
    EXPECT_TRUE(listed) << list.dump();
}

TEST_F(DocumentClassification, AnEmailFromTheCorpusIsAnEmail) {
    const std::string bytes = readFile(sharedDir() + "/datasets/doc-corpus/email/fake-email.eml");
    ASSERT_FALSE(bytes.empty());
    const auto doc = waitForEmbedded(upload("fake-email.eml", "message/rfc822", bytes));
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["doc_type"], "email") << doc.dump();
    EXPECT_TRUE(doc["doc_type_confidence"].is_number()) << doc.dump();
}

}  // namespace
}  // namespace docintel::test
