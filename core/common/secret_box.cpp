#include "common/secret_box.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "common/base64url.h"
#include "common/secret_file.h"

namespace docintel::common {
namespace {

constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kNonceBytes = 12;
constexpr std::size_t kTagBytes = 16;

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

const unsigned char* bytes(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::shared_ptr<const SecretBox> SecretBox::loadOrCreate(const std::string& path) {
    std::string encoded = readOrCreateSecret(path, [] {
        std::string key(kKeyBytes, '\0');
        if (RAND_bytes(reinterpret_cast<unsigned char*>(key.data()), kKeyBytes) != 1) {
            throw std::runtime_error("RAND_bytes failed");
        }
        return base64UrlEncode(key);
    });
    while (!encoded.empty() && (encoded.back() == '\n' || encoded.back() == '\r')) {
        encoded.pop_back();
    }
    auto key = base64UrlDecode(encoded);
    if (!key || key->size() != kKeyBytes) {
        throw std::runtime_error(path + " does not hold a 32-byte base64url key");
    }
    return std::shared_ptr<const SecretBox>(new SecretBox(std::move(*key)));
}

std::string SecretBox::seal(std::string_view plaintext) const {
    std::string out(kNonceBytes + plaintext.size() + kTagBytes, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    if (RAND_bytes(o, kNonceBytes) != 1) throw std::runtime_error("RAND_bytes failed");
    CipherCtx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int len = 0;
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key_), o) != 1 ||
        EVP_EncryptUpdate(ctx.get(), o + kNonceBytes, &len, bytes(plaintext),
                          static_cast<int>(plaintext.size())) != 1 ||
        EVP_EncryptFinal_ex(ctx.get(), o + kNonceBytes + len, &len) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes,
                            o + kNonceBytes + plaintext.size()) != 1) {
        throw std::runtime_error("AES-256-GCM encryption failed");
    }
    return out;
}

std::optional<std::string> SecretBox::open(std::string_view box) const {
    if (box.size() < kNonceBytes + kTagBytes) return std::nullopt;
    const std::size_t n = box.size() - kNonceBytes - kTagBytes;
    std::string out(n, '\0');
    std::string tag(box.substr(kNonceBytes + n));
    CipherCtx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int len = 0;
    if (!ctx ||
        EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key_), bytes(box)) != 1 ||
        EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len,
                          bytes(box) + kNonceBytes, static_cast<int>(n)) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + len, &len) !=
            1) {
        return std::nullopt;
    }
    return out;
}

}  // namespace docintel::common
