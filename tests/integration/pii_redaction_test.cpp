// redact_pii on upload, over real HTTP: the chunks of a document uploaded with redact_pii show
// typed placeholders where the text had an e-mail address and an SSN; without the flag the
// text is stored as written.

#include <gtest/gtest.h>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

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

    /// Uploads `text` as a .txt file through create → PUT → complete; returns the document id.
    static std::string upload(const std::string& text, bool session_flag, bool complete_flag) {
        const auto session = server_->request("POST", "/api/v1/uploads",
                                              nlohmann::json{{"filename", "intake.txt"},
                                                             {"content_type", "text/plain"},
                                                             {"file_size", text.size()},
                                                             {"redact_pii", session_flag}}
                                                  .dump(),
                                              token_);
        EXPECT_EQ(session.status, 201) << session.body;
        const auto s = session.json();
        Poco::URI uri(s["upload_url"].get<std::string>());
        Poco::Net::HTTPClientSession http("127.0.0.1", uri.getPort());
        Poco::Net::HTTPRequest put("PUT", uri.getPathAndQuery(), Poco::Net::HTTPMessage::HTTP_1_1);
        put.setContentType("text/plain");
        put.setContentLength(static_cast<std::streamsize>(text.size()));
        http.sendRequest(put) << text;
        Poco::Net::HTTPResponse put_response;
        std::string ignored;
        Poco::StreamCopier::copyToString(http.receiveResponse(put_response), ignored);
        EXPECT_EQ(put_response.getStatus(), 200);
        const auto done =
            server_->request("POST", "/api/v1/uploads/complete",
                             nlohmann::json{{"filename", "intake.txt"},
                                            {"file_size", text.size()},
                                            {"doc_id", s["doc_id"]},
                                            {"storage_source_path", s["storage_source_path"]},
                                            {"redact_pii", complete_flag}}
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
    const std::string id = upload(kIntake, true, false);
    const auto doc = waitForEmbedded(id);
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
    const std::string id = upload(kIntake, false, true);
    const auto doc = waitForEmbedded(id);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["redact_pii"], true);
    const std::string text = chunkText(id);
    EXPECT_EQ(text.find("512-44-9023"), std::string::npos) << text;
    EXPECT_NE(text.find("[SSN_1]"), std::string::npos) << text;
}

TEST_F(PiiRedactionUpload, WithoutTheFlagTheTextIsKeptAsWritten) {
    const std::string id = upload(kIntake, false, false);
    const auto doc = waitForEmbedded(id);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["redact_pii"], false);
    const std::string text = chunkText(id);
    EXPECT_NE(text.find("dana.whitfield@example.org"), std::string::npos) << text;
    EXPECT_NE(text.find("512-44-9023"), std::string::npos) << text;
    EXPECT_EQ(text.find("[EMAIL_1]"), std::string::npos) << text;
}

}  // namespace
}  // namespace docintel::test
