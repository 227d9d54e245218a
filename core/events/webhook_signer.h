#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docintel::events {

/// Signing secrets and the two signature schemes a delivery carries (docs/events.md):
///
/// - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
///   keyed by the base64-decoded part of the `whsec_` secret, so receivers verify with the
///   specification's published libraries;
/// - the original service's `X-DocIntel-Signature: v1=<hex HMAC-SHA256 of "{timestamp}.{body}">`
///   keyed by the whole secret text.
///
/// During a rotation's grace period both secrets sign: the values are space- (Standard
/// Webhooks) or comma-separated (X-DocIntel). Stateless; thread-safe.
class WebhookSigner {
  public:
    /// `whsec_` + base64 of 32 random bytes. Throws std::runtime_error when the RNG fails.
    static std::string newSecret();

    /// The signature headers of one delivery, newest secret first.
    static std::vector<std::pair<std::string, std::string>> headers(
        const std::vector<std::string>& secrets, std::string_view message_id, long long timestamp,
        std::string_view body);

    /// `v1,<base64>` of the Standard Webhooks scheme.
    static std::string standardSignature(std::string_view secret, std::string_view message_id,
                                         long long timestamp, std::string_view body);
    /// `v1=<hex>` of the X-DocIntel scheme.
    static std::string docintelSignature(std::string_view secret, long long timestamp,
                                         std::string_view body);
};

}  // namespace docintel::events
