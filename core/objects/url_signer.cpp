#include "objects/url_signer.h"

#include <openssl/crypto.h>

#include <Poco/URI.h>

#include <stdexcept>

#include "common/base64url.h"
#include "common/digest.h"
#include "common/id.h"
#include "common/secret_file.h"

namespace docintel::objects {
namespace {

std::string canonical(const UploadGrant& g) {
    return g.method + "\n" + g.key + "\n" + std::to_string(g.expires) + "\n" + g.content_type +
           "\n" + std::to_string(g.size);
}

std::string encode(const std::string& s, const std::string& reserved) {
    std::string out;
    Poco::URI::encode(s, reserved, out);
    return out;
}

}  // namespace

UrlSigner UrlSigner::fromSecretFile(const std::string& path) {
    std::string secret = common::readOrCreateSecret(path, [] { return common::randomToken(32); });
    if (secret.size() < 32) throw std::runtime_error("bad signing secret " + path);
    return UrlSigner(std::move(secret));
}

std::string UrlSigner::sign(const UploadGrant& grant) const {
    return common::base64UrlEncode(common::hmacSha256(secret_, canonical(grant)));
}

bool UrlSigner::verify(const UploadGrant& grant, const std::string& signature) const {
    const std::string expected = sign(grant);
    return expected.size() == signature.size() &&
           CRYPTO_memcmp(expected.data(), signature.data(), expected.size()) == 0;
}

std::string UrlSigner::url(const std::string& base_url, const UploadGrant& grant) const {
    return base_url + "/objects/" + encode(grant.key, "?#[]@!$&'()*+,;=%") +
           "?expires=" + std::to_string(grant.expires) + "&size=" + std::to_string(grant.size) +
           "&content_type=" + encode(grant.content_type, "?#[]@!$&'()*+,;=/%") +
           "&signature=" + sign(grant);
}

}  // namespace docintel::objects
