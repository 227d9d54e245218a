#include "auth/oauth/token_cipher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <stdexcept>

#include "common/base64url.h"
#include "common/digest.h"

namespace docintel::auth::oauth {

std::string sha256Base64Url(std::string_view data) {
    return common::base64UrlEncode(common::sha256(data));
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace docintel::auth::oauth
