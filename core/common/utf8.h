#pragma once

#include <string_view>

namespace docintel::common {

/// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF).
bool isValidUtf8(std::string_view text);

}  // namespace docintel::common
