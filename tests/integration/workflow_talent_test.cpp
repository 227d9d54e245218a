// talent_readiness and employee_mobility end to end over real HTTP with the talent plugin loaded
// from its shared library: a job description and a strong resume (PDF), a weak resume (text) or
// an internal-mobility employee record (PDF) → run → candidate, skills, requirements,
// assessments, match score and recommendation matching the goldens with sources on the right
// pages → edit (audited) → approve → the candidate / mobility packet PDF holds the approved
// values and embeds.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "support/plugin_suite.h"

namespace docintel::test {
namespace {

const std::string kDir = sourceDir() + "/tests/data/workflows/talent";

class TalentWorkflow : public PluginSuite {
  protected:
    static void SetUpTestSuite() {
        startServer("talent", "talent.reviewer@example.com");
        golden_ = new nlohmann::json(
            nlohmann::json::parse(readFile(kDir + "/talent_workflows.golden.json")));
        job_ = upload("job_description.pdf");
    }
    static void TearDownTestSuite() {
        PluginSuite::TearDownTestSuite();
        delete golden_;
    }

    /// Uploads a file of the test folder (PDF or text) and waits until it is embedded.
    static std::string upload(const std::string& name) {
        const bool pdf = name.size() > 4 && name.substr(name.size() - 4) == ".pdf";
        const std::string id = server_->uploadDocument(
            token_, name, pdf ? "application/pdf" : "text/plain", readFile(kDir + "/" + name));
        const auto doc = server_->waitForDocument(id, token_);
        EXPECT_EQ(doc["status"], "embedded") << doc.dump();
        return id;
    }

    struct Tally {
        int fields = 0, exact = 0, cited = 0, cited_ok = 0;
    };

    /// Compares one extracted field with its golden `{value, page, text_on_page}`.
    static void checkField(const nlohmann::json& got, const nlohmann::json& want,
                           const std::string& doc, const std::map<int, std::string>& pages,
                           Tally& t) {
        ++t.fields;
        EXPECT_EQ(got["value"], want["value"]) << got.dump();
        if (got["value"] == want["value"]) ++t.exact;
        if (want["page"].is_null()) {
            EXPECT_TRUE(got["source"].is_null()) << got.dump();
            return;
        }
        ++t.cited;
        ASSERT_TRUE(got["source"].is_object()) << got.dump();
        EXPECT_EQ(got["source"]["document_id"], doc);
        EXPECT_EQ(got["source"]["page"], want["page"]) << got.dump();
        const std::string needle = want["text_on_page"];
        const auto page = pages.find(got["source"]["page"].get<int>());
        const bool holds = page != pages.end() && page->second.find(needle) != std::string::npos;
        EXPECT_TRUE(holds) << needle;
        if (holds) ++t.cited_ok;
    }

    /// Starts a run and checks its packet against the golden run `key`; answers the run path.
    static std::string runAndCheck(const std::string& workflow, const std::string& key,
                                   const std::string& candidate_doc) {
        const auto& g = (*golden_)["runs"][key];
        const auto t0 = std::chrono::steady_clock::now();
        const auto started =
            server_->request("POST", "/api/v1/verticals/talent/runs",
                             nlohmann::json{{"workflow", workflow},
                                            {"document_ids", {candidate_doc}},
                                            {"inputs", {{"job_description_id", job_}}}}
                                 .dump(),
                             token_);
        EXPECT_EQ(started.status, 202) << started.body;
        const std::string path =
            "/api/v1/verticals/talent/runs/" + started.json()["run_id"].get<std::string>();
        const auto run = waitForRun(path);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
        EXPECT_EQ(run["status"], "pending_review") << run.dump(2);
        if (const char* dump = std::getenv("TALENT_DUMP_DIR")) {
            // For updating the goldens by hand: the packet as the run left it.
            std::ofstream(std::string(dump) + "/" + key + ".json") << run["review_packet"].dump(1);
        }
        const auto& packet = run["review_packet"];

        Tally t;
        const auto cand_pages = server_->pageTexts(candidate_doc, token_);
        const auto job_pages = server_->pageTexts(job_, token_);
        for (const auto& [name, want] : g["candidate"].items()) {
            SCOPED_TRACE(key + " candidate." + name);
            checkField(packet["candidate"][name], want, candidate_doc, cand_pages, t);
        }
        for (const auto& [name, want] : g["role"].items()) {
            SCOPED_TRACE(key + " role." + name);
            checkField(packet["role"][name], want, job_, job_pages, t);
        }
        EXPECT_EQ(packet["skills"].size(), g["skills"].size()) << packet["skills"].dump(2);
        for (std::size_t i = 0; i < g["skills"].size() && i < packet["skills"].size(); ++i) {
            SCOPED_TRACE(key + " skill " + std::to_string(i));
            checkField(packet["skills"][i], g["skills"][i], candidate_doc, cand_pages, t);
        }
        EXPECT_EQ(packet["requirements"]["required"], g["requirements"]["required"]);
        EXPECT_EQ(packet["requirements"]["preferred"], g["requirements"]["preferred"]);
        for (const auto& item : packet["requirements"]["items"]) {
            // Every requirement is cited on the job description page that states it.
            ++t.cited;
            const auto page = job_pages.find(item["source"]["page"].get<int>());
            const bool holds = item["source"]["document_id"] == job_ && page != job_pages.end() &&
                               page->second.find(item["text"].get<std::string>().substr(0, 30)) !=
                                   std::string::npos;
            EXPECT_TRUE(holds) << item.dump();
            if (holds) ++t.cited_ok;
        }
        EXPECT_EQ(packet["assessments"].size(), g["assessments"].size());
        for (std::size_t i = 0; i < g["assessments"].size() && i < packet["assessments"].size();
             ++i) {
            const auto& got = packet["assessments"][i];
            const auto& want = g["assessments"][i];
            SCOPED_TRACE(key + " assessment " + want["requirement"].get<std::string>());
            EXPECT_EQ(got["requirement"], want["requirement"]);
            EXPECT_EQ(got["kind"], want["kind"]);
            checkField(got["status"], want["status"], candidate_doc, cand_pages, t);
        }
        ++t.fields;
        EXPECT_EQ(packet["match_score"], g["match_score"]);
        if (packet["match_score"] == g["match_score"]) ++t.exact;
        ++t.fields;
        EXPECT_EQ(packet["recommendation"], g["recommendation"]);
        if (packet["recommendation"] == g["recommendation"]) ++t.exact;
        std::printf(
            "talent_run=%s workflow=%s fields=%d exact=%d cited=%d cited_page_holds_value=%d "
            "start_to_pending_review_ms=%lld match_score=%s recommendation=%s\n",
            key.c_str(), workflow.c_str(), t.fields, t.exact, t.cited, t.cited_ok,
            static_cast<long long>(ms), packet["match_score"].dump().c_str(),
            packet["recommendation"].dump().c_str());
        return path;
    }

