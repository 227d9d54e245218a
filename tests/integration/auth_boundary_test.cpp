// The REST authentication boundary: every way a bearer token can be wrong is refused on a
// write (POST /api/v1/workspaces) with 401 invalid_token — or 403 insufficient_scope for a
// token that lacks the scope — before anything is written; plus the discovery documents a
// client needs to get a good token (JWKS, protected-resource metadata).

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "auth/key_set.h"
#include "auth/token_service.h"
#include "common/base64url.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

constexpr const char* kName = "should not exist";
constexpr const char* kBody = R"({"name":"should not exist"})";

/// A compact JWS split into its three base64url parts.
struct Jws {
    std::string header;
    std::string payload;
    std::string signature;

    static Jws split(const std::string& token) {
        const auto dot1 = token.find('.');
        const auto dot2 = token.find('.', dot1 + 1);
        return {token.substr(0, dot1), token.substr(dot1 + 1, dot2 - dot1 - 1),
                token.substr(dot2 + 1)};
    }
    nlohmann::json headerJson() const {
        return nlohmann::json::parse(*common::base64UrlDecode(header));
    }
    nlohmann::json payloadJson() const {
        return nlohmann::json::parse(*common::base64UrlDecode(payload));
    }
};

std::string encodeJson(const nlohmann::json& j) { return common::base64UrlEncode(j.dump()); }

std::string hmacSha256(const std::string& secret, const std::string& data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int out_len = 0;
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &out_len);
    return std::string(reinterpret_cast<const char*>(out), out_len);
}

class AuthBoundary : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        user_id_ = new std::string(server_->createUser("boundary@example.com"));
        keys_ = new std::shared_ptr<auth::KeySet>(
            auth::KeySet::loadOrCreate(server_->dataDir() + "/keys"));
    }
    static void TearDownTestSuite() {
        delete keys_;
        delete user_id_;
        delete server_;
    }

    static TestServer& server() { return *server_; }
    static const std::string& userId() { return *user_id_; }
    static std::string restAudience() { return server_->baseUrl() + "/api/v1"; }
    static std::string resourceMetadataUrl() {
        return server_->baseUrl() + "/.well-known/oauth-protected-resource/api";
    }

    /// A token the server accepts for every operation.
    static std::string goodToken(std::string* jti = nullptr) {
        return server_->token(userId(), TestServer::allScopes(), 600, false, 0, jti);
    }

    /// `header` and `payload` signed ES256 with the server's own active key: a token whose only
    /// defects are the ones the caller put into header or payload.
    static std::string signWithServerKey(const nlohmann::json& header,
                                         const nlohmann::json& payload) {
        const std::string input = encodeJson(header) + "." + encodeJson(payload);
        return input + "." + common::base64UrlEncode((*keys_)->sign(input, nullptr));
    }

    static Response createWorkspace(const std::string& token) {
        return server_->request("POST", "/api/v1/workspaces", kBody, token);
    }

    static Response createWorkspaceWithAuthorization(const std::string& authorization) {
        return server_->request("POST", "/api/v1/workspaces", kBody, {},
                                {{"Authorization", authorization}});
    }

    static void expectError(const Response& r, int status, const std::string& code) {
        EXPECT_EQ(r.status, status) << r.body;
        const auto body = r.json();
        ASSERT_TRUE(body.is_object()) << r.body;
        EXPECT_EQ(body.value("code", ""), code) << r.body;
        EXPECT_TRUE(body["detail"].is_string() && !body["detail"].get<std::string>().empty())
            << r.body;
        EXPECT_TRUE(body["trace_id"].is_string() && !body["trace_id"].get<std::string>().empty())
            << r.body;
        EXPECT_EQ(body.value("trace_id", ""), r.header("x-trace-id"));
    }

    /// 401 invalid_token for `reason` (part of the detail), with a Bearer challenge that
    /// repeats the detail and points at the resource metadata.
    static void expectInvalidToken(const Response& r, const std::string& reason = {}) {
        expectError(r, 401, "invalid_token");
        const std::string detail = r.json().value("detail", "");
        EXPECT_NE(detail.find(reason), std::string::npos) << detail;
        const std::string challenge = r.header("www-authenticate");
        EXPECT_EQ(challenge.rfind("Bearer ", 0), 0u) << challenge;
        EXPECT_NE(challenge.find("error=\"invalid_token\""), std::string::npos) << challenge;
        EXPECT_NE(challenge.find("error_description=\"" + detail + "\""), std::string::npos)
            << challenge;
        EXPECT_NE(challenge.find("resource_metadata=\"" + resourceMetadataUrl() + "\""),
                  std::string::npos)
            << challenge;
    }

    static void expectNothingWritten() {
        EXPECT_EQ(server_->db().scalar(
                      std::string("SELECT count(*) FROM workspaces WHERE name = '") + kName + "'"),
                  "0");
    }

    static TestServer* server_;
    static std::string* user_id_;
    static std::shared_ptr<auth::KeySet>* keys_;
};
TestServer* AuthBoundary::server_ = nullptr;
std::string* AuthBoundary::user_id_ = nullptr;
std::shared_ptr<auth::KeySet>* AuthBoundary::keys_ = nullptr;

