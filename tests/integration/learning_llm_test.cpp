// Study artifacts in LLM mode against a real engine: llama.cpp's server (xllamacpp) running
// SmolLM2-135M-Instruct (support/llama_server.h), the learning plugin on a real server. The
// tiny model writes what it likes, so the test pins what must hold whatever it writes: the LLM
// is asked (the artifact is the LLM's, or the extractive one with llm_fallback
// insufficient_content when nothing it wrote is supported — never llm_unavailable), and every
// item quotes, word for word, a sentence of a document in the course's scope.

#include <gtest/gtest.h>

#include <memory>

#include "support/llama_server.h"
#include "support/mcp_client.h"
#include "support/sample_texts.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

const char* const kPhotosynthesis =
    "Photosynthesis\n\n"
    "Photosynthesis is the process by which green plants turn light into chemical energy. "
    "It takes place in the chloroplasts of leaf cells. A chloroplast is an organelle that "
    "holds the green pigment chlorophyll. Chlorophyll absorbs red and blue light and reflects "
    "green light, which is why leaves look green. The light reactions split water and release "
    "oxygen into the air. The Calvin cycle then fixes carbon dioxide into sugar. A single large "
    "tree can release about 100 kilograms of oxygen in a year.\n\n"
    "History\n\n"
    "Joseph Priestley showed in 1771 that a sprig of mint could restore air that a candle had "
    "burned. Jan Ingenhousz found in 1779 that plants purify air only in sunlight. Jean "
    "Senebier reported in 1782 that plants take in carbon dioxide while they are lit. Melvin "
    "Calvin mapped the path of carbon in plants and received the Nobel Prize in 1961. Land "
    "plants and algae together fix about 120 billion tonnes of carbon every year.\n";

/// `text` with every run of white space one space (chunks keep the words, not the layout).
std::string squeezed(const std::string& text) {
    std::string out;
    for (const char ch : text) {
        const bool space = ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : ch;
    }
    return out;
}

TEST(LearningLlm, GeneratedItemsQuoteTheScopeWhateverTheModelWrites) {
    std::unique_ptr<LlamaServer> llm;
    ASSERT_NO_THROW(llm = std::make_unique<LlamaServer>());
    TestServer::Options options;
    options.plugins = {builtPlugin("learning")};
    options.llm_base_url = llm->baseUrl();
    options.llm_model = LlamaServer::kModel;
    options.llm_timeout_ms = 60000;
    TestServer server(options);
    const std::string user = server.createUser("llm-teacher@example.com");
    const std::string token = server.token(user, TestServer::allScopes());

    auto ws = server.request("POST", "/api/v1/workspaces", json{{"name", "Biology"}}.dump(), token);
    ASSERT_EQ(ws.status, 201) << ws.body;
    const std::string workspace = ws.json()["id"];
    const std::map<std::string, std::string> in_ws{{"X-DocIntel-Workspace-ID", workspace}};
    const std::string doc = server.uploadDocument(token, "photosynthesis.txt", "text/plain",
                                                  kPhotosynthesis, workspace);
    ASSERT_EQ(server.waitForDocument(doc, token)["status"], "embedded");

    auto course =
        server.request("POST", "/api/v1/learning/courses",
                       json{{"workspace_id", workspace}, {"title", "Plants"}}.dump(), token, in_ws);
    ASSERT_EQ(course.status, 201) << course.body;
    const std::string course_id = course.json()["id"];
    ASSERT_EQ(server
                  .request("POST", "/api/v1/learning/courses/" + course_id + "/assets",
                           json{{"document_id", doc}}.dump(), token, in_ws)
                  .status,
              200);

    McpClient mcp(server, server.token(user, TestServer::allScopes(), 600, true));
    for (const std::string type : {"summary", "study_guide", "key_concepts", "flashcards"}) {
        const json out = mcp.result("generate_learning_artifact",
                                    {{"course_id", course_id}, {"artifact_type", type}});
        const std::string generator = out["generator"];
        if (generator == "extractive") {
            // The model was asked and nothing it wrote held: never because it was not there.
            EXPECT_EQ(out["llm_fallback"], "insufficient_content") << type << " " << out.dump();
        } else {
            EXPECT_EQ(generator, "llm") << out.dump();
            EXPECT_TRUE(out["llm_fallback"].is_null()) << out.dump();
        }
        ASSERT_FALSE(out["items"].empty()) << type;
        for (const auto& item : out["items"]) {
            const json& c = item["citation"];
            EXPECT_EQ(c["document_id"], doc) << item.dump();
            const std::string quote = c["quote"];
            EXPECT_NE(squeezed(kPhotosynthesis).find(squeezed(quote)), std::string::npos)
                << type << ": " << quote;
        }
        EXPECT_EQ(out["artifact"]["source_document_ids"], json::array({doc})) << type;
        EXPECT_EQ(out["artifact"]["artifact_type"], type);
    }
    // Practice questions stay extractive: an answer must be a fact of the text.
    const json quiz =
        mcp.result("generate_learning_artifact",
                   {{"course_id", course_id}, {"artifact_type", "practice_questions"}});
    EXPECT_EQ(quiz["generator"], "extractive");
    EXPECT_TRUE(quiz["llm_fallback"].is_null());
}

}  // namespace
}  // namespace docintel::test
