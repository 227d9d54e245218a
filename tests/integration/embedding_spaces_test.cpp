// One embedding model per scope, chosen by the documents' language (docs/decisions/0075),
// through the real pipeline: a workspace of English documents keeps the primary model
// (all-MiniLM-L6-v2); the first Spanish document moves it to multilingual-e5-small and the
// English documents already there are re-embedded in the background without leaving
// `embedded`; a question is then encoded by e5 and finds the Spanish and the English facts.
// A personal scope is settled the same way by a Hindi document. Needs `make model` (both
// models).

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

constexpr const char* kPrimary = "all-MiniLM-L6-v2";
constexpr const char* kMultilingual = "multilingual-e5-small";

constexpr const char* kEnglishMemo =
    "Facilities memo\n\nThe warehouse in Dayton will close for inventory on 14 March. Forklift "
    "training for the night shift is scheduled for the following Monday, and the loading dock "
    "will reopen once the new scanners are installed.";
constexpr const char* kSpanishMemo =
    "Circular de administración\n\nLa cooperativa agrícola de Valencia entregó 3.400 cajas de "
    "naranjas al mercado central durante el mes de enero. El camión refrigerado se averió dos "
    "veces y el transporte de la semana siguiente se hizo con una empresa externa.";
constexpr const char* kHindiNote =
    "विद्यालय सूचना\n\nविद्यालय का वार्षिक खेल दिवस 12 फरवरी को आयोजित किया जाएगा। सभी छात्रों "
    "को सुबह आठ बजे मैदान में उपस्थित होना है और अभिभावकों को भी आमंत्रित किया गया है।";

class EmbeddingSpaces : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        user_ = server_->createUser("spaces@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    void SetUp() override {
        if (!std::filesystem::exists(modelsDir() + "/" + kMultilingual)) {
            GTEST_SKIP() << "multilingual-e5-small is not installed (make model)";
        }
    }

    static std::string workspace(const std::string& name) {
        const auto r =
            server_->request("POST", "/api/v1/workspaces", json{{"name", name}}.dump(), token_);
        EXPECT_EQ(r.status, 201) << r.body;
        return r.json()["id"];
    }
    static std::string upload(const std::string& name, const std::string& text,
                              const std::string& workspace_id = {}) {
        const auto id = server_->uploadDocument(token_, name, "text/plain", text, workspace_id);
        EXPECT_EQ(server_->waitForDocument(id, token_)["status"], "embedded") << name;
        return id;
    }
    static std::string spaceModel(const std::string& scope) {
        return server_->db().scalar("SELECT model FROM embedding_spaces WHERE scope = '" + scope +
                                    "'");
    }
    /// The models of the document's chunks, comma-separated, in order of name.
    static std::string chunkModels(const std::string& document_id) {
        return server_->db().scalar(
            "SELECT string_agg(DISTINCT coalesce(model, '-'), ',') FROM chunks WHERE "
            "document_id = '" +
            document_id + "'");
    }
    /// Waits (30 s at most) until every chunk of the document is in `model`.
    static void waitForModel(const std::string& document_id, const std::string& model) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (chunkModels(document_id) != model && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        EXPECT_EQ(chunkModels(document_id), model);
    }
    /// The `done` frame of a grounded question over `ids`, with its sources, once the node's
    /// indexes (which follow the change feed) rank `expected_first` first by vectors of
    /// `expected_model` (20 s at most).
    static json ask(const std::string& question, const std::vector<std::string>& ids,
                    const std::string& expected_first, const std::string& expected_model) {
        json done, sources;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        do {
            const auto r = server_->request(
                "POST", "/api/v1/knowledge/query/stream",
                json{{"question", question}, {"document_ids", ids}}.dump(), token_);
            EXPECT_EQ(r.status, 200) << r.body;
            for (const auto& f : sseFrames(r.body)) {
                if (f["type"] == "sources") sources = f["sources"];
                if (f["type"] == "done") done = f;
            }
            if (!sources.empty() && sources[0]["document_id"] == expected_first &&
                done.value("model", "") == expected_model) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        } while (std::chrono::steady_clock::now() < deadline);
        done["sources"] = sources;
        return done;
    }

    static TestServer* server_;
    static std::string user_, token_;
};
TestServer* EmbeddingSpaces::server_ = nullptr;
std::string EmbeddingSpaces::user_, EmbeddingSpaces::token_;

