// The one decoder of client JSON (http::parseJsonBody) and the linear checks behind schema
// validation: what each refuses, and the `loc` it names.

#include "http/json_body.h"

#include <gtest/gtest.h>

#include <string>

#include "common/utf8.h"
#include "http/schema_validator.h"

namespace docintel::http {
namespace {

std::vector<ValidationIssue> refusal(const std::string& text, JsonBodyLimits limits = {}) {
    std::vector<ValidationIssue> issues;
    EXPECT_FALSE(parseJsonBody(text, limits, nlohmann::json::array({"body"}), issues)) << text;
    return issues;
}

TEST(JsonBody, ReadsOrdinaryJsonWithItsValues) {
    std::vector<ValidationIssue> issues;
    const auto v = parseJsonBody(R"({"a":[1,-2,3.5,"x",true,null],"b":{"c":9223372036854775807}})",
                                 {}, nlohmann::json::array({"body"}), issues);
    ASSERT_TRUE(v) << (issues.empty() ? "" : issues[0].msg);
    EXPECT_EQ((*v)["a"][2], 3.5);
    EXPECT_EQ((*v)["b"]["c"].get<long long>(), 9223372036854775807LL);
}

TEST(JsonBody, NamesTheValueItRefuses) {
    auto issues = refusal(R"({"a":{"b":[0,1,1e400]}})");
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].loc, nlohmann::json({"body", "a", "b", 2}));
    EXPECT_EQ(issues[0].type, "finite_number");

    issues = refusal(R"([{"x":1},{"y":"a\u0000b"}])");
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].loc, nlohmann::json({"body", 1, "y"}));
    EXPECT_EQ(issues[0].type, "string_nul");

    // Integers beyond int64 are read (free-form objects may carry them); schemas refuse them.
    std::vector<ValidationIssue> none;
    EXPECT_TRUE(parseJsonBody(R"({"n":18446744073709551615})", {}, nlohmann::json::array(), none));
}

TEST(JsonBody, RefusesDepthAndSizeBeforeBuilding) {
    JsonBodyLimits limits;
    limits.max_depth = 3;
    limits.max_values = 10;
    EXPECT_EQ(refusal("[[[[]]]]", limits)[0].type, "json_too_deep");
    std::vector<ValidationIssue> issues;
    EXPECT_TRUE(parseJsonBody("[[[]]]", limits, nlohmann::json::array(), issues));
    EXPECT_EQ(refusal("[1,2,3,4,5,6,7,8,9,10]", limits)[0].type, "json_too_large");
    EXPECT_TRUE(parseJsonBody("[1,2,3,4,5,6,7,8,9]", limits, nlohmann::json::array(), issues));
    const auto deep = refusal(std::string(200000, '[') + std::string(200000, ']'));
    EXPECT_EQ(deep[0].type, "json_too_deep");
}

TEST(JsonBody, RefusesTextThatIsNotJsonOrNotUtf8WithItsOffset) {
    auto issues = refusal(R"({"a": tru})");
    EXPECT_EQ(issues[0].type, "json_invalid");
    EXPECT_EQ(issues[0].loc[0], "body");
    EXPECT_TRUE(issues[0].loc[1].is_number());
    EXPECT_EQ(refusal("{\"a\":\"\xff\"}")[0].type, "json_invalid");
    EXPECT_EQ(refusal("")[0].type, "json_invalid");
}

TEST(Utf8, AcceptsWellFormedAndRefusesTheRest) {
    EXPECT_TRUE(common::isValidUtf8("plain ascii"));
    EXPECT_TRUE(common::isValidUtf8("\xc3\xa9t\xc3\xa9 \xe0\xa4\xb9 \xf0\x9f\x98\x80"));
    EXPECT_FALSE(common::isValidUtf8("\xff"));
    EXPECT_FALSE(common::isValidUtf8("\xc0\xaf"));          // overlong '/'
    EXPECT_FALSE(common::isValidUtf8("\xe0\x80\xaf"));      // overlong, three bytes
    EXPECT_FALSE(common::isValidUtf8("\xed\xa0\x80"));      // a surrogate
    EXPECT_FALSE(common::isValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
    EXPECT_FALSE(common::isValidUtf8("ab\xc3"));            // cut short
}

TEST(Utf8, ToValidUtf8ReplacesEachBadByteAndKeepsTheRest) {
    EXPECT_EQ(common::toValidUtf8("\xc3\xa9t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");
    EXPECT_EQ(common::toValidUtf8("a\xff"
                                  "b"),
              "a?b");
    EXPECT_EQ(common::toValidUtf8("\xc0\xaf!"), "??!");       // overlong: both bytes replaced
    EXPECT_EQ(common::toValidUtf8("\xed\xa0\x80x"), "???x");  // a surrogate
    EXPECT_EQ(common::toValidUtf8("ab\xc3"), "ab?");          // cut short
    EXPECT_EQ(common::toValidUtf8(std::string("a\0b", 3)), "a?b");
    EXPECT_EQ(common::toValidUtf8(std::string("a\0b", 3), '?', false), std::string("a\0b", 3));
    EXPECT_TRUE(common::isValidUtf8(common::toValidUtf8("\x80\xbf\xf0\x9f\x98")));
}

TEST(SchemaPatterns, AreCompiledWhenTheSchemaIsAddedAndAnUnreadableOneIsRefused) {
    http::SchemaRegistry registry;
    const nlohmann::json bad{{"type", "object"},
                             {"properties", {{"code", {{"type", "string"}, {"pattern", "(a"}}}}}};
    EXPECT_EQ(http::SchemaRegistry::unreadablePattern(bad), "(a");
    EXPECT_FALSE(registry.add("Bad", bad));
    EXPECT_FALSE(registry.has("Bad"));
    // A property that happens to be named "pattern", and enum values, are not patterns.
    const nlohmann::json good{{"type", "object"},
                              {"properties",
                               {{"pattern", {{"type", "string"}, {"enum", {"(x"}}}},
                                {"code", {{"type", "string"}, {"pattern", "^[A-Z]{3}$"}}}}}};
    EXPECT_EQ(http::SchemaRegistry::unreadablePattern(good), std::nullopt);
    ASSERT_TRUE(registry.add("Good", good));
    nlohmann::json ok{{"code", "ABC"}, {"pattern", "(x"}};
    EXPECT_TRUE(registry.validate("Good", ok, {"body"}).empty());
    nlohmann::json wrong{{"code", "abcd"}};
    const auto issues = registry.validate("Good", wrong, {"body"});
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].type, "string_pattern_mismatch");
}

