// CourseCreate / CourseUpdate rules and the domain packs.

#include <gtest/gtest.h>

#include <string>

#include "learning/course.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

json detailOf(const plugin::Error& e) { return json::parse(e.message); }

TEST(Course, CreateTakesDefaults) {
    const auto c = courseFromCreate({{"workspace_id", "w1"}, {"title", "Biology 101"}});
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->title, "Biology 101");
    EXPECT_EQ(c->domain, "general");
    EXPECT_EQ(c->passingScore(), 80);
    EXPECT_EQ(c->publication_status, PublicationStatus::kDraft);
    EXPECT_EQ(c->status, CourseStatus::kActive);
    const json shown = courseJson(*c);
    EXPECT_EQ(shown["domain_pack"]["label"], "General");
    EXPECT_EQ(shown["status"], "active");
}

TEST(Course, CreateReportsEveryLimitAtOnce) {
    const auto c = courseFromCreate({{"title", ""},
                                     {"course_code", std::string(61, 'x')},
                                     {"semester", std::string(81, 'x')},
                                     {"description", std::string(4001, 'x')},
                                     {"domain", "astrology"},
                                     {"domain_config", {{"passing_score", 101}}}});
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().http_status, 422);
    const json detail = detailOf(c.error());
    std::set<std::string> fields;
    for (const auto& d : detail) fields.insert(d["loc"][1].get<std::string>());
    EXPECT_EQ(fields, (std::set<std::string>{"workspace_id", "title", "course_code", "semester",
                                             "description", "domain", "domain_config"}));
}

TEST(Course, LimitsCountCharactersNotBytes) {
    // 180 two-byte characters are 360 bytes and still a valid title.
    std::string title;
    for (int i = 0; i < 180; ++i) title += "\xc3\xa9";
    EXPECT_TRUE(courseFromCreate({{"workspace_id", "w"}, {"title", title}}).ok());
    EXPECT_FALSE(courseFromCreate({{"workspace_id", "w"}, {"title", title + "e"}}).ok());
}

TEST(Course, ElevenDomainPacksEachWithLabelReviewerAndFocus) {
    ASSERT_EQ(domainPacks().size(), 11u);
    for (const auto& p : domainPacks()) {
        EXPECT_FALSE(p.label.empty()) << p.id;
        EXPECT_FALSE(p.reviewer_persona.empty()) << p.id;
        EXPECT_FALSE(p.tutor_focus.empty()) << p.id;
        const auto c = courseFromCreate({{"workspace_id", "w"}, {"title", "t"}, {"domain", p.id}});
        ASSERT_TRUE(c.ok()) << p.id;
        EXPECT_EQ(courseJson(*c)["domain_pack"]["label"], p.label);
    }
}

TEST(Course, UpdateKeepsWhatIsAbsentOrNullAndArchives) {
    auto c = courseFromCreate({{"workspace_id", "w"},
                               {"title", "Old"},
                               {"semester", "Fall"},
                               {"domain_config", {{"passing_score", 70}, {"x", 1}}}});
    ASSERT_TRUE(c.ok());
    const auto u = applyCourseUpdate(*c, {{"title", "New"},
                                          {"semester", nullptr},
                                          {"status", "archived"},
                                          {"domain_config", {{"passing_score", 90}}}});
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->title, "New");
    EXPECT_EQ(u->semester, "Fall");
    EXPECT_EQ(u->status, CourseStatus::kArchived);
    EXPECT_EQ(u->passingScore(), 90);
    EXPECT_EQ(u->domain_config["x"], 1);
}

TEST(Course, UpdateRefusesAnEmptyTitleAndAnUnknownStatus) {
    const auto c = courseFromCreate({{"workspace_id", "w"}, {"title", "T"}});
    ASSERT_TRUE(c.ok());
    const auto u = applyCourseUpdate(*c, {{"title", ""}, {"status", "deleted"}});
    ASSERT_FALSE(u.ok());
    EXPECT_EQ(detailOf(u.error()).size(), 2u);
}

}  // namespace
}  // namespace docintel::learning
