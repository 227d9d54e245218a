#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace docintel::common {

/// RFC 4648 §5 base64url without padding.
std::string base64UrlEncode(std::string_view bytes);

/// Decodes base64url (padding optional); nullopt on a character outside the alphabet.
std::optional<std::string> base64UrlDecode(std::string_view text);

}  // namespace docintel::common