class LinearChecks : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(registry_.add(
            "T",
            {{"type", "object"},
             {"properties",
              {{"at", {{"type", "string"}, {"format", "date-time"}}},
               {"day", {{"type", "string"}, {"format", "date"}}},
               {"id", {{"type", "string"}, {"format", "uuid"}}},
               {"mail", {{"type", "string"}, {"format", "email"}}},
               {"link", {{"type", "string"}, {"format", "uri"}}},
               {"name", {{"type", "string"}, {"pattern", "^[a-z][a-z0-9_]*$"}, {"maxLength", 80}}},
               {"n", {{"type", "integer"}}}}}}));
    }
    std::vector<std::string> types(nlohmann::json body) {
        std::vector<std::string> out;
        for (const auto& i : registry_.validate("T", body, {"body"})) out.push_back(i.type);
        return out;
    }
    SchemaRegistry registry_;
};

TEST_F(LinearChecks, FormatsAcceptTheirFormsOnly) {
    for (const std::string ok : {"2026-11-25T10:00Z", "2026-11-25t10:00:59.123+05:30",
                                 "2026-11-25 10:00:00", "2026-11-25T23:59:60-0800"}) {
        EXPECT_TRUE(types({{"at", ok}}).empty()) << ok;
    }
    for (const std::string bad : {"2026-13-01T10:00Z", "2026-11-25", "2026-11-25T24:00Z",
                                  "2026-11-25T10:00:00.Z", "2026-11-25T10:00+5", "x"}) {
        EXPECT_EQ(types({{"at", bad}}), std::vector<std::string>{"datetime_parsing"}) << bad;
    }
    EXPECT_TRUE(types({{"day", "2026-02-28"},
                       {"id", "0189f7e0-0000-4000-8000-00000000000a"},
                       {"mail", "a.b@example.org"},
                       {"link", "https://x.test/a?b"}})
                    .empty());
    EXPECT_EQ(types({{"day", "2026-2-28"}}), std::vector<std::string>{"date_parsing"});
    EXPECT_EQ(types({{"id", "0189F7E0-0000-4000-8000-00000000000A"}}),
              std::vector<std::string>{"uuid_parsing"});
    EXPECT_EQ(types({{"mail", "a@b"}}), std::vector<std::string>{"value_error"});
    EXPECT_EQ(types({{"link", "no scheme"}}), std::vector<std::string>{"url_parsing"});
}

TEST_F(LinearChecks, LongStringsAreCheckedWithoutRecursion) {
    const std::string huge(1'000'000, 'a');
    EXPECT_EQ(types({{"name", huge}}), std::vector<std::string>{"string_too_long"});
    EXPECT_EQ(types({{"at", huge}}), std::vector<std::string>{"datetime_parsing"});
    EXPECT_EQ(types({{"name", "Bad"}}), std::vector<std::string>{"string_pattern_mismatch"});
}

TEST_F(LinearChecks, IntegersAreWholeNumbersWithinInt64) {
    EXPECT_TRUE(types({{"n", 9223372036854775807LL}}).empty());
    EXPECT_TRUE(types({{"n", 4.0}}).empty());
    EXPECT_EQ(types({{"n", 9223372036854775808ULL}}), std::vector<std::string>{"int_parsing_size"});
    EXPECT_EQ(types({{"n", 1e19}}), std::vector<std::string>{"int_type"});
    EXPECT_EQ(types({{"n", 4.5}}), std::vector<std::string>{"int_type"});
}

}  // namespace
}  // namespace docintel::http
