// The replace rule of PUT .../curriculum.

#include <gtest/gtest.h>

#include <string>

#include "learning/curriculum.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

struct Ids {
    int next = 0;
    std::string operator()() { return "new" + std::to_string(++next); }
};

Curriculum stored() {
    Curriculum c;
    c.modules.push_back({"m1", "Cells", "", 0, {{"l1", "Membranes", "", {}, {}, 0}}});
    c.modules.push_back({"m2", "Genetics", "", 1, {{"l2", "DNA", "", {}, {}, 0}}});
    return c;
}

TEST(Curriculum, KeepsSentIdsOrdersByPositionAndRemovesTheRest) {
    Ids ids;
    const json body = {{"modules",
                        {{{"id", "m2"},
                          {"title", "Genetics"},
                          {"lessons", {{{"title", "RNA"}}, {{"id", "l2"}, {"title", "DNA"}}}}},
                         {{"title", "Evolution"}}}}};
    const auto r = replaceCurriculum(stored(), body, std::ref(ids));
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& mods = r->curriculum.modules;
    ASSERT_EQ(mods.size(), 2u);
    EXPECT_EQ(mods[0].id, "m2");
    EXPECT_EQ(mods[0].position, 0);
    EXPECT_EQ(mods[1].id, "new2");  // new ids in tree order: RNA took new1
    EXPECT_EQ(mods[1].position, 1);
    ASSERT_EQ(mods[0].lessons.size(), 2u);
    EXPECT_EQ(mods[0].lessons[0].title, "RNA");
    EXPECT_EQ(mods[0].lessons[0].id, "new1");
    EXPECT_EQ(mods[0].lessons[1].id, "l2");
    EXPECT_EQ(mods[0].lessons[1].position, 1);
    EXPECT_EQ(r->removed_module_ids, std::vector<std::string>{"m1"});
    EXPECT_EQ(r->removed_lesson_ids, std::vector<std::string>{"l1"});
}

TEST(Curriculum, UntitledItemsAreSkippedWithTheirLessons) {
    Ids ids;
    const json body = {{"modules",
                        {{{"title", "  "}, {"lessons", {{{"title", "Lost"}}}}},
                         {{"title", "Kept"}, {"lessons", {{{"title", ""}}, {{"title", "L"}}}}}}}};
    const auto r = replaceCurriculum(stored(), body, std::ref(ids));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->curriculum.modules.size(), 1u);
    EXPECT_EQ(r->curriculum.modules[0].title, "Kept");
    ASSERT_EQ(r->curriculum.modules[0].lessons.size(), 1u);
    EXPECT_EQ(r->curriculum.modules[0].lessons[0].position, 0);
    EXPECT_EQ(r->removed_module_ids.size(), 2u);
}

TEST(Curriculum, AnUnknownOrRepeatedIdIs422AndTakesNoIds) {
    Ids ids;
    const auto unknown =
        replaceCurriculum(stored(), {{"modules", {{{"id", "zz"}, {"title", "X"}}}}}, std::ref(ids));
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().http_status, 422);
    EXPECT_EQ(json::parse(unknown.error().message)[0]["loc"], json({"body", "modules", 0, "id"}));

    const auto twice = replaceCurriculum(
        stored(), {{"modules", {{{"id", "m1"}, {"title", "A"}}, {{"id", "m1"}, {"title", "B"}}}}},
        std::ref(ids));
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(ids.next, 0);
}

TEST(Curriculum, ALessonMayMoveToAnotherModule) {
    Ids ids;
    const json body = {
        {"modules",
         {{{"id", "m1"}, {"title", "Cells"}, {"lessons", {{{"id", "l2"}, {"title", "DNA"}}}}}}}};
    const auto r = replaceCurriculum(stored(), body, std::ref(ids));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->curriculum.findLesson("l2").first->id, "m1");
    EXPECT_EQ(r->removed_lesson_ids, std::vector<std::string>{"l1"});
}

TEST(Curriculum, AtMostAHundredModulesAndTwoHundredLessonsEach) {
    Ids ids;
    json modules = json::array();
    for (int i = 0; i < 100; ++i) modules.push_back({{"title", "M" + std::to_string(i)}});
    EXPECT_TRUE(replaceCurriculum({}, {{"modules", modules}}, std::ref(ids)).ok());
    modules.push_back({{"title", "one too many"}});
    EXPECT_EQ(replaceCurriculum({}, {{"modules", modules}}, std::ref(ids)).error().http_status,
              422);

    json lessons = json::array();
    for (int i = 0; i < 200; ++i) lessons.push_back({{"title", "L" + std::to_string(i)}});
    const json ok = {{"modules", {{{"title", "M"}, {"lessons", lessons}}}}};
    EXPECT_TRUE(replaceCurriculum({}, ok, std::ref(ids)).ok());
    lessons.push_back({{"title", "one too many"}});
    const json over = {{"modules", {{{"title", "M"}, {"lessons", lessons}}}}};
    EXPECT_EQ(replaceCurriculum({}, over, std::ref(ids)).error().http_status, 422);
}

TEST(Curriculum, EmptyBodyRemovesEverything) {
    Ids ids;
    const auto r = replaceCurriculum(stored(), json::object(), std::ref(ids));
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->curriculum.modules.empty());
    EXPECT_EQ(r->removed_module_ids.size(), 2u);
    EXPECT_EQ(r->removed_lesson_ids.size(), 2u);
}

}  // namespace
}  // namespace docintel::learning
