#include "auth/token_service.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/id.h"

namespace docintel::auth {
namespace {

class TokenServiceTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = (std::filesystem::temp_directory_path() / ("keys-" + common::newUuid())).string();
        keys_ = KeySet::loadOrCreate(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    TokenClaims claims(std::string audience = "https://api.example/api/v1") {
        TokenClaims c;
        c.subject = "3f1e0000-0000-4000-8000-000000000001";
        c.scopes = {"workspaces:read", "documents:read"};
        c.audience = std::move(audience);
        return c;
    }

    std::string dir_;
    std::shared_ptr<KeySet> keys_;
};

TEST_F(TokenServiceTest, RoundTripsClaims) {
    TokenService tokens(keys_, "https://auth.example", nullptr);
    std::string jti;
    const auto token = tokens.mint(claims(), &jti);
    const auto p = tokens.verify(token, "https://api.example/api/v1");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->user_id, "3f1e0000-0000-4000-8000-000000000001");
    EXPECT_EQ(p->token_id, jti);
    EXPECT_TRUE(p->hasScope("documents:read"));
    EXPECT_FALSE(p->hasScope("documents:write"));
}

TEST_F(TokenServiceTest, RefusesOtherAudienceIssuerAndRevoked) {
    TokenService tokens(keys_, "https://auth.example",
                        [](const std::string& jti) { return jti == "revoked"; });
    EXPECT_FALSE(tokens.verify(tokens.mint(claims("https://mcp.example/mcp")),
                               "https://api.example/api/v1"));
    TokenService other_issuer(keys_, "https://evil.example", nullptr);
    EXPECT_FALSE(tokens.verify(other_issuer.mint(claims()), "https://api.example/api/v1"));
    EXPECT_FALSE(tokens.verify("a.b.c", "https://api.example/api/v1"));
    EXPECT_FALSE(tokens.verify("", "https://api.example/api/v1"));
}

TEST_F(TokenServiceTest, KeysRotateAndOldTokensStillVerify) {
    TokenService tokens(keys_, "https://auth.example", nullptr);
    const auto before = tokens.mint(claims());
    const auto old_kid = keys_->activeKid();
    const auto new_kid = keys_->rotate();
    EXPECT_NE(old_kid, new_kid);
    EXPECT_EQ(keys_->activeKid(), new_kid);
    EXPECT_TRUE(tokens.verify(before, "https://api.example/api/v1"));
    EXPECT_EQ(keys_->jwks()["keys"].size(), 2u);
    const auto reloaded = KeySet::loadOrCreate(dir_);
    EXPECT_EQ(reloaded->activeKid(), new_kid);
}

}  // namespace
}  // namespace docintel::auth
