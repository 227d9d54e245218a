#pragma once

#include <optional>
#include <string>
#include <vector>

namespace docintel::auth::oauth {

/// An IPv4 or IPv6 network (`10.0.0.0/8`, `2001:db8::/32`; a bare address is a /32 or /128).
/// An IPv4-mapped IPv6 address (`::ffff:127.0.0.2`) matches IPv4 networks. Immutable.
class Cidr {
  public:
    /// Nullopt for text that is not a network.
    static std::optional<Cidr> parse(const std::string& text);

    bool contains(const std::string& address) const;
    std::string toString() const { return text_; }

  private:
    std::vector<unsigned char> network_;  ///< 4 or 16 bytes
    int prefix_ = 0;
    std::string text_;
};

/// True when `address` is inside any of `networks` (space-separated CIDR texts); true for an
/// empty allowlist.
bool addressAllowed(const std::string& networks, const std::string& address);

}  // namespace docintel::auth::oauth
