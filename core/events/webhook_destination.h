#pragma once

#include <string>
#include <vector>

#include "plugin_api/result.h"

namespace docintel::events {

/// Which webhook URLs may be used (DOCINTEL_WEBHOOK_ALLOW_HTTP, DOCINTEL_WEBHOOK_ALLOW_PRIVATE).
struct WebhookPolicy {
    bool allow_http = false;     ///< http:// as well as https:// (local receivers)
    bool allow_private = false;  ///< loopback and private ranges
};

/// How the server judges one IP address as a webhook destination.
enum class AddressClass {
    kPublic,
    kPrivate,    ///< loopback, RFC 1918, shared (100.64/10), unique-local IPv6: with the flag
    kForbidden,  ///< link-local (169.254/16, fe80::/10), multicast, unspecified, reserved
};

/// Classifies an address in network byte order (4 or 16 bytes); an IPv4-mapped IPv6 address
/// is judged as its IPv4 address.
AddressClass classifyAddress(const unsigned char* bytes, std::size_t size);

/// A webhook URL taken apart, with the addresses its host resolved to (all allowed).
struct Destination {
    std::string scheme;  ///< http | https
    std::string host;    ///< as written (for Host, SNI and certificate checks)
    unsigned short port = 0;
    std::string path_and_query;
    std::vector<std::string> addresses;  ///< numeric; connect to these, never re-resolve
};

/// Checks `url` against `policy` and resolves its host now: https (or http when allowed), no
/// user-info, and every resolved address allowed — checked again at each delivery, so a name
/// that later resolves elsewhere (DNS rebinding) is refused then. Errors (422-like codes):
/// `invalid_webhook_url`, `insecure_webhook_url`, `blocked_destination`, `unresolvable_host`.
plugin::Result<Destination> resolveDestination(const std::string& url, const WebhookPolicy& policy);

}  // namespace docintel::events
