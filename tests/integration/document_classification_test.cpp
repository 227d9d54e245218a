// Classification at ingestion, over real HTTP: an uploaded document ends `embedded` with a
// doc_type and its confidence in GET /documents/{id} and in the document list.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

class DocumentClassification : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        token_ =
            server_->token(server_->createUser("classifier@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    static TestServer* server_;
    static std::string token_;
};
TestServer* DocumentClassification::server_ = nullptr;
std::string DocumentClassification::token_;

TEST_F(DocumentClassification, AnUploadedLeaseIsALease) {
    const std::string id = server_->uploadDocument(
        token_, "lease.txt", "text/plain",
        "RESIDENTIAL LEASE AGREEMENT\n\nLandlord: Pine Court Apartments LLC. Tenant: Robin "
        "Alvarez. The Landlord rents to the Tenant the premises at Unit 7, 40 Pine Court for a "
        "lease term of twelve months. Monthly rent is $1,380, due on the first of each month; a "
        "late fee of $50 applies after the fifth. The Tenant pays a security deposit of $1,380. "
        "The Tenant may not sublet the premises without the Landlord's written consent.\n");
    const auto doc = server_->waitForDocument(id, token_);
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
    const auto doc = server_->waitForDocument(
        server_->uploadDocument(token_, "fake-email.eml", "message/rfc822", bytes), token_);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["doc_type"], "email") << doc.dump();
    EXPECT_TRUE(doc["doc_type_confidence"].is_number()) << doc.dump();
}

}  // namespace
}  // namespace docintel::test
