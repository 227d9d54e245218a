#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace docintel::auth::oauth {

/// Outgoing mail for e-mail one-time codes (DOCINTEL_SMTP_*). Plain SMTP with optional
/// AUTH LOGIN; an empty host means mail cannot be sent (MFA logins then fail closed).
struct SmtpSettings {
    std::string host;
    int port = 25;
    std::string from = "docintel@localhost";
    std::string username;
    std::string password;
    int timeout_seconds = 10;
};

/// What the authorization server is and how long things live (docs/oauth.md).
struct OAuthSettings {
    std::string issuer;         ///< {base_url}, no trailing slash
    std::string rest_resource;  ///< {base_url}/api/v1
    std::string mcp_resource;   ///< {mcp_url}
    std::vector<std::string> scopes_supported;
    std::map<std::string, std::string> scope_descriptions;  ///< shown on the consent page
    std::int64_t access_token_ttl = 15 * 60;
    std::int64_t refresh_token_ttl = 30 * 24 * 3600;
    std::int64_t code_ttl = 5 * 60;
    int session_ttl = 15 * 60;  ///< one browser authorization, login to consent
    int mfa_code_ttl = 10 * 60;
    int mfa_max_attempts = 5;
    int lockout_threshold = 5;  ///< failed logins of one e-mail within the window lock it
    int lockout_window_seconds = 15 * 60;
    int login_rate_per_minute = 30;     ///< login/MFA form posts per source address
    int register_rate_per_minute = 20;  ///< registrations per source address
    std::string token_cipher_key_file;  ///< AES-256-GCM key for refresh tokens at rest
    /// The public client of the server's own administration pages (signs in through
    /// /authorize without a consent page; docs/decisions/0013).
    std::string admin_console_client_id = "docintel_admin_console";
    int admin_session_ttl = 60 * 60;  ///< an administrator's page session, then sign in again
    /// The public client of the reviewer console (docs/console.md, decision 0071); first-party
    /// like the administration pages.
    std::string reviewer_console_client_id = "docintel_console";

    /// The server's own page clients skip the consent page and access requests.
    bool firstParty(const std::string& client_id) const {
        return client_id == admin_console_client_id || client_id == reviewer_console_client_id;
    }
    SmtpSettings smtp;
};

/// Space-separated scope text → list (order kept, duplicates dropped) and back.
std::vector<std::string> splitScope(const std::string& scope);
std::string joinScope(const std::vector<std::string>& scopes);
/// Items of `a` that are in `b`, in `a`'s order.
std::vector<std::string> intersect(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b);
/// Items of `a` missing from `b`.
std::vector<std::string> difference(const std::vector<std::string>& a,
                                    const std::vector<std::string>& b);

/// `url` without trailing slashes (resource and issuer comparison).
std::string withoutTrailingSlash(std::string url);

}  // namespace docintel::auth::oauth
