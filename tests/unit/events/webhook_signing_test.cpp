// The signature schemes against published values, and how destination addresses are judged.

#include <gtest/gtest.h>

#include <arpa/inet.h>

#include <algorithm>

#include "events/delivery_status.h"
#include "events/webhook_destination.h"
#include "events/webhook_signer.h"

namespace docintel::events {
namespace {

// The example of the Standard Webhooks specification and its reference libraries' tests.
TEST(WebhookSigner, MatchesTheStandardWebhooksExample) {
    EXPECT_EQ(WebhookSigner::standardSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                                               "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                                               R"({"test": 2432232314})"),
              "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(WebhookSigner, DocIntelSchemeIsHexHmacOfTimestampDotBody) {
    // echo -n '1614265330.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test'
    EXPECT_EQ(WebhookSigner::docintelSignature("whsec_test", 1614265330, R"({"a":1})").substr(0, 3),
              "v1=");
    EXPECT_EQ(WebhookSigner::docintelSignature("whsec_test", 1614265330, R"({"a":1})").size(),
              3u + 64u);
    EXPECT_NE(WebhookSigner::docintelSignature("whsec_test", 1614265330, R"({"a":1})"),
              WebhookSigner::docintelSignature("whsec_test", 1614265330, R"({"a":2})"));
}

TEST(WebhookSigner, NewSecretsAreWhsecAndBase64Of32Bytes) {
    const std::string s = WebhookSigner::newSecret();
    EXPECT_EQ(s.rfind("whsec_", 0), 0u);
    EXPECT_EQ(s.size(), 6u + 44u);
    EXPECT_NE(s, WebhookSigner::newSecret());
}

TEST(WebhookSigner, BothSecretsSignDuringARotation) {
    const auto headers = WebhookSigner::headers({"whsec_new", "whsec_old"}, "id", 1, "{}");
    ASSERT_EQ(headers.size(), 2u);
    EXPECT_EQ(std::count(headers[0].second.begin(), headers[0].second.end(), ' '), 1);
    EXPECT_EQ(std::count(headers[1].second.begin(), headers[1].second.end(), ','), 1);
}

AddressClass classify(const std::string& text) {
    unsigned char bytes[16] = {};
    if (inet_pton(AF_INET, text.c_str(), bytes) == 1) return classifyAddress(bytes, 4);
    EXPECT_EQ(inet_pton(AF_INET6, text.c_str(), bytes), 1) << text;
    return classifyAddress(bytes, 16);
}

TEST(WebhookDestination, ClassifiesAddresses) {
    for (const char* a : {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "8.8.8.8"}) {
        EXPECT_EQ(classify(a), AddressClass::kPublic) << a;
    }
    for (const char* a : {"127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1",
                          "100.64.0.1", "::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1"}) {
        EXPECT_EQ(classify(a), AddressClass::kPrivate) << a;
    }
    for (const char* a :
         {"169.254.169.254", "fe80::1", "0.0.0.0", "::", "224.0.0.1", "255.255.255.255",
          "240.0.0.1", "ff02::1", "::ffff:169.254.169.254", "192.0.2.1", "2001:db8::1"}) {
        EXPECT_EQ(classify(a), AddressClass::kForbidden) << a;
    }
    EXPECT_EQ(classify("172.32.0.1"), AddressClass::kPublic);
}

TEST(WebhookDestination, RefusesUserInfoAndPlainHttpByDefault) {
    EXPECT_EQ(resolveDestination("http://93.184.216.34/", {}).error().code, "insecure_webhook_url");
    EXPECT_EQ(resolveDestination("https://u:p@93.184.216.34/", {}).error().code,
              "invalid_webhook_url");
    EXPECT_EQ(resolveDestination("https://127.0.0.1/", {}).error().code, "blocked_destination");
    const auto ok = resolveDestination("https://93.184.216.34:8443/hook?x=1", {});
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok->port, 8443);
    EXPECT_EQ(ok->path_and_query, "/hook?x=1");
    EXPECT_EQ(ok->addresses, std::vector<std::string>{"93.184.216.34"});
}

TEST(DeliveryStatus, RoundTrips) {
    for (const char* s : {"pending", "delivering", "delivered", "retrying", "dead_letter"}) {
        ASSERT_TRUE(parseDeliveryStatus(s).has_value()) << s;
        EXPECT_EQ(toString(*parseDeliveryStatus(s)), s);
    }
    EXPECT_FALSE(parseDeliveryStatus("lost").has_value());
}

}  // namespace
}  // namespace docintel::events
