#include "auth/oauth/oauth_server.h"

#include <Poco/Base64Decoder.h>
#include <Poco/URI.h>

#include <chrono>
#include <map>
#include <sstream>
#include <string_view>

#include "auth/oauth/page_renderer.h"
#include "common/clock.h"
#include "common/log.h"
#include "http/error_mapper.h"
#include "http/json_body.h"

namespace docintel::auth::oauth {
namespace {

constexpr const char* kSessionCookie = "docintel_oauth";

std::string header(const http::RawRequest& r, const std::string& name) {
    auto it = r.headers.find(name);
    return it == r.headers.end() ? std::string() : it->second;
}

plugin::HttpResponse jsonResponse(int status, nlohmann::json body) {
    auto r = plugin::HttpResponse::json(status, std::move(body));
    return r;
}

void noStore(plugin::HttpResponse& r) { addNoStore(r); }

void allowCors(plugin::HttpResponse& r) {
    r.headers.emplace_back("Access-Control-Allow-Origin", "*");
}

/// An RFC 6749 §5.2 error object for an Error whose code is an OAuth error code.
plugin::HttpResponse oauthErrorResponse(const plugin::Error& e, bool basic_auth = false) {
    std::string code = e.code;
    int status = e.http_status;
    if (status >= 500) {
        code = status == 503 ? "temporarily_unavailable" : "server_error";
    }
    nlohmann::json body = {{"error", code}, {"error_description", e.message}};
    if (status >= 500) body["error_description"] = "the server could not complete the request";
    auto r = jsonResponse(status, body);
    if (status == 401) {
        r.headers.emplace_back("WWW-Authenticate",
                               basic_auth ? "Basic realm=\"docintel\"" : "Bearer");
    }
    noStore(r);
    allowCors(r);
    return r;
}

/// Client authentication from HTTP Basic (RFC 6749 §2.3.1) or form fields; `conflict` when
/// both carry a secret.
ClientCredentials credentialsOf(const http::RawRequest& r, const Form& form, bool* conflict) {
    ClientCredentials c;
    const std::string auth = header(r, "authorization");
    if (auth.size() > 6 &&
        (auth.compare(0, 6, "Basic ") == 0 || auth.compare(0, 6, "basic ") == 0)) {
        std::istringstream in(auth.substr(6));
        Poco::Base64Decoder decoder(in);
        std::string decoded;
        try {
            std::getline(decoder, decoded, '\0');
        } catch (const std::exception&) {
            decoded.clear();
        }
        const auto colon = decoded.find(':');
        if (colon != std::string::npos) {
            c.client_id = urlDecode(decoded.substr(0, colon));
            c.client_secret = urlDecode(decoded.substr(colon + 1));
            c.via_basic = true;
        }
    }
    const auto id = form.find("client_id");
    const auto secret = form.find("client_secret");
    if (c.via_basic) {
        if (secret != form.end() || (id != form.end() && id->second != c.client_id)) {
            *conflict = true;
        }
        return c;
    }
    if (id != form.end()) c.client_id = id->second;
    if (secret != form.end()) c.client_secret = secret->second;
    return c;
}

bool isForm(const http::RawRequest& r) {
    return header(r, "content-type").rfind("application/x-www-form-urlencoded", 0) == 0;
}

/// The body and client authentication of a client endpoint (token, revoke, introspect).
struct ClientForm {
    Form form;
    ClientCredentials credentials;
};

/// Reads a client endpoint's form, or the `invalid_request` that refuses it: not a form, a
/// repeated parameter (when `reject_repeats`), or two client authentication methods.
plugin::Result<ClientForm> readClientForm(const http::RawRequest& r, bool reject_repeats) {
    if (!isForm(r)) {
        return plugin::Error{"invalid_request",
                             "the body must be application/x-www-form-urlencoded", 400};
    }
    ClientForm out;
    bool duplicate = false;
    out.form = parseForm(r.body, reject_repeats ? &duplicate : nullptr);
    if (duplicate) return plugin::Error{"invalid_request", "a parameter repeats", 400};
    bool conflict = false;
    out.credentials = credentialsOf(r, out.form, &conflict);
    if (conflict) {
        return plugin::Error{"invalid_request", "use one client authentication method", 400};
    }
    return out;
}

}  // namespace

OAuthServer::OAuthServer(OAuthSettings settings, storage::Database& db, const TokenService& tokens,
                         RevocationList& revocations, storage::UserRepository& users)
    : settings_(std::move(settings)),
      tokens_(tokens),
      client_repository_(db),
      accounts_(db),
      grants_(db),
      mailer_(settings_.smtp),
      clients_(client_repository_),
      register_limiter_(settings_.register_rate_per_minute, 60) {
    token_endpoint_ = std::make_unique<TokenEndpoint>(
        settings_, clients_, accounts_, grants_, tokens, revocations,
        TokenCipher::loadOrCreate(settings_.token_cipher_key_file));
    flow_ = std::make_unique<AuthorizationFlow>(settings_, clients_, accounts_, grants_,
                                                *token_endpoint_, mailer_);
    admin_ = std::make_unique<OAuthAdmin>(settings_, users, accounts_, client_repository_, grants_,
                                          revocations);
    admin_sign_in_ = signIn(AdminPages::signInOptions(settings_));
    admin_pages_ = std::make_unique<AdminPages>(settings_, *admin_, *admin_sign_in_);
}

std::unique_ptr<BrowserSignIn> OAuthServer::signIn(BrowserSignInOptions options) {
    return std::make_unique<BrowserSignIn>(settings_, std::move(options), client_repository_,
                                           accounts_, grants_, *token_endpoint_, tokens_);
}

OAuthServer::~OAuthServer() = default;

nlohmann::json OAuthServer::authorizationServerMetadata() const {
    const std::string& i = settings_.issuer;
    return {
        {"issuer", i},
        {"authorization_endpoint", i + "/authorize"},
        {"token_endpoint", i + "/token"},
        {"registration_endpoint", i + "/register"},
        {"revocation_endpoint", i + "/revoke"},
        {"introspection_endpoint", i + "/introspect"},
        {"jwks_uri", i + "/.well-known/jwks.json"},
        {"scopes_supported", settings_.scopes_supported},
        {"response_types_supported", {"code"}},
        {"response_modes_supported", {"query"}},
        {"grant_types_supported", {"authorization_code", "refresh_token", "client_credentials"}},
        {"code_challenge_methods_supported", {"S256"}},
        {"token_endpoint_auth_methods_supported",
         {"none", "client_secret_basic", "client_secret_post"}},
        {"revocation_endpoint_auth_methods_supported",
         {"none", "client_secret_basic", "client_secret_post"}},
        {"introspection_endpoint_auth_methods_supported",
         {"client_secret_basic", "client_secret_post"}},
        {"authorization_response_iss_parameter_supported", true},
        {"resource_indicators_supported", true},
        {"service_documentation", i + "/openapi.json"}};
}

nlohmann::json OAuthServer::protectedResourceMetadata(const std::string& resource) const {
    const bool mcp = resource == settings_.mcp_resource;
    return {{"resource", resource},
            {"authorization_servers", {settings_.issuer}},
            {"scopes_supported", settings_.scopes_supported},
            {"bearer_methods_supported", {"header"}},
            {"resource_signing_alg_values_supported", {"ES256"}},
            {"resource_name", mcp ? "docintel MCP server" : "docintel REST API"},
            {"resource_documentation", settings_.issuer + "/openapi.json"}};
}

plugin::HttpResponse OAuthServer::mcpResourceMetadataResponse() const {
    auto r = jsonResponse(200, protectedResourceMetadata(settings_.mcp_resource));
    allowCors(r);
    return r;
}

std::optional<plugin::HttpResponse> OAuthServer::handle(const http::RawRequest& request) {
    const std::string& p = request.path;
    const bool ours = p == "/.well-known/oauth-authorization-server" ||
                      p == "/.well-known/oauth-protected-resource/mcp" || p == "/authorize" ||
                      p.rfind("/authorize/", 0) == 0 || p == "/token" || p == "/register" ||
                      p == "/revoke" || p == "/introspect" || p.rfind("/admin/api/", 0) == 0 ||
                      AdminPages::owns(p);
    if (!ours) return std::nullopt;
    const auto started = std::chrono::steady_clock::now();
    const std::string trace_id = http::traceIdFor(request.headers);
    plugin::HttpResponse response;
    try {
        response = route(request, trace_id);
    } catch (const std::exception& e) {
        common::log(common::LogLevel::kError, "unhandled_exception",
                    {{"trace_id", trace_id}, {"what", e.what()}});
        response = oauthErrorResponse(plugin::Error::internal("unexpected"));
    }
    response.headers.emplace_back("X-Trace-Id", trace_id);
    common::log(response.status >= 500 ? common::LogLevel::kError : common::LogLevel::kInfo,
                "http_request",
                {{"method", request.method},
                 {"path", request.path},
                 {"status", std::to_string(response.status)},
                 {"duration_ms", std::to_string(common::millisecondsSince(started))},
                 {"remote_address", request.remote_address},
                 {"trace_id", trace_id}});
    return response;
}

plugin::HttpResponse OAuthServer::route(const http::RawRequest& r, const std::string& trace_id) {
    const std::string& p = r.path;
    if (p.rfind("/admin/api/", 0) == 0) return adminRequest(r, trace_id);
    if (AdminPages::owns(p)) return admin_pages_->handle(r);
    if (r.method == "OPTIONS") {
        plugin::HttpResponse pre;
        pre.status = 204;
        pre.content_type = "text/plain";
        allowCors(pre);
        pre.headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        pre.headers.emplace_back("Access-Control-Allow-Headers",
                                 "Authorization, Content-Type, MCP-Protocol-Version");
        pre.headers.emplace_back("Access-Control-Max-Age", "600");
        return pre;
    }
    const auto wrongMethod = [&](const std::string& allowed) {
        auto resp = oauthErrorResponse({"invalid_request", "use " + allowed, 405});
        resp.headers.emplace_back("Allow", allowed);
        return resp;
    };
    if (p == "/.well-known/oauth-authorization-server") {
        if (r.method != "GET") return wrongMethod("GET");
        auto resp = jsonResponse(200, authorizationServerMetadata());
        allowCors(resp);
        return resp;
    }
    if (p == "/.well-known/oauth-protected-resource/mcp") {
        if (r.method != "GET") return wrongMethod("GET");
        return mcpResourceMetadataResponse();
    }
    if (p == "/token") return r.method == "POST" ? tokenRequest(r) : wrongMethod("POST");
    if (p == "/revoke") return r.method == "POST" ? revokeRequest(r) : wrongMethod("POST");
    if (p == "/introspect") return r.method == "POST" ? introspectRequest(r) : wrongMethod("POST");
    if (p == "/register") return r.method == "POST" ? registerRequest(r) : wrongMethod("POST");
    if (p == "/authorize") {
        if (r.method != "GET") return wrongMethod("GET");
        return page(flow_->start(parseForm(r.query)));
    }
    const std::string session = cookieValue(r, kSessionCookie);
    const Form form = isForm(r) ? parseForm(r.body) : Form{};
    if (r.method != "POST") return wrongMethod("POST");
    if (p == "/authorize/login") return page(flow_->login(session, form, r.remote_address));
    if (p == "/authorize/mfa") return page(flow_->verifyMfa(session, form, r.remote_address));
    if (p == "/authorize/consent") return page(flow_->consent(session, form));
    return oauthErrorResponse({"invalid_request", "no such path", 404});
}

plugin::HttpResponse OAuthServer::tokenRequest(const http::RawRequest& r) {
    auto in = readClientForm(r, true);
    if (!in) return oauthErrorResponse(in.error());
    auto result = token_endpoint_->token(in->form, in->credentials, r.remote_address);
    if (!result) return oauthErrorResponse(result.error(), in->credentials.via_basic);
    auto resp = jsonResponse(200, std::move(result).value());
    noStore(resp);
    allowCors(resp);
    return resp;
}

plugin::HttpResponse OAuthServer::revokeRequest(const http::RawRequest& r) {
    auto in = readClientForm(r, false);
    if (!in) return oauthErrorResponse(in.error());
    if (auto done = token_endpoint_->revoke(in->form, in->credentials); !done) {
        return oauthErrorResponse(done.error(), in->credentials.via_basic);
    }
    plugin::HttpResponse resp;
    resp.status = 200;
    resp.content_type = "text/plain";
    noStore(resp);
    allowCors(resp);
    return resp;
}

plugin::HttpResponse OAuthServer::introspectRequest(const http::RawRequest& r) {
    auto in = readClientForm(r, false);
    if (!in) return oauthErrorResponse(in.error());
    auto result = token_endpoint_->introspect(in->form, in->credentials);
    if (!result) return oauthErrorResponse(result.error(), true);
    auto resp = jsonResponse(200, std::move(result).value());
    noStore(resp);
    return resp;
}

plugin::HttpResponse OAuthServer::registerRequest(const http::RawRequest& r) {
    if (!register_limiter_.take("register:" + r.remote_address, common::nowEpochSeconds())
             .allowed) {
        auto resp = oauthErrorResponse({"invalid_request", "too many registrations", 429});
        resp.headers.emplace_back("Retry-After", "60");
        return resp;
    }
    std::vector<http::ValidationIssue> issues;
    auto parsed = http::parseJsonBody(r.body, {}, nlohmann::json::array(), issues);
    if (!parsed) {
        return oauthErrorResponse({"invalid_client_metadata", "the body must be JSON", 400});
    }
    nlohmann::json body = std::move(*parsed);
    auto result = clients_.registerClient(body);
    if (!result) return oauthErrorResponse(result.error());
    common::log(common::LogLevel::kInfo, "oauth_client_registered",
                {{"client_id", (*result)["client_id"].get<std::string>()},
                 {"remote_address", r.remote_address}});
    auto resp = jsonResponse(201, std::move(result).value());
    noStore(resp);
    allowCors(resp);
    return resp;
}

plugin::HttpResponse OAuthServer::page(const FlowStep& step) const {
    plugin::HttpResponse resp;
    const bool secure = settings_.issuer.rfind("https://", 0) == 0;
    const std::string attrs =
        std::string("; Path=/authorize; HttpOnly; SameSite=Lax") + (secure ? "; Secure" : "");
    if (!step.session_cookie.empty()) {
        resp.headers.emplace_back("Set-Cookie",
                                  std::string(kSessionCookie) + "=" + step.session_cookie + attrs +
                                      "; Max-Age=" + std::to_string(settings_.session_ttl));
    } else if (step.end_session) {
        resp.headers.emplace_back("Set-Cookie",
                                  std::string(kSessionCookie) + "=" + attrs + "; Max-Age=0");
    }
    if (step.page.empty()) {
        noStore(resp);
        resp.headers.emplace_back("Referrer-Policy", "no-referrer");
        resp.status = 303;
        resp.content_type = "text/plain";
        resp.headers.emplace_back("Location", step.location);
        return resp;
    }
    nlohmann::json view = step.view;
    view["issuer"] = settings_.issuer;
    if (!view.contains("title")) view["title"] = "Sign in to docintel";
    auto html = renderPage(step.page, view, step.status);
    html.headers.insert(html.headers.begin(), resp.headers.begin(), resp.headers.end());
    return html;
}

plugin::HttpResponse OAuthServer::adminRequest(const http::RawRequest& r,
                                               const std::string& trace_id) {
    const auto fail = [&](const plugin::Error& e) {
        return http::errorResponse(e, trace_id,
                                   settings_.issuer + "/.well-known/oauth-protected-resource/api");
    };
    const std::string token = http::bearerToken(r.headers);
    if (token.empty()) return fail(plugin::Error::unauthorized("missing bearer token"));
    auto principal = tokens_.verify(token, settings_.rest_resource);
    if (!principal) return fail(principal.error());
    if (auto allowed = admin_->requireAdmin(*principal); !allowed) return fail(allowed.error());

    nlohmann::json body = nlohmann::json::object();
    if (!r.body.empty()) {
        std::vector<http::ValidationIssue> issues;
        auto parsed = http::parseJsonBody(r.body, {}, nlohmann::json::array(), issues);
        if (!parsed) {
            return fail(plugin::Error::badRequest("invalid_request", "the body must be JSON"));
        }
        body = std::move(*parsed);
    }
    const std::string actor = principal->user_id;
    const auto seg = pathSegments(r.path, "/admin/api/");
    const std::string& m = r.method;
    plugin::Result<nlohmann::json> out = plugin::Error::notFound("no such admin route");
    int status = 200;
    if (!seg.empty() && seg[0] == "users") {
        if (seg.size() == 1 && m == "GET") out = admin_->listUsers();
        if (seg.size() == 1 && m == "POST") {
            out = admin_->createUser(body);
            status = 201;
        } else if (seg.size() >= 2) {
            auto user_id = admin_->resolveUser(seg[1]);
            if (!user_id) return fail(user_id.error());
            if (seg.size() == 2 && m == "GET") out = admin_->getUser(*user_id);
            if (seg.size() == 2 && m == "PATCH") out = admin_->updateUser(*user_id, body);
            if (seg.size() == 3 && seg[2] == "scopes" && m == "POST") {
                out = admin_->grantScopes(
                    *user_id, stringList(body.value("scopes", nlohmann::json())), actor);
            }
            if (seg.size() == 4 && seg[2] == "scopes" && seg[3] == "revoke" && m == "POST") {
                out = admin_->revokeScopes(
                    *user_id, stringList(body.value("scopes", nlohmann::json())), actor);
            }
        }
    } else if (!seg.empty() && seg[0] == "access-requests") {
        if (seg.size() == 1 && m == "GET") {
            out = admin_->listAccessRequests(parseForm(r.query)["status"]);
        } else if (seg.size() == 3 && m == "POST") {
            out = admin_->decideAccessRequest(seg[1], seg[2], actor);
        }
    } else if (!seg.empty() && seg[0] == "applications") {
        if (seg.size() == 1 && m == "GET") out = admin_->listApplications();
        if (seg.size() == 1 && m == "POST") {
            out = admin_->createApplication(body, actor);
            status = 201;
        }
        if (seg.size() == 2 && m == "GET") out = admin_->getApplication(seg[1]);
        if (seg.size() == 2 && m == "PATCH") out = admin_->updateApplication(seg[1], body);
        if (seg.size() == 3 && m == "POST" && seg[2] == "workspaces") {
            out = admin_->grantWorkspace(seg[1], body);
        }
        if (seg.size() == 4 && m == "DELETE" && seg[2] == "workspaces") {
            out = admin_->withdrawWorkspace(seg[1], seg[3]);
        }
        if (seg.size() == 3 && m == "POST" && seg[2] == "rotate-secret") {
            const auto overlap = body.value("overlap_seconds", nlohmann::json(86400));
            if (!overlap.is_number_integer()) {
                return fail(plugin::Error::badRequest("invalid_request",
                                                      "overlap_seconds must be an integer"));
            }
            out = admin_->rotateSecret(seg[1], overlap.get<std::int64_t>());
        }
        if (seg.size() == 3 && m == "POST" && (seg[2] == "disable" || seg[2] == "enable")) {
            out = admin_->setApplicationDisabled(seg[1], seg[2] == "disable");
        }
    }
    if (!out) return fail(out.error());
    auto resp = jsonResponse(status, std::move(out).value());
    noStore(resp);
    return resp;
}

}  // namespace docintel::auth::oauth
