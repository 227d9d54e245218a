#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace docintel::common {

/// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF).
bool isValidUtf8(std::string_view text);

/// The length of the well-formed UTF-8 sequence that starts at `text[at]` (1..4), or 0 when
/// none does there (a stray continuation byte, an overlong form, a surrogate, a cut sequence).
std::size_t utf8SequenceAt(std::string_view text, std::size_t at);

/// The code points of `text`; a byte that starts no well-formed sequence is dropped.
std::u32string codePoints(std::string_view text);

/// Appends `cp` as UTF-8; a surrogate or a value above U+10FFFF becomes U+FFFD.
void appendUtf8(std::string& out, char32_t cp);

/// `text` with every byte that starts no well-formed sequence replaced by `replacement`, and
/// NUL too when `replace_nul` (Postgres text cannot hold it).
std::string toValidUtf8(std::string_view text, char replacement = '?', bool replace_nul = true);

}  // namespace docintel::common
