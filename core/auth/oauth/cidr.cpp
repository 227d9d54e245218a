#include "auth/oauth/cidr.h"

#include <arpa/inet.h>

#include <sstream>

namespace docintel::auth::oauth {
namespace {

/// 4 bytes for IPv4 (also when written IPv4-mapped), 16 for IPv6; empty when not an address.
std::vector<unsigned char> addressBytes(std::string text) {
    if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
        text = text.substr(1, text.size() - 2);
    }
    if (const auto pct = text.find('%'); pct != std::string::npos) text.resize(pct);
    unsigned char buf[16];
    if (inet_pton(AF_INET, text.c_str(), buf) == 1) return {buf, buf + 4};
    if (inet_pton(AF_INET6, text.c_str(), buf) == 1) {
        static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (std::equal(kMapped, kMapped + 12, buf)) return {buf + 12, buf + 16};
        return {buf, buf + 16};
    }
    return {};
}

}  // namespace

std::optional<Cidr> Cidr::parse(const std::string& text) {
    const auto slash = text.find('/');
    Cidr c;
    c.network_ = addressBytes(text.substr(0, slash));
    if (c.network_.empty()) return std::nullopt;
    const int max = static_cast<int>(c.network_.size()) * 8;
    c.prefix_ = max;
    if (slash != std::string::npos) {
        const std::string p = text.substr(slash + 1);
        if (p.empty() || p.size() > 3 || p.find_first_not_of("0123456789") != std::string::npos) {
            return std::nullopt;
        }
        c.prefix_ = std::stoi(p);
        if (c.prefix_ > max) return std::nullopt;
    }
    c.text_ = text;
    return c;
}

bool Cidr::contains(const std::string& address) const {
    const auto a = addressBytes(address);
    if (a.size() != network_.size()) return false;
    int bits = prefix_;
    for (std::size_t i = 0; i < a.size() && bits > 0; ++i, bits -= 8) {
        const unsigned char mask =
            bits >= 8 ? 0xff : static_cast<unsigned char>(0xff << (8 - bits));
        if ((a[i] & mask) != (network_[i] & mask)) return false;
    }
    return true;
}

bool addressAllowed(const std::string& networks, const std::string& address) {
    std::istringstream in(networks);
    std::string item;
    bool any = false;
    while (in >> item) {
        any = true;
        if (auto c = Cidr::parse(item); c && c->contains(address)) return true;
    }
    return !any;
}

}  // namespace docintel::auth::oauth
