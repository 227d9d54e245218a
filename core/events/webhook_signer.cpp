#include "events/webhook_signer.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "common/digest.h"

namespace docintel::events {
namespace {

constexpr std::string_view kSecretPrefix = "whsec_";

/// RFC 4648 §4 base64 with padding (the Standard Webhooks encoding).
std::string base64(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

/// The key bytes of a `whsec_` secret (its base64 part decoded); the text itself otherwise.
std::string standardKey(std::string_view secret) {
    if (!secret.starts_with(kSecretPrefix)) return std::string(secret);
    const std::string_view encoded = secret.substr(kSecretPrefix.size());
    std::string out(3 * (encoded.size() / 4) + 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(encoded.data()),
                                  static_cast<int>(encoded.size()));
    if (n < 0) return std::string(secret);
    std::size_t len = static_cast<std::size_t>(n);
    // EVP_DecodeBlock counts padding as zero bytes.
    for (std::size_t i = encoded.size(); i > 0 && encoded[i - 1] == '='; --i) --len;
    out.resize(len);
    return out;
}

}  // namespace

std::string WebhookSigner::newSecret() {
    unsigned char key[32];
    if (RAND_bytes(key, sizeof key) != 1) throw std::runtime_error("RAND_bytes failed");
    return std::string(kSecretPrefix) +
           base64(std::string_view(reinterpret_cast<char*>(key), sizeof key));
}

std::string WebhookSigner::standardSignature(std::string_view secret, std::string_view message_id,
                                             long long timestamp, std::string_view body) {
    std::string message;
    message.reserve(message_id.size() + body.size() + 24);
    message.append(message_id).append(".").append(std::to_string(timestamp)).append(".");
    message.append(body);
    return "v1," + base64(common::hmacSha256(standardKey(secret), message));
}

std::string WebhookSigner::docintelSignature(std::string_view secret, long long timestamp,
                                             std::string_view body) {
    std::string message = std::to_string(timestamp) + ".";
    message.append(body);
    return "v1=" + common::toHex(common::hmacSha256(secret, message));
}

std::vector<std::pair<std::string, std::string>> WebhookSigner::headers(
    const std::vector<std::string>& secrets, std::string_view message_id, long long timestamp,
    std::string_view body) {
    std::string standard, docintel;
    for (const auto& secret : secrets) {
        if (!standard.empty()) standard += ' ';
        standard += standardSignature(secret, message_id, timestamp, body);
        if (!docintel.empty()) docintel += ',';
        docintel += docintelSignature(secret, timestamp, body);
    }
    return {{"webhook-signature", standard}, {"X-DocIntel-Signature", docintel}};
}

}  // namespace docintel::events
