#include "server/oauth_settings.h"

#include "http/openapi.h"

namespace docintel::server {

auth::oauth::OAuthSettings oauthSettings(const Config& config) {
    auth::oauth::OAuthSettings s;
    s.issuer = config.issuer();
    s.rest_resource = config.restAudience();
    s.mcp_resource = config.mcp_url;
    for (const auto& [name, description] : http::scopeDescriptions().items()) {
        s.scopes_supported.push_back(name);
        s.scope_descriptions[name] = description.get<std::string>();
    }
    s.token_cipher_key_file = config.keysDir() + "/refresh-token.key";
    s.smtp.host = config.smtp_host;
    s.smtp.port = config.smtp_port;
    s.smtp.from = config.smtp_from;
    s.smtp.username = config.smtp_username;
    s.smtp.password = config.smtp_password;
    return s;
}

}  // namespace docintel::server
