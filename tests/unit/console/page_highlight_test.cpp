// The console's evidence view: which boxes highlight a cited passage, the page image cache,
// the fields of a review packet and how a typed value keeps its field's type.

#include <gtest/gtest.h>

#include <filesystem>

#include "console/console_pages.h"
#include "console/page_highlight.h"
#include "console/page_images.h"
#include "support/test_server.h"

namespace docintel::console {
namespace {

PageWord word(const std::string& text, double x, double y, double w = 5, double h = 2) {
    return {text, {x, y, w, h}};
}

TEST(PageHighlight, MergesTheMatchedWordsLineByLine) {
    const std::vector<PageWord> words = {
        word("Patient:", 10, 10), word("Maria", 16, 10), word("Gonzalez", 22, 10),
        word("Member", 10, 14),   word("ID:", 16, 14),   word("HPX-448-20931", 22, 14, 12),
        word("Plan:", 10, 18),    word("Gold", 16, 18)};
    const auto boxes = highlightBoxes(words, "Member ID: HPX-448-20931 Plan: Gold");
    ASSERT_EQ(boxes.size(), 2u);
    EXPECT_DOUBLE_EQ(boxes[0].x, 10);
    EXPECT_DOUBLE_EQ(boxes[0].y, 14);
    EXPECT_DOUBLE_EQ(boxes[0].width, 24);  // 10 → 34
    EXPECT_DOUBLE_EQ(boxes[1].y, 18);
    EXPECT_DOUBLE_EQ(boxes[1].width, 11);  // 10 → 21
}

TEST(PageHighlight, IgnoresCaseAndPunctuationAndFindsAnExcerptThatStartsElsewhere) {
    const std::vector<PageWord> words = {word("the", 1, 1), word("MEMBER", 7, 1), word("id", 13, 1),
                                         word("hpx448-20931.", 19, 1)};
    // The excerpt begins with words of the previous page.
    const auto boxes = highlightBoxes(words, "continued from before: member ID: HPX448-20931");
    ASSERT_EQ(boxes.size(), 1u);
    EXPECT_DOUBLE_EQ(boxes[0].x, 7);
}

TEST(PageHighlight, NothingWhenTheExcerptIsNotOnThePage) {
    const std::vector<PageWord> words = {word("Member", 1, 1), word("ID", 7, 1)};
    EXPECT_TRUE(highlightBoxes(words, "Diagnosis code M17.11 primary").empty());
    EXPECT_TRUE(highlightBoxes(words, "").empty());
    EXPECT_TRUE(highlightBoxes({}, "Member ID").empty());
}

TEST(PageHighlight, TheValueIsFoundInsideItsPassageOnly) {
    const std::vector<PageWord> words = {
        word("Referral", 10, 4),
        word("HPX-448-20931", 22, 4, 12),  // same id, another passage
        word("Member", 10, 14),
        word("ID:", 16, 14),
        word("HPX-448-20931", 22, 14, 12),
        word("Plan:", 10, 18),
        word("Gold", 16, 18)};
    const auto boxes = valueBoxes(words, "Member ID: HPX-448-20931 Plan: Gold", "HPX-448-20931");
    ASSERT_EQ(boxes.size(), 1u);
    EXPECT_DOUBLE_EQ(boxes[0].y, 14);
    EXPECT_DOUBLE_EQ(boxes[0].width, 12);
    EXPECT_TRUE(valueBoxes(words, "Member ID: HPX-448-20931 Plan: Gold", "Silver").empty());
    EXPECT_TRUE(valueBoxes(words, "Nowhere on this page at all", "Gold").empty());
}

TEST(PageImages, RendersACachedPngAndLocatesTheMemberIdOnTheSampleRequest) {
    const std::string pdf =
        test::sourceDir() + "/tests/data/workflows/healthcare/prior_auth_request.pdf";
    const auto cache =
        std::filesystem::temp_directory_path() / ("console-pages-" + std::to_string(::getpid()));
    PageImages images(cache.string());
    auto png = images.png("doc-1", pdf, 1);
    ASSERT_TRUE(png) << png.error().message;
    ASSERT_TRUE(std::filesystem::exists(*png));
    EXPECT_GT(std::filesystem::file_size(*png), 1000u);
    const auto written = std::filesystem::last_write_time(*png);
    auto again = images.png("doc-1", pdf, 1);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *png);
    EXPECT_EQ(std::filesystem::last_write_time(*again), written);  // from the cache
    EXPECT_EQ(images.png("doc-1", pdf, 99).error().http_status, 404);

    auto words = images.words(pdf, 1);
    ASSERT_TRUE(words) << words.error().message;
    const auto boxes = valueBoxes(*words, "Member ID: HPX-448-20931", "HPX-448-20931");
    ASSERT_EQ(boxes.size(), 1u);
    EXPECT_GT(boxes[0].x, 0);
    EXPECT_LT(boxes[0].x + boxes[0].width, 100);
    EXPECT_GT(boxes[0].y, 0);
    EXPECT_LT(boxes[0].y, 50);  // near the top of the request form
    EXPECT_GT(boxes[0].height, 0.5);
    std::filesystem::remove_all(cache);
}

TEST(ConsoleFields, ListsEveryExtractedFieldWithItsFlags) {
    const auto packet = nlohmann::json::parse(R"({
      "patient": {"member_id": {"value": "HPX-1", "confidence": 0.9,
                                "source": {"document_id": "d", "page": 1}},
                  "dob": {"value": null, "confidence": 0, "source": null}},
      "criteria": [{"id": "1", "status": {"value": "met", "confidence": 0.4, "source": null}}],
      "ready_for_submission": false})");
    const auto fields = packetFields(packet);
    ASSERT_EQ(fields.size(), 3u);
    std::map<std::string, nlohmann::json> by;
    for (const auto& f : fields) by[f["pointer"]] = f;
    EXPECT_EQ(by["/patient/member_id"]["label"], "Patient › Member id");
    EXPECT_FALSE(by["/patient/member_id"]["missing"]);
    EXPECT_FALSE(by["/patient/member_id"]["low"]);
    EXPECT_TRUE(by["/patient/dob"]["missing"]);
    EXPECT_TRUE(by["/criteria/0/status"]["low"]);
    EXPECT_EQ(by["/criteria/0/status"]["label"], "Criteria › #1 › Status");
}

TEST(ConsoleFields, ATypedValueKeepsTheTypeOfTheValueItReplaces) {
    EXPECT_EQ(*typedValue(12, "15"), nlohmann::json(15));
    EXPECT_EQ(*typedValue(1.5, "2.25"), nlohmann::json(2.25));
    EXPECT_FALSE(typedValue(12, "twelve"));
    EXPECT_EQ(*typedValue(true, "false"), nlohmann::json(false));
    EXPECT_FALSE(typedValue(true, "no"));
    EXPECT_EQ(*typedValue("a", "b"), nlohmann::json("b"));
    EXPECT_EQ(*typedValue(nullptr, "x"), nlohmann::json("x"));
    EXPECT_TRUE(typedValue("a", "")->is_null());
    EXPECT_EQ(*typedValue(nlohmann::json::array({"1"}), R"(["72148", "72149"])"),
              nlohmann::json::array({"72148", "72149"}));
    EXPECT_FALSE(typedValue(nlohmann::json::array(), "72148"));
}

}  // namespace
}  // namespace docintel::console
