// lease_intelligence end to end over real HTTP with the lease plugin loaded from its shared
// library: lease + amendment → run → abstract, critical dates, flags and amendment changes
// matching the goldens with sources on the right pages → edit (audited) → approve → the
// lease_abstract packet PDF holds the approved values and embeds.

#include <gtest/gtest.h>

#include "support/plugin_suite.h"

namespace docintel::test {
namespace {

class LeaseWorkflow : public PluginSuite {
  protected:
    static void SetUpTestSuite() { startServer("lease", "lease.reviewer@example.com"); }
};

TEST_F(LeaseWorkflow, AbstractAmendmentReviewAndPacket) {
    const std::string dir = sourceDir() + "/tests/data/workflows/lease";
    const auto golden = nlohmann::json::parse(readFile(dir + "/lease_intelligence.golden.json"));
    const std::string lease = uploadPdf(dir + "/office_lease.pdf");
    const std::string amendment = uploadPdf(dir + "/lease_amendment.pdf");
    for (const auto& id : {lease, amendment}) {
        ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
    }
    const auto started =
        server_->request("POST", "/api/v1/verticals/lease/runs",
                         nlohmann::json{{"workflow", "lease_intelligence"},
                                        {"document_ids", {lease}},
                                        {"inputs", {{"amendment_document_id", amendment}}}}
                             .dump(),
                         token_);
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string path =
        "/api/v1/verticals/lease/runs/" + started.json()["run_id"].get<std::string>();
    auto run = waitForRun(path);
    ASSERT_EQ(run["status"], "pending_review") << run.dump(2);
    const auto& packet = run["review_packet"];

    const auto pages = server_->pageTexts(lease, token_);
    int fields = 0, exact = 0, cited = 0;
    for (const auto& [term, want] : golden["abstract"].items()) {
        SCOPED_TRACE(term);
        const auto& got = packet["abstract"][term];
        ++fields;
        EXPECT_EQ(got["value"], want["value"]) << got.dump();
        if (got["value"] == want["value"]) ++exact;
        ASSERT_TRUE(got["source"].is_object());
        EXPECT_EQ(got["source"]["document_id"], lease);
        EXPECT_EQ(got["source"]["page"], want["page"]);
        const std::string needle = want["text_on_page"];
        const bool holds =
            pages.at(got["source"]["page"].get<int>()).find(needle) != std::string::npos;
        EXPECT_TRUE(holds) << needle;
        if (holds) ++cited;
    }
    std::printf("lease_fields=%d exact=%d cited_page_holds_value=%d\n", fields, exact, cited);
    nlohmann::json dates = nlohmann::json::array();
    for (const auto& d : packet["critical_dates"]) dates.push_back(d["value"]);
    EXPECT_EQ(dates, golden["critical_dates"]);
    EXPECT_EQ(packet["risk_flags"], golden["risk_flags"]);
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& c : packet["amendment_changes"]) {
        changes.push_back(
            {{"term", c["term"]}, {"original", c["original"]}, {"amended", c["amended"]}});
        EXPECT_EQ(c["source"]["document_id"], amendment);
    }
    EXPECT_EQ(changes, golden["amendment_changes"]);
    EXPECT_GE(packet["obligations"].size(), 5u);

    // The reviewer applies the amendment's rent to the abstract; the change is audited.
    auto edited = packet;
    edited["abstract"]["base_rent"]["value"] = "$26,900.00 per month";
    ASSERT_EQ(
        server_->request("PUT", path + "/review", nlohmann::json{{"packet", edited}}.dump(), token_)
            .status,
        200);
    const auto audit = server_->get(path + "/audit", token_).json();
    ASSERT_EQ(audit["count"], 1);
    EXPECT_EQ(audit["changes"][0]["path"], "/abstract/base_rent");
    EXPECT_EQ(audit["changes"][0]["old_value"], "$24,650.00 per month");
    ASSERT_EQ(server_->request("POST", path + "/approve", R"({"confirm":true})", token_).status,
              200);

    const auto generated =
        server_->request("POST", path + "/packets", R"({"packet_type":"lease_abstract"})", token_);
    ASSERT_EQ(generated.status, 201) << generated.body;
    const std::string doc = generated.json()["document"]["doc_id"];
    const auto d = server_->waitForDocument(doc, token_);
    ASSERT_EQ(d["status"], "embedded");
    EXPECT_EQ(d["doc_type"], "packet");
    std::string text;
    for (const auto& [page, t] : server_->pageTexts(doc, token_)) text += t;
    for (const std::string want : {"Harborview Properties LLC", "$26,900.00 per month",
                                   "2030-03-31", "Washington", "Relocation clause", "2032-03-31"}) {
        EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    }
}

}  // namespace
}  // namespace docintel::test
