// Saving artifacts (a practice_questions one is a validated quiz) and tutor requests.

#include <gtest/gtest.h>

#include "learning/artifacts.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

Curriculum curriculum() {
    Curriculum c;
    c.modules.push_back({"m1", "Cells", "", 0, {{"l1", "Membranes", "", {}, {}, 0}}});
    return c;
}

Scope scope() {
    Scope s;
    s.label = "Biology > Cells";
    s.document_ids = {"d1", "d2"};
    return s;
}

std::string quizText(bool valid) {
    json options = json::array();
    for (const char* o : {"A", "B", "C", "D"}) {
        options.push_back({{"id", o}, {"text", o}, {"correct", valid && std::string(o) == "B"}});
    }
    return json({{"schema_version", 1},
                 {"questions",
                  {{{"id", "q1"}, {"question", "?"}, {"options", options}, {"explanation", "e"}}}}})
        .dump();
}

TEST(Artifacts, SavedAsGivenWithADefaultTitle) {
    const auto a = artifactFromCreate({{"artifact_type", "summary"},
                                       {"content", "Cells divide."},
                                       {"lesson_id", "l1"},
                                       {"source_document_ids", {"d1"}}},
                                      "u1", curriculum(), scope());
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->title, "Summary - Biology > Cells");
    EXPECT_EQ(a->module_id, "m1");
    EXPECT_EQ(artifactJson(*a)["owner_id"], "u1");
}

TEST(Artifacts, RefusesWhatTheCourseOrScopeDoesNotHold) {
    const auto refused = [](const json& body) {
        const auto a = artifactFromCreate(body, "u1", curriculum(), scope());
        return !a.ok() && a.error().http_status == 422;
    };
    EXPECT_TRUE(refused({{"artifact_type", "poem"}, {"content", "x"}}));
    EXPECT_TRUE(refused({{"artifact_type", "summary"}, {"content", ""}}));
    EXPECT_TRUE(refused({{"artifact_type", "summary"}, {"content", "x"}, {"module_id", "m9"}}));
    EXPECT_TRUE(refused(
        {{"artifact_type", "summary"}, {"content", "x"}, {"source_document_ids", {"elsewhere"}}}));
    EXPECT_TRUE(refused({{"artifact_type", "practice_questions"}, {"content", quizText(false)}}));
    EXPECT_FALSE(refused({{"artifact_type", "practice_questions"}, {"content", quizText(true)}}));
}

TEST(Tutor, RequestLimitsAndContentNotReady) {
    EXPECT_TRUE(tutorRequestFrom({{"question", "Why?"}, {"response_language", "es"}}).ok());
    EXPECT_EQ(tutorRequestFrom({{"question", ""}}).error().http_status, 422);
    EXPECT_EQ(
        tutorRequestFrom({{"question", "q"}, {"response_language", "fr"}}).error().http_status,
        422);
    json history = json::array();
    for (int i = 0; i < 31; ++i) history.push_back({{"role", "user"}, {"content", "x"}});
    EXPECT_EQ(tutorRequestFrom({{"question", "q"}, {"history", history}}).error().http_status, 422);
    history.erase(0);
    EXPECT_TRUE(tutorRequestFrom({{"question", "q"}, {"history", history}}).ok());

    EXPECT_TRUE(tutorCanAnswer(scope()).ok());
    Scope empty;
    EXPECT_EQ(tutorCanAnswer(empty).error().code, "content_not_ready");
}

}  // namespace
}  // namespace docintel::learning
