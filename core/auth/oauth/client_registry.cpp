#include "auth/oauth/client_registry.h"

#include <Poco/URI.h>

#include "auth/oauth/token_cipher.h"
#include "common/clock.h"
#include "common/id.h"

namespace docintel::auth::oauth {
namespace {

plugin::Error metadataError(const std::string& code, const std::string& why) {
    return {code, why, 400};
}
plugin::Error invalidClient(const std::string& why) { return {"invalid_client", why, 401}; }

bool isLoopbackHost(const std::string& host) {
    return host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "[::1]";
}

struct ParsedUri {
    bool ok = false;
    std::string scheme, host, path, query;
    bool has_fragment = false;
};

ParsedUri parse(const std::string& text) {
    ParsedUri p;
    try {
        Poco::URI uri(text);
        p.scheme = uri.getScheme();
        p.host = uri.getHost();
        p.path = uri.getPath();
        p.query = uri.getRawQuery();
        p.has_fragment = !uri.getFragment().empty() || text.find('#') != std::string::npos;
        p.ok = !p.scheme.empty();
    } catch (const std::exception&) {
        p.ok = false;
    }
    return p;
}

}  // namespace

bool ClientRegistry::redirectUriAllowed(const std::string& uri) {
    if (uri.size() > 2000) return false;
    const ParsedUri p = parse(uri);
    if (!p.ok || p.has_fragment || p.host.empty()) return false;
    if (p.scheme == "https") return true;
    return p.scheme == "http" && isLoopbackHost(p.host);
}

bool ClientRegistry::redirectMatches(const std::vector<std::string>& registered,
                                     const std::string& uri) {
    for (const auto& r : registered) {
        if (r == uri) return true;
    }
    const ParsedUri p = parse(uri);
    if (!p.ok || p.scheme != "http" || !isLoopbackHost(p.host) || p.has_fragment) return false;
    for (const auto& r : registered) {
        const ParsedUri q = parse(r);
        if (q.ok && q.scheme == "http" && q.host == p.host && q.path == p.path &&
            q.query == p.query) {
            return true;
        }
    }
    return false;
}

std::string ClientRegistry::newSecret() { return "dis_" + common::randomToken(32); }

plugin::Result<nlohmann::json> ClientRegistry::registerClient(const nlohmann::json& m) {
    if (!m.is_object()) return metadataError("invalid_client_metadata", "body must be an object");
    const std::string method = m.value("token_endpoint_auth_method", "none");
    if (!m.contains("token_endpoint_auth_method") || !m["token_endpoint_auth_method"].is_string() ||
        method != "none") {
        return metadataError("invalid_client_metadata",
                             "only public clients register here: token_endpoint_auth_method "
                             "must be \"none\" (confidential applications are created by an "
                             "administrator)");
    }
    if (m.contains("client_name") && !m["client_name"].is_string()) {
        return metadataError("invalid_client_metadata", "client_name must be a string");
    }
    std::string name = m.value("client_name", "");
    if (name.size() > 200) name.resize(200);
    if (name.empty()) name = "Unnamed client";
    const auto uris = m.find("redirect_uris");
    if (uris == m.end() || !uris->is_array() || uris->empty() || uris->size() > 10) {
        return metadataError("invalid_redirect_uri", "redirect_uris must list 1 to 10 URIs");
    }
    std::vector<std::string> redirect_uris;
    for (const auto& u : *uris) {
        if (!u.is_string() || !redirectUriAllowed(u.get<std::string>())) {
            return metadataError("invalid_redirect_uri",
                                 "redirect URIs must be https, or http on a loopback host, "
                                 "without a fragment");
        }
        redirect_uris.push_back(u.get<std::string>());
    }
    if (const auto g = m.find("grant_types"); g != m.end()) {
        if (!g->is_array()) {
            return metadataError("invalid_client_metadata", "grant_types must be an array");
        }
        for (const auto& t : *g) {
            if (t != "authorization_code" && t != "refresh_token") {
                return metadataError("invalid_client_metadata",
                                     "public clients may use authorization_code and "
                                     "refresh_token only");
            }
        }
    }
    if (const auto r = m.find("response_types"); r != m.end()) {
        if (!r->is_array() || r->size() != 1 || (*r)[0] != "code") {
            return metadataError("invalid_client_metadata", "response_types must be [\"code\"]");
        }
    }
    const std::string client_id = "dic_" + common::randomToken(18);
    auto client = clients_.createPublic(client_id, name, redirect_uris);
    if (!client) return client.error();
    return nlohmann::json{{"client_id", client_id},
                          {"client_id_issued_at", common::nowEpochSeconds()},
                          {"client_name", name},
                          {"redirect_uris", redirect_uris},
                          {"grant_types", {"authorization_code", "refresh_token"}},
                          {"response_types", {"code"}},
                          {"token_endpoint_auth_method", "none"}};
}

plugin::Result<storage::OAuthClient> ClientRegistry::publicClient(const std::string& client_id) {
    if (client_id.empty() || client_id.size() > 200) return invalidClient("unknown client");
    auto client = clients_.find(client_id);
    if (!client) return client.error();
    if (!client->has_value() || (*client)->kind != "public") {
        return invalidClient("unknown client");
    }
    if ((*client)->disabled) return invalidClient("client disabled");
    return **client;
}

plugin::Result<storage::OAuthClient> ClientRegistry::authenticate(const std::string& client_id,
                                                                  const std::string& secret) {
    if (client_id.empty() || secret.empty() || client_id.size() > 200 || secret.size() > 500) {
        return invalidClient("client authentication failed");
    }
    auto client = clients_.find(client_id);
    if (!client) return client.error();
    if (!client->has_value() || (*client)->kind != "confidential") {
        return invalidClient("client authentication failed");
    }
    auto secrets = clients_.liveSecrets(client_id);
    if (!secrets) return secrets.error();
    const std::string hash = sha256Base64Url(secret);
    bool match = false;
    for (const auto& s : *secrets) match = constantTimeEquals(hash, s.secret_hash) || match;
    if (!match) return invalidClient("client authentication failed");
    if ((*client)->disabled) return invalidClient("application disabled");
    return **client;
}

}  // namespace docintel::auth::oauth
