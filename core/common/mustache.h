#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::common {

/// Renders the subset of Mustache the server's pages use, over a JSON context:
/// `{{name}}` (HTML-escaped), `{{{name}}}` and `{{& name}}` (raw), dotted names, `{{.}}`,
/// sections `{{#name}}...{{/name}}` (a list repeats with each item as the innermost context;
/// an object is pushed; any other truthy value renders once), inverted sections
/// `{{^name}}...{{/name}}` and comments `{{! ...}}`. No partials, lambdas or delimiter
/// changes. A missing name renders as nothing; falsy = missing, null, false, "", 0 or [].
///
/// Fails with `template_error` (500) on an unclosed tag or a mismatched section. Stateless and
/// thread-safe.
plugin::Result<std::string> renderMustache(std::string_view text, const nlohmann::json& context);

/// `&`, `<`, `>`, `"` and `'` as HTML entities.
std::string escapeHtml(std::string_view text);

}  // namespace docintel::common
