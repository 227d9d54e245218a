// redact_pii on upload, over real HTTP: the chunks of a document uploaded with redact_pii show
// typed placeholders where the text had an e-mail address and an SSN; without the flag the
// text is stored as written.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

class PiiRedactionUpload : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        token_ =
            server_->token(server_->createUser("redactor@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    static std::string chunkText(const std::string& id) {
        const auto chunks = server_->get("/api/v1/documents/" + id + "/chunks", token_).json();
        std::string all;
        for (const auto& c : chunks["chunks"]) all += c["text"].get<std::string>() + "\n";
        return all;
    }

    static TestServer* server_;
    static std::string token_;
};
TestServer* PiiRedactionUpload::server_ = nullptr;
std::string PiiRedactionUpload::token_;

const std::string kIntake =
    "New patient intake\n\n"
    "Please contact Dana at dana.whitfield@example.org about the claim. Her SSN is "
    "512-44-9023 and her date of birth is 03/14/1972. If she does not answer, write to "
    "dana.whitfield@example.org again; the clinic's own number is (212) 555-0147.\n";

TEST_F(PiiRedactionUpload, ChunksShowPlaceholdersWhenTheSessionAsksForRedaction) {
    const std::string id = server_->uploadDocument(token_, "intake.txt", "text/plain", kIntake, "",
                                                   {{"redact_pii", true}}, {{"redact_pii", false}});
    const auto doc = server_->waitForDocument(id, token_);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["redact_pii"], true);
    const std::string text = chunkText(id);
    EXPECT_EQ(text.find("dana.whitfield@example.org"), std::string::npos) << text;
    EXPECT_EQ(text.find("512-44-9023"), std::string::npos) << text;
    EXPECT_EQ(text.find("03/14/1972"), std::string::npos) << text;
    EXPECT_EQ(text.find("555-0147"), std::string::npos) << text;
    // The same address twice is one placeholder; the words around it stay.
    EXPECT_NE(text.find("contact Dana at [EMAIL_1] about the claim"), std::string::npos) << text;
    EXPECT_NE(text.find("write to [EMAIL_1] again"), std::string::npos) << text;
    EXPECT_EQ(text.find("[EMAIL_2]"), std::string::npos) << text;
    EXPECT_NE(text.find("Her SSN is [SSN_1]"), std::string::npos) << text;
    EXPECT_NE(text.find("date of birth is [DOB_1]"), std::string::npos) << text;
    EXPECT_NE(text.find("[PHONE_1]"), std::string::npos) << text;
}

TEST_F(PiiRedactionUpload, TheCompletionCanAskForRedactionToo) {
    const std::string id = server_->uploadDocument(token_, "intake.txt", "text/plain", kIntake, "",
                                                   {{"redact_pii", false}}, {{"redact_pii", true}});
    const auto doc = server_->waitForDocument(id, token_);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["redact_pii"], true);
    const std::string text = chunkText(id);
    EXPECT_EQ(text.find("512-44-9023"), std::string::npos) << text;
    EXPECT_NE(text.find("[SSN_1]"), std::string::npos) << text;
}

TEST_F(PiiRedactionUpload, WithoutTheFlagTheTextIsKeptAsWritten) {
    const std::string id =
        server_->uploadDocument(token_, "intake.txt", "text/plain", kIntake, "",
                                {{"redact_pii", false}}, {{"redact_pii", false}});
    const auto doc = server_->waitForDocument(id, token_);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["redact_pii"], false);
    const std::string text = chunkText(id);
    EXPECT_NE(text.find("dana.whitfield@example.org"), std::string::npos) << text;
    EXPECT_NE(text.find("512-44-9023"), std::string::npos) << text;
    EXPECT_EQ(text.find("[EMAIL_1]"), std::string::npos) << text;
}

}  // namespace
}  // namespace docintel::test
