#include "auth/key_set.h"

#include <fcntl.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "common/base64url.h"
#include "common/clock.h"
#include "common/id.h"

namespace docintel::auth {
namespace {

namespace fs = std::filesystem;

struct PkeyDeleter {
    void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyDeleter>;

PkeyPtr generateKey() {
    PkeyPtr key(EVP_EC_gen("P-256"));
    if (!key) throw std::runtime_error("EC key generation failed");
    return key;
}

std::string bnBytes(EVP_PKEY* key, const char* param) {
    BIGNUM* bn = nullptr;
    if (EVP_PKEY_get_bn_param(key, param, &bn) != 1) throw std::runtime_error("EC key param");
    std::string out(32, '\0');
    BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), 32);
    BN_free(bn);
    return out;
}

}  // namespace

struct KeySet::Key {
    std::string kid;
    PkeyPtr pkey;
    nlohmann::json jwk;
};

KeySet::~KeySet() = default;

std::shared_ptr<KeySet> KeySet::loadOrCreate(const std::string& dir) {
    std::shared_ptr<KeySet> set(new KeySet(dir));
    fs::create_directories(dir);
    ::chmod(dir.c_str(), 0700);
    set->load();
    if (set->keys_.empty()) {
        // Nodes starting at once on a shared data folder must not each create a first key:
        // the first to hold the folder's lock creates it, the others load it.
        struct Locked {
            int fd;
            ~Locked() {
                if (fd >= 0) ::close(fd);  // releases the lock
            }
        } folder{::open(dir.c_str(), O_RDONLY | O_DIRECTORY)};
        if (folder.fd < 0 || ::flock(folder.fd, LOCK_EX) != 0) {
            throw std::runtime_error("cannot lock " + dir);
        }
        set->load();
        if (set->keys_.empty()) set->rotate();
    }
    return set;
}

void KeySet::load() {
    std::map<std::string, std::shared_ptr<const Key>> loaded;
    for (const auto& entry : fs::directory_iterator(dir_)) {
        if (entry.path().extension() != ".pem") continue;
        FILE* f = std::fopen(entry.path().c_str(), "r");
        if (!f) throw std::runtime_error("cannot read key " + entry.path().string());
        PkeyPtr pkey(PEM_read_PrivateKey(f, nullptr, nullptr, nullptr));
        std::fclose(f);
        if (!pkey || EVP_PKEY_get_base_id(pkey.get()) != EVP_PKEY_EC) {
            throw std::runtime_error("not an EC private key: " + entry.path().string());
        }
        auto key = std::make_shared<Key>();
        key->kid = entry.path().stem().string();
        key->jwk = {{"kty", "EC"},
                    {"crv", "P-256"},
                    {"use", "sig"},
                    {"alg", "ES256"},
                    {"kid", key->kid},
                    {"x", common::base64UrlEncode(bnBytes(pkey.get(), OSSL_PKEY_PARAM_EC_PUB_X))},
                    {"y", common::base64UrlEncode(bnBytes(pkey.get(), OSSL_PKEY_PARAM_EC_PUB_Y))}};
        key->pkey = std::move(pkey);
        loaded.emplace(key->kid, std::move(key));
    }
    std::lock_guard lock(mutex_);
    keys_ = std::move(loaded);
}

std::string KeySet::rotate() {
    // kid = UTC timestamp (sortable) + random suffix
    std::string stamp = common::nowIso8601();
    std::erase_if(stamp, [](char c) { return c == '-' || c == ':' || c == '.'; });
    const std::string kid = stamp + "-" + common::randomToken(4);
    PkeyPtr key = generateKey();
    const fs::path path = fs::path(dir_) / (kid + ".pem");
    const fs::path tmp = fs::path(dir_) / (kid + ".pem.tmp");
    const mode_t old_mask = ::umask(077);
    FILE* f = std::fopen(tmp.c_str(), "w");
    ::umask(old_mask);
    if (!f) throw std::runtime_error("cannot write key " + tmp.string());
    const bool ok = PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1;
    std::fclose(f);
    if (!ok) throw std::runtime_error("cannot write key " + tmp.string());
    ::chmod(tmp.c_str(), 0600);
    fs::rename(tmp, path);
    load();
    return kid;
}

std::string KeySet::activeKid() const {
    std::lock_guard lock(mutex_);
    return keys_.empty() ? std::string() : keys_.rbegin()->first;
}

std::shared_ptr<const KeySet::Key> KeySet::keyFor(const std::string& kid) const {
    std::lock_guard lock(mutex_);
    if (kid.empty()) return keys_.empty() ? nullptr : keys_.rbegin()->second;
    auto it = keys_.find(kid);
    return it == keys_.end() ? nullptr : it->second;
}

std::string KeySet::sign(std::string_view data, std::string* kid_out) const {
    const auto key = keyFor({});
    if (!key) throw std::runtime_error("no signing key");
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    std::string der(80, '\0');
    std::size_t der_len = der.size();
    const bool ok =
        EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key->pkey.get()) == 1 &&
        EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(der.data()), &der_len,
                       reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) throw std::runtime_error("ES256 signing failed");
    const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der_len));
    if (!sig) throw std::runtime_error("ES256 signature decoding failed");
    std::string raw(64, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(sig), reinterpret_cast<unsigned char*>(raw.data()), 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
    ECDSA_SIG_free(sig);
    if (kid_out) *kid_out = key->kid;
    return raw;
}

bool KeySet::verify(const std::string& kid, std::string_view data,
                    std::string_view signature) const {
    if (signature.size() != 64 || kid.empty()) return false;
    const auto key = keyFor(kid);
    if (!key) return false;
    ECDSA_SIG* sig = ECDSA_SIG_new();
    BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(signature.data()), 32, nullptr);
    BIGNUM* s =
        BN_bin2bn(reinterpret_cast<const unsigned char*>(signature.data()) + 32, 32, nullptr);
    ECDSA_SIG_set0(sig, r, s);
    unsigned char* der = nullptr;
    const int der_len = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    if (der_len <= 0) return false;
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    const bool ok =
        EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key->pkey.get()) == 1 &&
        EVP_DigestVerify(ctx, der, static_cast<std::size_t>(der_len),
                         reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return ok;
}

nlohmann::json KeySet::jwks() const {
    std::lock_guard lock(mutex_);
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& [kid, key] : keys_) keys.push_back(key->jwk);
    return {{"keys", keys}};
}

}  // namespace docintel::auth
