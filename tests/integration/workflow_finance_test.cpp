// finance_tax_readiness end to end over real HTTP with the finance plugin loaded from its
// shared library: a W-2, a 1099-INT, a 1099-DIV and last year's return → run → forms with box
// amounts, organizer totals, missing-document checklist and prior-year comparison matching the
// goldens with sources on the right documents → edit (audited) → approve → the advisor packet
// PDF holds the approved values and embeds.

#include <gtest/gtest.h>

#include "support/plugin_suite.h"

namespace docintel::test {
namespace {

class FinanceWorkflow : public PluginSuite {
  protected:
    static void SetUpTestSuite() { startServer("finance", "cpa.reviewer@example.com"); }
};

TEST_F(FinanceWorkflow, FormsOrganizerMissingDocumentsAndPriorYear) {
    const std::string dir = sourceDir() + "/tests/data/workflows/finance";
    const auto golden = nlohmann::json::parse(readFile(dir + "/finance_tax_readiness.golden.json"));
    std::vector<std::string> forms;
    std::map<std::string, std::string> by_file;
    for (const auto& f : golden["forms"]) {
        forms.push_back(uploadPdf(dir + "/" + f["document"].get<std::string>()));
        by_file[f["document"]] = forms.back();
    }
    const std::string prior = uploadPdf(dir + "/prior_return_2023.pdf");
    for (const auto& id : forms) {
        ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
    }
    ASSERT_EQ(server_->waitForDocument(prior, token_)["status"], "embedded");

    // The inputs schema is enforced: tax_year is required.
    const auto bad = server_->request("POST", "/api/v1/verticals/finance/runs",
                                      nlohmann::json{{"workflow", "finance_tax_readiness"},
                                                     {"document_ids", forms},
                                                     {"inputs", {{"client_name", "Priya Raman"}}}}
                                          .dump(),
                                      token_);
    ASSERT_EQ(bad.status, 422) << bad.body;
    EXPECT_EQ(bad.json()["detail"][0]["loc"], nlohmann::json({"body", "inputs", "tax_year"}));

    const auto started = server_->request("POST", "/api/v1/verticals/finance/runs",
                                          nlohmann::json{{"workflow", "finance_tax_readiness"},
                                                         {"document_ids", forms},
                                                         {"inputs",
                                                          {{"client_name", "Priya Raman"},
                                                           {"tax_year", 2024},
                                                           {"filing_status", "single"},
                                                           {"prior_return_document_id", prior}}}}
                                              .dump(),
                                          token_);
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string path =
        "/api/v1/verticals/finance/runs/" + started.json()["run_id"].get<std::string>();
    const auto run = waitForRun(path);
    ASSERT_EQ(run["status"], "pending_review") << run.dump(2);
    const auto& packet = run["review_packet"];

    ASSERT_EQ(packet["forms"].size(), golden["forms"].size());
    int fields = 0, exact = 0, cited = 0;
    for (std::size_t i = 0; i < packet["forms"].size(); ++i) {
        const auto& got = packet["forms"][i];
        const auto& want = golden["forms"][i];
        SCOPED_TRACE(want["document"].get<std::string>());
        const std::string doc = by_file.at(want["document"]);
        const auto pages = server_->pageTexts(doc, token_);
        auto check = [&](const nlohmann::json& f, const nlohmann::json& value,
                         const std::string& needle) {
            ++fields;
            EXPECT_EQ(f["value"], value) << f.dump();
            if (f["value"] == value) ++exact;
            ASSERT_TRUE(f["source"].is_object()) << f.dump();
            EXPECT_EQ(f["source"]["document_id"], doc);
            const bool holds =
                pages.at(f["source"]["page"].get<int>()).find(needle) != std::string::npos;
            EXPECT_TRUE(holds) << needle;
            if (holds) ++cited;
        };
        check(got["form_type"], want["form_type"], want["form_type"]);
        check(got["payer"], want["payer"], want["payer"]);
        EXPECT_EQ(got["amounts"].size(), want["amounts"].size()) << got["amounts"].dump();
        for (const auto& [box, value] : want["amounts"].items()) {
            SCOPED_TRACE(box);
            char text[64];
            std::snprintf(text, sizeof(text), "%.2f", value.get<double>());
            std::string needle = text;  // "112450.00" → "112,450.00"
            for (int k = static_cast<int>(needle.find('.')) - 3; k > 0; k -= 3) {
                needle.insert(static_cast<std::size_t>(k), ",");
            }
            check(got["amounts"][box], value, needle);
        }
    }
    std::printf("finance_fields=%d exact=%d cited_page_holds_value=%d\n", fields, exact, cited);
    EXPECT_EQ(packet["organizer"]["totals"], golden["totals"]);
    EXPECT_EQ(packet["organizer"]["tax_year"], 2024);
    EXPECT_EQ(packet["missing_documents"], golden["missing_documents"]);
    const auto& comparison = packet["prior_year_comparison"];
    EXPECT_EQ(comparison["prior_year"], golden["prior_year_comparison"]["prior_year"]);
    ASSERT_EQ(comparison["items"].size(), golden["prior_year_comparison"]["items"].size());
    for (std::size_t i = 0; i < comparison["items"].size(); ++i) {
        auto item = comparison["items"][i];
        EXPECT_EQ(item["source"]["document_id"], prior);
        item.erase("source");
        EXPECT_EQ(item, golden["prior_year_comparison"]["items"][i]);
    }
    const std::string summary = packet["cpa_review_summary"];
    EXPECT_NE(summary.find("3 form(s) found"), std::string::npos) << summary;
    EXPECT_NE(summary.find("2 document(s) appear to be missing"), std::string::npos) << summary;

    // The CPA corrects the withholding figure; the change is audited.
    auto edited = packet;
    edited["forms"][0]["amounts"]["box_2"]["value"] = 16972.0;
    edited["organizer"]["totals"]["federal_withholding"] = 16972.0;
    ASSERT_EQ(
        server_->request("PUT", path + "/review", nlohmann::json{{"packet", edited}}.dump(), token_)
            .status,
        200);
    const auto audit = server_->get(path + "/audit", token_).json();
    ASSERT_EQ(audit["count"], 2) << audit.dump();
    EXPECT_EQ(audit["changes"][0]["path"], "/forms/0/amounts/box_2");
    EXPECT_EQ(audit["changes"][0]["old_value"], 16872.0);
    ASSERT_EQ(server_->request("POST", path + "/approve", R"({"confirm":true})", token_).status,
              200);

    const auto generated =
        server_->request("POST", path + "/packets", R"({"packet_type":"advisor"})", token_);
    ASSERT_EQ(generated.status, 201) << generated.body;
    const std::string doc = generated.json()["document"]["doc_id"];
    const auto d = server_->waitForDocument(doc, token_);
    ASSERT_EQ(d["status"], "embedded");
    EXPECT_EQ(d["doc_type"], "packet");
    std::string text;
    for (const auto& [page, t] : server_->pageTexts(doc, token_)) text += t;
    for (const std::string want : {"Priya Raman", "Northwind Robotics, Inc.", "16972",
                                   "Summit Home Loans", "1284.16", "150.6"}) {
        EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    }
}

}  // namespace
}  // namespace docintel::test