// The control for every refusal below: the same request with a good token writes.
TEST_F(AuthBoundary, AGoodTokenCreatesAWorkspace) {
    const auto r = server().request("POST", "/api/v1/workspaces",
                                    R"({"name":"created with a good token"})", goodToken());
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(r.json()["name"], "created with a good token");
    EXPECT_EQ(server().db().scalar(
                  "SELECT count(*) FROM workspaces WHERE name = 'created with a good token'"),
              "1");
}

TEST_F(AuthBoundary, ATokenReSignedWithTheServerKeyIsAccepted) {
    // Proves signWithServerKey yields valid tokens, so the typ and kid cases below fail for
    // the one claim they change.
    const Jws good = Jws::split(goodToken());
    const auto r = server().get("/api/v1/workspaces",
                                signWithServerKey(good.headerJson(), good.payloadJson()));
    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(AuthBoundary, NoAuthorizationHeaderIsRefused) {
    const auto r = createWorkspace({});
    expectInvalidToken(r, "missing bearer token");
    expectNothingWritten();
}

TEST_F(AuthBoundary, ANonBearerOrEmptyAuthorizationIsRefused) {
    for (const std::string authorization :
         {"Basic Ym91bmRhcnlAZXhhbXBsZS5jb206Y29ycmVjdCBob3JzZQ==", "Bearer", "Bearer    ",
          "Bearer not-a-jwt", "Bearer a.b.c"}) {
        SCOPED_TRACE(authorization);
        expectInvalidToken(createWorkspaceWithAuthorization(authorization));
    }
    expectNothingWritten();
}

TEST_F(AuthBoundary, AnExpiredTokenIsRefused) {
    const auto r = createWorkspace(server().token(userId(), TestServer::allScopes(), -120));
    expectInvalidToken(r, "token expired");
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATokenNotYetValidIsRefused) {
    const auto r =
        createWorkspace(server().token(userId(), TestServer::allScopes(), 7200, false, 3600));
    expectInvalidToken(r, "token not yet valid");
    expectNothingWritten();
}

TEST_F(AuthBoundary, AnMcpAudienceTokenIsRefused) {
    const auto r = createWorkspace(server().token(userId(), TestServer::allScopes(), 600, true));
    expectInvalidToken(r, "another audience");
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATokenFromAnotherIssuerIsRefused) {
    auth::TokenService evil(auth::KeySet::loadOrCreate(server().dataDir() + "/keys"),
                            "http://evil.example", nullptr);
    auth::TokenClaims claims;
    claims.subject = userId();
    claims.scopes = TestServer::allScopes();
    claims.audience = restAudience();
    claims.ttl_seconds = 600;
    const std::string token = evil.mint(claims);
    ASSERT_EQ(Jws::split(token).payloadJson()["iss"], "http://evil.example");

    expectInvalidToken(createWorkspace(token), "wrong token issuer");
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATamperedSignatureIsRefused) {
    Jws jws = Jws::split(goodToken());
    char& c = jws.signature[10];  // a middle character: all six of its bits are significant
    c = c == 'A' ? 'B' : 'A';
    const auto r = createWorkspace(jws.header + "." + jws.payload + "." + jws.signature);
    expectInvalidToken(r, "bad token signature");
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATamperedPayloadIsRefused) {
    const Jws jws = Jws::split(goodToken());
    auto payload = jws.payloadJson();
    payload["sub"] = server().createUser("impostor@example.com");
    const auto r = createWorkspace(jws.header + "." + encodeJson(payload) + "." + jws.signature);
    expectInvalidToken(r, "bad token signature");
    expectNothingWritten();
}

TEST_F(AuthBoundary, AnUnsignedAlgNoneTokenIsRefused) {
    const Jws jws = Jws::split(goodToken());
    const std::string token =
        encodeJson({{"alg", "none"}, {"typ", "at+jwt"}}) + "." + jws.payload + ".";
    expectInvalidToken(createWorkspace(token), "algorithm not accepted");
    expectNothingWritten();
}

TEST_F(AuthBoundary, AnHs256TokenKeyedWithThePublicKeyIsRefused) {
    const Jws jws = Jws::split(goodToken());
    const std::string kid = jws.headerJson()["kid"];
    const auto jwks = server().get("/.well-known/jwks.json").json();
    std::string x;
    for (const auto& key : jwks["keys"]) {
        if (key["kid"] == kid) x = key["x"];
    }
    ASSERT_FALSE(x.empty());
    for (const std::string& secret : {x, *common::base64UrlDecode(x), std::string("secret")}) {
        const std::string input =
            encodeJson({{"alg", "HS256"}, {"typ", "at+jwt"}, {"kid", kid}}) + "." + jws.payload;
        const std::string token = input + "." + common::base64UrlEncode(hmacSha256(secret, input));
        expectInvalidToken(createWorkspace(token), "algorithm not accepted");
    }
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATokenOfTypeJwtIsRefused) {
    const Jws jws = Jws::split(goodToken());
    auto header = jws.headerJson();
    header["typ"] = "JWT";
    expectInvalidToken(createWorkspace(signWithServerKey(header, jws.payloadJson())),
                       "not an access token");
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATokenWithAnUnknownKidIsRefused) {
    const Jws jws = Jws::split(goodToken());
    for (const nlohmann::json& kid : {nlohmann::json("20000101T000000Z-unknown"),
                                      nlohmann::json(""), nlohmann::json(nullptr)}) {
        SCOPED_TRACE(kid.dump());
        auto header = jws.headerJson();
        if (kid.is_null()) {
            header.erase("kid");
        } else {
            header["kid"] = kid;
        }
        expectInvalidToken(createWorkspace(signWithServerKey(header, jws.payloadJson())),
                           "bad token signature");
    }
    expectNothingWritten();
}

TEST_F(AuthBoundary, ATokenWithoutTheScopeIsForbiddenNamingTheScope) {
    const std::string token = server().token(userId(), {"workspaces:read"});
    ASSERT_EQ(server().get("/api/v1/workspaces", token).status, 200) << "the token itself is good";

    const auto r = createWorkspace(token);
    expectError(r, 403, "insufficient_scope");
    EXPECT_NE(r.json().value("detail", "").find("workspaces:write"), std::string::npos) << r.body;
    const std::string challenge = r.header("www-authenticate");
    EXPECT_EQ(challenge.rfind("Bearer ", 0), 0u) << challenge;
    EXPECT_NE(challenge.find("error=\"insufficient_scope\""), std::string::npos) << challenge;
    EXPECT_NE(challenge.find("resource_metadata=\"" + resourceMetadataUrl() + "\""),
              std::string::npos)
        << challenge;
    expectNothingWritten();
}

TEST_F(AuthBoundary, ARevokedTokenIsRefusedEvenOnceCached) {
    std::string jti;
    const std::string token = goodToken(&jti);
    ASSERT_FALSE(jti.empty());
    ASSERT_EQ(server().get("/api/v1/workspaces", token).status, 200) << "verified and cached";

    server().revoke(jti);
    // The server re-reads revocations about once a second.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    Response r = server().get("/api/v1/workspaces", token);
    while (r.status == 200 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        r = server().get("/api/v1/workspaces", token);
    }
    expectInvalidToken(r, "token revoked");

    expectInvalidToken(createWorkspace(token), "token revoked");
    expectNothingWritten();
    EXPECT_EQ(server().get("/api/v1/workspaces", goodToken()).status, 200)
        << "revoking one token leaves the user's other tokens working";
}

TEST_F(AuthBoundary, JwksPublishesTheSigningKeyWithoutPrivateParts) {
    const std::string kid = Jws::split(goodToken()).headerJson()["kid"];
    EXPECT_EQ(Jws::split(goodToken()).headerJson()["alg"], "ES256");

    const auto r = server().get("/.well-known/jwks.json");
    ASSERT_EQ(r.status, 200) << r.body;
    const auto jwks = r.json();
    ASSERT_TRUE(jwks["keys"].is_array());
    ASSERT_FALSE(jwks["keys"].empty());
    std::set<std::string> kids;
    for (const auto& key : jwks["keys"]) {
        SCOPED_TRACE(key.dump());
        kids.insert(key.value("kid", ""));
        EXPECT_EQ(key.value("kty", ""), "EC");
        EXPECT_EQ(key.value("crv", ""), "P-256");
        EXPECT_FALSE(key.contains("d")) << "a private key parameter is published";
        EXPECT_EQ(common::base64UrlDecode(key.value("x", "")).value_or("").size(), 32u);
        EXPECT_EQ(common::base64UrlDecode(key.value("y", "")).value_or("").size(), 32u);
    }
    EXPECT_TRUE(kids.count(kid)) << "the kid of a minted token is not in the JWKS";
}

TEST_F(AuthBoundary, KeyFilesAreReadableByTheOwnerOnly) {
    namespace fs = std::filesystem;
    int files = 0;
    for (const auto& entry : fs::directory_iterator(server().dataDir() + "/keys")) {
        if (!entry.is_regular_file()) continue;
        ++files;
        struct stat st {};
        ASSERT_EQ(::stat(entry.path().c_str(), &st), 0);
        EXPECT_EQ(st.st_mode & 0777, 0600u) << entry.path();
    }
    EXPECT_GT(files, 0);
}

TEST_F(AuthBoundary, ProtectedResourceMetadataNamesTheResourceAndIssuer) {
    const auto r = server().get(
        "/.well-known/oauth-protected-resource/api");  // the URL a 401 points at, no token
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(server().baseUrl() + "/.well-known/oauth-protected-resource/api",
              resourceMetadataUrl());
    const auto doc = r.json();
    EXPECT_EQ(doc.value("resource", ""), restAudience());
    ASSERT_TRUE(doc["authorization_servers"].is_array()) << r.body;
    bool has_issuer = false;
    for (const auto& s : doc["authorization_servers"]) has_issuer |= s == server().baseUrl();
    EXPECT_TRUE(has_issuer) << r.body;
    EXPECT_EQ(Jws::split(goodToken()).payloadJson()["iss"], server().baseUrl())
        << "the issuer a token carries is the one the metadata names";
}

}  // namespace
}  // namespace docintel::test
