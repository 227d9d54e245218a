#include "events/webhook_destination.h"

#include <Poco/URI.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

namespace docintel::events {
namespace {

plugin::Error refused(const std::string& code, const std::string& message) {
    return plugin::Error{code, message, 422};
}

AddressClass classifyV4(const unsigned char* a) {
    const unsigned b0 = a[0], b1 = a[1];
    if (b0 == 0) return AddressClass::kForbidden;                 // this network
    if (b0 == 169 && b1 == 254) return AddressClass::kForbidden;  // link-local
    if (b0 >= 224) return AddressClass::kForbidden;               // multicast, reserved, broadcast
    if (b0 == 192 && b1 == 0 && a[2] == 0) return AddressClass::kForbidden;    // IETF protocol
    if (b0 == 192 && b1 == 0 && a[2] == 2) return AddressClass::kForbidden;    // documentation
    if (b0 == 198 && (b1 == 18 || b1 == 19)) return AddressClass::kForbidden;  // benchmarking
    if (b0 == 198 && b1 == 51 && a[2] == 100) return AddressClass::kForbidden;
    if (b0 == 203 && b1 == 0 && a[2] == 113) return AddressClass::kForbidden;
    if (b0 == 127 || b0 == 10) return AddressClass::kPrivate;
    if (b0 == 172 && (b1 & 0xf0) == 16) return AddressClass::kPrivate;
    if (b0 == 192 && b1 == 168) return AddressClass::kPrivate;
    if (b0 == 100 && (b1 & 0xc0) == 64) return AddressClass::kPrivate;  // shared (CGNAT)
    return AddressClass::kPublic;
}

}  // namespace

AddressClass classifyAddress(const unsigned char* a, std::size_t size) {
    if (size == 4) return classifyV4(a);
    if (size != 16) return AddressClass::kForbidden;
    static const unsigned char kZero[10] = {};
    if (std::memcmp(a, kZero, 10) == 0) {
        if (a[10] == 0xff && a[11] == 0xff) return classifyV4(a + 12);  // IPv4-mapped
        bool zero = true;
        for (int i = 10; i < 15; ++i) zero = zero && a[i] == 0;
        if (zero && a[15] == 1) return AddressClass::kPrivate;  // ::1
        return AddressClass::kForbidden;  // unspecified, IPv4-compatible (deprecated)
    }
    if (a[0] == 0xff) return AddressClass::kForbidden;                           // multicast
    if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) return AddressClass::kForbidden;  // fe80::/10
    if (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0) return AddressClass::kPrivate;    // site-local
    if ((a[0] & 0xfe) == 0xfc) return AddressClass::kPrivate;                    // fc00::/7
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8) {
        return AddressClass::kForbidden;  // documentation
    }
    if (a[0] == 0x20 && a[1] == 0x02) return classifyV4(a + 2);  // 6to4 embeds an IPv4
    if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b) {
        return classifyV4(a + 12);  // NAT64
    }
    if ((a[0] & 0xe0) != 0x20) return AddressClass::kForbidden;  // outside global unicast
    return AddressClass::kPublic;
}

plugin::Result<Destination> resolveDestination(const std::string& url,
                                               const WebhookPolicy& policy) {
    Destination d;
    Poco::URI uri;
    try {
        uri = Poco::URI(url);
    } catch (const std::exception&) {
        return refused("invalid_webhook_url", "webhook_url is not a valid URL");
    }
    d.scheme = uri.getScheme();
    if (d.scheme != "https" && d.scheme != "http") {
        return refused("invalid_webhook_url", "webhook_url must be an https:// URL");
    }
    if (d.scheme == "http" && !policy.allow_http) {
        return refused("insecure_webhook_url", "webhook_url must use https://");
    }
    const auto authority_at = url.find("://");
    const std::string authority =
        authority_at == std::string::npos
            ? std::string()
            : url.substr(authority_at + 3,
                         url.find_first_of("/?#", authority_at + 3) - (authority_at + 3));
    if (!uri.getUserInfo().empty() || authority.find('@') != std::string::npos) {
        return refused("invalid_webhook_url", "webhook_url must not carry user information");
    }
    d.host = uri.getHost();
    if (d.host.empty()) return refused("invalid_webhook_url", "webhook_url has no host");
    if (!uri.getFragment().empty()) {
        return refused("invalid_webhook_url", "webhook_url must not carry a fragment");
    }
    d.port = uri.getPort();
    d.path_and_query = uri.getPathAndQuery();
    if (d.path_and_query.empty()) d.path_and_query = "/";

    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (::getaddrinfo(d.host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
        return refused("unresolvable_host", "the host of webhook_url does not resolve");
    }
    const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owned(found, &::freeaddrinfo);
    for (const addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
        const unsigned char* bytes = nullptr;
        std::size_t size = 0;
        std::array<char, INET6_ADDRSTRLEN> text{};
        if (ai->ai_family == AF_INET) {
            const auto* in = reinterpret_cast<const sockaddr_in*>(ai->ai_addr);
            bytes = reinterpret_cast<const unsigned char*>(&in->sin_addr);
            size = 4;
            ::inet_ntop(AF_INET, &in->sin_addr, text.data(), text.size());
        } else if (ai->ai_family == AF_INET6) {
            const auto* in6 = reinterpret_cast<const sockaddr_in6*>(ai->ai_addr);
            bytes = reinterpret_cast<const unsigned char*>(&in6->sin6_addr);
            size = 16;
            ::inet_ntop(AF_INET6, &in6->sin6_addr, text.data(), text.size());
        } else {
            continue;
        }
        const AddressClass c = classifyAddress(bytes, size);
        if (c == AddressClass::kForbidden ||
            (c == AddressClass::kPrivate && !policy.allow_private)) {
            return refused("blocked_destination",
                           "webhook_url resolves to an address webhooks may not reach");
        }
        const std::string address = text.data();
        if (std::find(d.addresses.begin(), d.addresses.end(), address) == d.addresses.end()) {
            d.addresses.push_back(address);
        }
    }
    if (d.addresses.empty()) {
        return refused("unresolvable_host", "the host of webhook_url does not resolve");
    }
    return d;
}

}  // namespace docintel::events
