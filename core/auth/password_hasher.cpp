#include "auth/password_hasher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <stdexcept>
#include <vector>

#include "common/base64url.h"
#include "common/id.h"

namespace docintel::auth {
namespace {

std::string derive(const std::string& password, const std::string& salt, int iterations) {
    std::string out(32, '\0');
    if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                          reinterpret_cast<const unsigned char*>(salt.data()),
                          static_cast<int>(salt.size()), iterations, EVP_sha256(),
                          static_cast<int>(out.size()),
                          reinterpret_cast<unsigned char*>(out.data())) != 1) {
        throw std::runtime_error("PBKDF2 failed");
    }
    return out;
}

}  // namespace

std::string PasswordHasher::hash(const std::string& password, int iterations) {
    const std::string salt = common::randomToken(16);
    return "pbkdf2_sha256$" + std::to_string(iterations) + "$" + salt + "$" +
           common::base64UrlEncode(derive(password, salt, iterations));
}

bool PasswordHasher::verify(const std::string& password, const std::string& stored) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto dollar = stored.find('$', start);
        parts.push_back(
            stored.substr(start, dollar == std::string::npos ? dollar : dollar - start));
        if (dollar == std::string::npos) break;
        start = dollar + 1;
    }
    if (parts.size() != 4 || parts[0] != "pbkdf2_sha256") return false;
    int iterations = 0;
    try {
        iterations = std::stoi(parts[1]);
    } catch (const std::exception&) {
        return false;
    }
    const auto expected = common::base64UrlDecode(parts[3]);
    if (iterations < 1000 || !expected || expected->size() != 32) return false;
    const std::string actual = derive(password, parts[2], iterations);
    return CRYPTO_memcmp(actual.data(), expected->data(), 32) == 0;
}

}  // namespace docintel::auth
