#pragma once

#include "auth/oauth/oauth_settings.h"
#include "server/config.h"

namespace docintel::server {

/// The authorization server's settings from the server configuration: issuer and the two
/// resources from the (resolved) URLs, every scope of spec §5.4, the refresh-token key file
/// under the keys directory, and DOCINTEL_SMTP_*.
auth::oauth::OAuthSettings oauthSettings(const Config& config);

}  // namespace docintel::server
