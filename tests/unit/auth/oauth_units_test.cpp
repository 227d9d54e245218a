// The authorization server's small parts: CIDR matching (IPv4, IPv6, mapped), the mustache
// subset the pages use, AES-256-GCM sealing of refresh tokens, redirect-URI rules.

#include <gtest/gtest.h>

#include <filesystem>

#include "auth/oauth/cidr.h"
#include "auth/oauth/client_registry.h"
#include "auth/oauth/token_cipher.h"
#include "common/id.h"
#include "common/mustache.h"

namespace docintel::auth::oauth {
namespace {

TEST(Cidr, MatchesIpv4Ipv6AndMappedAddresses) {
    EXPECT_TRUE(addressAllowed("", "203.0.113.9"));
    EXPECT_TRUE(addressAllowed("127.0.0.1/32", "127.0.0.1"));
    EXPECT_FALSE(addressAllowed("127.0.0.1/32", "127.0.0.2"));
    EXPECT_TRUE(addressAllowed("10.0.0.0/8 192.168.1.0/24", "192.168.1.77"));
    EXPECT_FALSE(addressAllowed("10.0.0.0/8", "11.0.0.1"));
    EXPECT_TRUE(addressAllowed("10.1.2.0/23", "10.1.3.255"));
    EXPECT_FALSE(addressAllowed("10.1.2.0/23", "10.1.4.0"));
    EXPECT_TRUE(addressAllowed("127.0.0.0/8", "::ffff:127.0.0.2"));
    EXPECT_TRUE(addressAllowed("::1/128", "::1"));
    EXPECT_TRUE(addressAllowed("2001:db8::/32", "2001:db8:ffff::1"));
    EXPECT_FALSE(addressAllowed("2001:db8::/32", "2001:db9::1"));
    EXPECT_FALSE(addressAllowed("::1/128", "127.0.0.1"));
    EXPECT_FALSE(Cidr::parse("10.0.0.0/33"));
    EXPECT_FALSE(Cidr::parse("nonsense"));
    EXPECT_TRUE(Cidr::parse("0.0.0.0/0")->contains("8.8.8.8"));
}

TEST(Mustache, RendersTheSubsetThePagesUse) {
    const nlohmann::json view = {{"name", "<b>&\"'"},
                                 {"raw", "<i>"},
                                 {"items", {{{"n", "a"}}, {{"n", "b"}}}},
                                 {"empty", nlohmann::json::array()},
                                 {"flag", true},
                                 {"obj", {{"x", 1}}}};
    EXPECT_EQ(*common::renderMustache("{{name}}|{{{raw}}}|{{& raw}}", view),
              "&lt;b&gt;&amp;&quot;&#39;|<i>|<i>");
    EXPECT_EQ(*common::renderMustache("{{#items}}[{{n}}{{flag}}]{{/items}}", view),
              "[atrue][btrue]");
    EXPECT_EQ(*common::renderMustache("{{^empty}}none{{/empty}}{{#empty}}x{{/empty}}", view),
              "none");
    EXPECT_EQ(*common::renderMustache("{{#obj}}{{x}}{{/obj}}{{obj.x}}{{missing}}{{! c }}", view),
              "11");
    EXPECT_FALSE(common::renderMustache("{{#items}}open", view));
    EXPECT_FALSE(common::renderMustache("{{#a}}{{/b}}", view));
    EXPECT_FALSE(common::renderMustache("{{unclosed", view));
}

TEST(TokenCipher, SealsAndDetectsTampering) {
    const auto dir = std::filesystem::temp_directory_path() / ("cipher-" + common::newUuid());
    const auto cipher = TokenCipher::loadOrCreate((dir / "k").string());
    const std::string box = cipher->seal("dir_secret-refresh-token");
    EXPECT_EQ(box.find("dir_secret"), std::string::npos);
    EXPECT_EQ(cipher->open(box), "dir_secret-refresh-token");
    std::string tampered = box;
    tampered[15] ^= 1;
    EXPECT_FALSE(cipher->open(tampered));
    // The same key file loads the same key; two seals differ (random nonce).
    const auto again = TokenCipher::loadOrCreate((dir / "k").string());
    EXPECT_EQ(again->open(box), "dir_secret-refresh-token");
    EXPECT_NE(cipher->seal("x"), cipher->seal("x"));
    EXPECT_EQ(std::filesystem::status(dir / "k").permissions() & std::filesystem::perms::group_all,
              std::filesystem::perms::none);
    std::filesystem::remove_all(dir);
}

TEST(RedirectUris, LoopbackOrHttpsAndLoopbackOnAnyPort) {
    EXPECT_TRUE(ClientRegistry::redirectUriAllowed("https://app.example/cb"));
    EXPECT_TRUE(ClientRegistry::redirectUriAllowed("http://127.0.0.1:8000/cb"));
    EXPECT_TRUE(ClientRegistry::redirectUriAllowed("http://localhost/cb"));
    EXPECT_TRUE(ClientRegistry::redirectUriAllowed("http://[::1]:3000/cb"));
    EXPECT_FALSE(ClientRegistry::redirectUriAllowed("http://app.example/cb"));
    EXPECT_FALSE(ClientRegistry::redirectUriAllowed("https://app.example/cb#x"));
    EXPECT_FALSE(ClientRegistry::redirectUriAllowed("javascript:alert(1)"));
    const std::vector<std::string> registered = {"http://127.0.0.1/cb", "https://a.example/cb"};
    EXPECT_TRUE(ClientRegistry::redirectMatches(registered, "http://127.0.0.1:53111/cb"));
    EXPECT_FALSE(ClientRegistry::redirectMatches(registered, "http://127.0.0.1:53111/other"));
    EXPECT_FALSE(ClientRegistry::redirectMatches(registered, "http://localhost:53111/cb"));
    EXPECT_TRUE(ClientRegistry::redirectMatches(registered, "https://a.example/cb"));
    EXPECT_FALSE(ClientRegistry::redirectMatches(registered, "https://a.example:444/cb"));
    EXPECT_FALSE(ClientRegistry::redirectMatches(registered, "https://a.example/cb?x=1"));
}

}  // namespace
}  // namespace docintel::auth::oauth
