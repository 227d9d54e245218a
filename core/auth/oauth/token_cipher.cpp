#include "auth/oauth/token_cipher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <stdexcept>

#include "common/base64url.h"

namespace docintel::auth::oauth {

std::string sha256Base64Url(std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    return common::base64UrlEncode(std::string_view(reinterpret_cast<char*>(digest), len));
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace docintel::auth::oauth
