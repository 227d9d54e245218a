#include "objects/url_signer.h"

#include <openssl/crypto.h>
#include <sys/stat.h>

#include <Poco/URI.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/base64url.h"
#include "common/digest.h"
#include "common/id.h"

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
    namespace fs = std::filesystem;
    if (!fs::exists(path)) {
        fs::create_directories(fs::path(path).parent_path());
        const std::string tmp = path + ".tmp";
        {
            std::ofstream out(tmp, std::ios::trunc);
            out << common::randomToken(32);
            if (!out) throw std::runtime_error("cannot write " + tmp);
        }
        ::chmod(tmp.c_str(), 0600);
        fs::rename(tmp, path);
    }
    std::ifstream in(path);
    std::stringstream secret;
    secret << in.rdbuf();
    if (!in || secret.str().size() < 32) throw std::runtime_error("bad signing secret " + path);
    return UrlSigner(secret.str());
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
