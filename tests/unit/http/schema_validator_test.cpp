// Every request schema against tests/data/validation_cases.json: valid bodies pass (and get
// their defaults), each body that breaks one stated limit gives exactly that one error.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "http/schema_validator.h"
#include "support/test_server.h"

namespace docintel::http {
namespace {

class SchemaValidatorTest : public ::testing::Test {
  protected:
    void SetUp() override {
        registry_.loadBuiltins();
        std::ifstream in(test::sourceDir() + "/tests/data/validation_cases.json");
        ASSERT_TRUE(in);
        cases_ = nlohmann::json::parse(in);
    }
    SchemaRegistry registry_;
    nlohmann::json cases_;
};

TEST_F(SchemaValidatorTest, EveryRequestSchemaHasCases) {
    std::size_t request_schemas = 0;  // schemas/api/*.schema.json; responses/ is apart
    for (const auto& f : std::filesystem::directory_iterator(test::sourceDir() + "/schemas/api")) {
        if (f.path().string().ends_with(".schema.json")) ++request_schemas;
    }
    EXPECT_EQ(request_schemas, 32u);
    EXPECT_EQ(cases_.size(), 30u);
    for (const auto& [name, c] : cases_.items()) {
        EXPECT_TRUE(registry_.has(name)) << name;
        EXPECT_FALSE(c["valid"].empty()) << name;
        EXPECT_FALSE(c["invalid"].empty()) << name;
    }
}

TEST_F(SchemaValidatorTest, ValidBodiesPass) {
    for (const auto& [name, c] : cases_.items()) {
        for (auto body : c["valid"]) {
            const auto issues = registry_.validate(name, body, {"body"});
            EXPECT_TRUE(issues.empty()) << name << " " << body.dump().substr(0, 200) << " -> "
                                        << (issues.empty() ? "" : issues[0].toJson().dump());
        }
    }
}

TEST_F(SchemaValidatorTest, EachBrokenLimitGivesItsLocationAndType) {
    for (const auto& [name, c] : cases_.items()) {
        for (const auto& bad : c["invalid"]) {
            nlohmann::json body = bad["body"];
            const auto issues = registry_.validate(name, body, {"body"});
            ASSERT_EQ(issues.size(), 1u) << name << " " << bad.dump().substr(0, 300);
            EXPECT_EQ(issues[0].loc, bad["loc"]) << name;
            EXPECT_EQ(issues[0].type, bad["type"]) << name << " " << bad["loc"].dump();
            EXPECT_FALSE(issues[0].msg.empty());
        }
    }
}

TEST_F(SchemaValidatorTest, DefaultsAreFilledIn) {
    nlohmann::json body = {{"email", "a@example.com"}};
    ASSERT_TRUE(registry_.validate("WorkspaceMemberInput", body, {"body"}).empty());
    EXPECT_EQ(body["role"], "viewer");
    nlohmann::json batch = {{"document_ids", {"x"}}};
    ASSERT_TRUE(registry_.validate("DocumentBatchRequest", batch, {"body"}).empty());
    EXPECT_EQ(batch["concurrency"], 3);
    EXPECT_EQ(batch["force"], false);
}

}  // namespace
}  // namespace docintel::http
