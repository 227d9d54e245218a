// healthcare_clinical end to end over real HTTP with the healthcare plugin loaded from its shared
// library: a two-page primary care visit note → run → patient, problems, medications,
// allergies, vitals and labs (values, units, flags) matching the golden with sources on the
// right pages, care gaps, risk and safety flags and PHI notes → edit (audited) → approve → the
// after_visit_summary packet PDF holds the approved values and embeds.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "support/test_server.h"

namespace docintel::test {
namespace {

TEST(ClinicalWorkflow, VisitNoteReviewAndAfterVisitSummary) {
    TestServer::Options options;
    options.plugins = {std::string(DOCINTEL_PLUGIN_OUTPUT_DIR) + "/healthcare.so"};
    TestServer server(options);
    const std::string token =
        server.token(server.createUser("clinician@example.com"), TestServer::allScopes());
    const std::string dir = sourceDir() + "/tests/data/workflows/healthcare_clinical";
    const auto golden = nlohmann::json::parse(readFile(dir + "/healthcare_clinical.golden.json"));
    const std::string note =
        server.uploadDocument(token, "clinical_visit_note.pdf", "application/pdf",
                              readFile(dir + "/clinical_visit_note.pdf"));
    ASSERT_EQ(server.waitForDocument(note, token)["status"], "embedded");

    const auto t0 = std::chrono::steady_clock::now();
    const auto started = server.request("POST", "/api/v1/verticals/healthcare/runs",
                                        nlohmann::json{{"workflow", "healthcare_clinical"},
                                                       {"document_ids", {note}},
                                                       {"inputs", {{"visit_date", "2025-02-11"}}}}
                                            .dump(),
                                        token);
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string path =
        "/api/v1/verticals/healthcare/runs/" + started.json()["run_id"].get<std::string>();
    auto run = server.pollStatus(path, token, {"pending_review", "failed"});
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    ASSERT_EQ(run["status"], "pending_review") << run.dump(2);
    const auto& packet = run["review_packet"];

    std::map<int, std::string> pages;
    const auto chunks = server.get("/api/v1/documents/" + note + "/chunks", token).json();
    for (const auto& c : chunks["chunks"]) {
        pages[c["page"].get<int>()] += c["text"].get<std::string>() + "\n";
    }
    int fields = 0, exact = 0, cited_ok = 0;
    auto check = [&](const nlohmann::json& got, const nlohmann::json& want,
                     const std::string& what) {
        SCOPED_TRACE(what);
        ++fields;
        EXPECT_EQ(got["value"], want["value"]) << got.dump();
        if (got["value"] == want["value"]) ++exact;
        ASSERT_TRUE(got["source"].is_object()) << got.dump();
        EXPECT_EQ(got["source"]["document_id"], note);
        EXPECT_EQ(got["source"]["page"], want["page"]) << got.dump();
        const auto page = pages.find(got["source"]["page"].get<int>());
        const bool holds =
            page != pages.end() &&
            page->second.find(want["text_on_page"].get<std::string>()) != std::string::npos;
        EXPECT_TRUE(holds) << want["text_on_page"];
        if (holds) ++cited_ok;
    };
    for (const std::string group : {"patient", "visit"}) {
        for (const auto& [name, want] : golden[group].items()) {
            check(packet[group][name], want, group + "." + name);
        }
    }
    for (const std::string list : {"problems", "medications", "allergies", "vitals", "labs"}) {
        ASSERT_EQ(packet[list].size(), golden[list].size()) << list << packet[list].dump(2);
        for (std::size_t i = 0; i < golden[list].size(); ++i) {
            check(packet[list][i], golden[list][i], list + "[" + std::to_string(i) + "]");
        }
    }
    EXPECT_EQ(packet["care_gaps"], golden["care_gaps"]);
    EXPECT_EQ(packet["risk_flags"], golden["risk_flags"]);
    ASSERT_FALSE(packet["phi_notes"].empty());
    EXPECT_NE(packet["phi_notes"][0].get<std::string>().find("medical record number"),
              std::string::npos);
    std::printf(
        "clinical_fields=%d exact=%d cited_page_holds_value=%d care_gaps=%zu risk_flags=%zu "
        "start_to_pending_review_ms=%lld\n",
        fields, exact, cited_ok, packet["care_gaps"].size(), packet["risk_flags"].size(),
        static_cast<long long>(ms));

    // The clinician records that ibuprofen was stopped at the visit; the change is audited.
    auto edited = packet;
    edited["medications"][3]["value"]["sig"] = "STOPPED at this visit; use acetaminophen";
    ASSERT_EQ(
        server.request("PUT", path + "/review", nlohmann::json{{"packet", edited}}.dump(), token)
            .status,
        200);
    const auto audit = server.get(path + "/audit", token).json();
    ASSERT_EQ(audit["count"], 1) << audit.dump(2);
    EXPECT_EQ(audit["changes"][0]["path"], "/medications/3");
    ASSERT_EQ(server.request("POST", path + "/approve", R"({"confirm":true})", token).status, 200);

    const auto generated = server.request("POST", path + "/packets",
                                          R"({"packet_type":"after_visit_summary"})", token);
    ASSERT_EQ(generated.status, 201) << generated.body;
    const std::string doc = generated.json()["document"]["doc_id"];
    const auto d = server.waitForDocument(doc, token);
    ASSERT_EQ(d["status"], "embedded");
    EXPECT_EQ(d["doc_type"], "packet");
    std::string text;
    const auto packet_chunks = server.get("/api/v1/documents/" + doc + "/chunks", token).json();
    for (const auto& c : packet_chunks["chunks"]) text += c["text"].get<std::string>() + "\n";
    for (const std::string want : {"Robert T. Alvarez", "STOPPED at this visit", "Hemoglobin A1c",
                                   "8.6", "Penicillin", "Influenza vaccine"}) {
        EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    }
}

}  // namespace
}  // namespace docintel::test