    /// Edits a field (audited), approves, renders `type` and checks the packet document.
    static void reviewApproveAndRender(const std::string& path, const std::string& type,
                                       const std::vector<std::string>& expected) {
        auto run = server_->get(path, token_).json();
        auto edited = run["review_packet"];
        const auto old_title = edited["candidate"]["current_title"]["value"];
        edited["candidate"]["current_title"]["value"] = "Staff Data Engineer (verified by HR)";
        const auto saved = server_->request(
            "PUT", path + "/review",
            nlohmann::json{{"packet", edited}, {"notes", "title verified with references"}}.dump(),
            token_);
        ASSERT_EQ(saved.status, 200) << saved.body;
        const auto audit = server_->get(path + "/audit", token_).json();
        ASSERT_EQ(audit["count"], 1) << audit.dump(2);
        EXPECT_EQ(audit["changes"][0]["path"], "/candidate/current_title");
        EXPECT_EQ(audit["changes"][0]["old_value"], old_title);
        EXPECT_EQ(audit["changes"][0]["new_value"], "Staff Data Engineer (verified by HR)");

        // Not approved yet: the packet is refused.
        const auto early = server_->request("POST", path + "/packets",
                                            nlohmann::json{{"packet_type", type}}.dump(), token_);
        EXPECT_EQ(early.status, 409) << early.body;
        ASSERT_EQ(server_->request("POST", path + "/approve", R"({"confirm":true})", token_).status,
                  200);

        const auto t0 = std::chrono::steady_clock::now();
        const auto generated = server_->request(
            "POST", path + "/packets", nlohmann::json{{"packet_type", type}}.dump(), token_);
        ASSERT_EQ(generated.status, 201) << generated.body;
        std::printf("talent_packet=%s request_ms=%lld render_ms=%s\n", type.c_str(),
                    static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::steady_clock::now() - t0)
                                               .count()),
                    generated.json()["render_ms"].dump().c_str());
        const std::string doc = generated.json()["document"]["doc_id"];
        const auto d = server_->waitForDocument(doc, token_);
        ASSERT_EQ(d["status"], "embedded") << d.dump();
        EXPECT_EQ(d["doc_type"], "packet");
        std::string text;
        for (const auto& [page, t] : server_->pageTexts(doc, token_)) text += t;
        for (const auto& want : expected) {
            EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
        }
    }

    static std::string job_;
    static nlohmann::json* golden_;
};
std::string TalentWorkflow::job_;
nlohmann::json* TalentWorkflow::golden_ = nullptr;

TEST_F(TalentWorkflow, ReadinessStrongCandidateReviewAndPacket) {
    const std::string resume = upload("resume_strong.pdf");
    const std::string path = runAndCheck("talent_readiness", "strong", resume);
    reviewApproveAndRender(path, "candidate",
                           {"Priya Raman", "Staff Data Engineer (verified by HR)",
                            "advance_to_interview", "Senior Data Engineer", "DP-2025-014"});
}

TEST_F(TalentWorkflow, ReadinessWeakCandidateFromText) {
    const std::string resume = upload("resume_weak.txt");
    runAndCheck("talent_readiness", "weak", resume);
}

TEST_F(TalentWorkflow, MobilityEmployeeRecordReviewAndPacket) {
    const std::string record = upload("employee_record.pdf");
    const std::string path = runAndCheck("employee_mobility", "mobility", record);
    reviewApproveAndRender(path, "mobility",
                           {"Marcus Chen", "E-20417", "Staff Data Engineer (verified by HR)",
                            "ready_with_development"});
}

TEST_F(TalentWorkflow, UnknownJobDescriptionIsRefused) {
    const auto started = server_->request(
        "POST", "/api/v1/verticals/talent/runs",
        nlohmann::json{{"workflow", "talent_readiness"},
                       {"document_ids", {job_}},
                       {"inputs", {{"job_description_id", "00000000-0000-4000-8000-000000000000"}}}}
            .dump(),
        token_);
    EXPECT_EQ(started.status, 404) << started.body;
    const auto missing = server_->request(
        "POST", "/api/v1/verticals/talent/runs",
        nlohmann::json{{"workflow", "employee_mobility"}, {"document_ids", {job_}}, {"inputs", {}}}
            .dump(),
        token_);
    EXPECT_EQ(missing.status, 422) << missing.body;
}

}  // namespace
}  // namespace docintel::test
