#pragma once

#include <string>
#include <string_view>

#include "common/secret_box.h"

namespace docintel::auth::oauth {

/// SHA-256 of `data`, base64url without padding (PKCE S256, and the lookup hash of codes,
/// refresh tokens, session cookies and client secrets — all high-entropy random values).
std::string sha256Base64Url(std::string_view data);

/// Compares in time independent of where the inputs differ.
bool constantTimeEquals(std::string_view a, std::string_view b);

/// Refresh tokens are sealed at rest with the server's secret box (common/secret_box.h).
using TokenCipher = common::SecretBox;

}  // namespace docintel::auth::oauth