TEST_F(EmbeddingSpaces, AnEnglishWorkspaceKeepsThePrimaryModel) {
    const auto ws = workspace("English only");
    const auto memo = upload("memo.txt", kEnglishMemo, ws);
    EXPECT_EQ(spaceModel("w:" + ws), kPrimary);
    EXPECT_EQ(chunkModels(memo), kPrimary);

    const auto done = ask("When will the warehouse close for inventory?", {memo}, memo, kPrimary);
    // done.model: the encoder the extractive answer compared the question with.
    EXPECT_EQ(done["model"], kPrimary) << "the question is encoded by the scope's model";
    EXPECT_FALSE(done["refused"].get<bool>()) << done.dump();
    EXPECT_NE(done["answer"].get<std::string>().find("14 March"), std::string::npos)
        << done["answer"];
}

TEST_F(EmbeddingSpaces, ASpanishDocumentMovesTheWorkspaceToTheMultilingualModel) {
    const auto ws = workspace("Mixed languages");
    const auto memo = upload("memo.txt", kEnglishMemo, ws);
    ASSERT_EQ(chunkModels(memo), kPrimary);

    const auto circular = upload("circular.txt", kSpanishMemo, ws);
    EXPECT_EQ(spaceModel("w:" + ws), kMultilingual);
    EXPECT_EQ(chunkModels(circular), kMultilingual);
    // The English memo follows in the background and never leaves `embedded`.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (chunkModels(memo) != kMultilingual && std::chrono::steady_clock::now() < deadline) {
        EXPECT_EQ(server_->get("/api/v1/documents/" + memo, token_).json()["status"], "embedded");
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(chunkModels(memo), kMultilingual);

    const auto spanish = ask("¿Cuántas cajas de naranjas se entregaron en enero?", {memo, circular},
                             circular, kMultilingual);
    EXPECT_EQ(spanish["model"], kMultilingual);
    ASSERT_FALSE(spanish["sources"].empty());
    EXPECT_EQ(spanish["sources"][0]["document_id"], circular) << spanish.dump();
    EXPECT_NE(spanish["answer"].get<std::string>().find("3.400"), std::string::npos)
        << spanish["answer"];

    const auto english =
        ask("When will the warehouse close for inventory?", {memo, circular}, memo, kMultilingual);
    ASSERT_FALSE(english["sources"].empty());
    EXPECT_EQ(english["sources"][0]["document_id"], memo) << english.dump();
    EXPECT_NE(english["answer"].get<std::string>().find("14 March"), std::string::npos)
        << english["answer"];

    // A later English document joins the workspace's model.
    const auto second = upload("second.txt", kEnglishMemo, ws);
    EXPECT_EQ(chunkModels(second), kMultilingual);
}

TEST_F(EmbeddingSpaces, AHindiDocumentSettlesAPersonalScopeOnTheMultilingualModel) {
    const auto note = upload("notice.txt", kHindiNote);
    EXPECT_EQ(spaceModel("p:" + user_), kMultilingual);
    EXPECT_EQ(chunkModels(note), kMultilingual);
    const auto done = ask("खेल दिवस कब आयोजित किया जाएगा?", {note}, note, kMultilingual);
    EXPECT_EQ(done["model"], kMultilingual);
    ASSERT_FALSE(done["sources"].empty());
    EXPECT_EQ(done["sources"][0]["document_id"], note);
}

}  // namespace
}  // namespace docintel::test
