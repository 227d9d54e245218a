// Reading JSON the plugins did not write themselves: a path that may be missing (memberAt), and
// the library's own precondition on a const lookup, which every build makes throw
// (core/common/json_assert.h) instead of reading past the end of a map. The clinical assessment
// crashed the server so on a problem item without "icd10".

#include <gtest/gtest.h>

#include <stdexcept>

#include "shared/json_text.h"

namespace docintel::shared {
namespace {

TEST(JsonText, MemberAtReadsAPathOrGivesNull) {
    const nlohmann::json packet = {
        {"visit", {{"date", {{"value", "2026-03-02"}}}}},
        {"problems", nlohmann::json::array({{{"value", {{"description", "hypertension"}}}}})}};
    EXPECT_EQ(memberAt(packet, {"visit", "date", "value"}), "2026-03-02");
    EXPECT_TRUE(memberAt(packet, {"visit", "chief_complaint", "value"}).is_null());
    EXPECT_TRUE(memberAt(packet, {"visit", "date", "value", "deeper"}).is_null());
    const auto& problem = packet["problems"][0];
    EXPECT_EQ(memberAt(problem, {"value", "description"}), "hypertension");
    EXPECT_TRUE(memberAt(problem, {"value", "icd10"}).is_null());
    EXPECT_EQ(textOf(memberAt(problem, {"value"}), "icd10"), "");
}

TEST(JsonText, AConstLookupOfAMissingKeyThrowsInEveryBuild) {
    const nlohmann::json problem = {{"value", {{"description", "hypertension"}}}};
    EXPECT_THROW(static_cast<void>(problem["value"]["icd10"]), std::logic_error);
    EXPECT_THROW(static_cast<void>(problem["source"]), std::logic_error);
}

}  // namespace
}  // namespace docintel::shared
