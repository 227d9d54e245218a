#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::common {

/// Renders a mustache template (https://mustache.github.io/mustache.5.html) over JSON data:
/// `{{name}}` (HTML-escaped), `{{{name}}}` and `{{& name}}` (raw), dotted names, `{{.}}`,
/// sections `{{#name}}…{{/name}}` (once per array item, once with an object pushed as the
/// context, once for any other truthy value), inverted sections `{{^name}}…{{/name}}`, and
/// comments `{{! … }}`. Partials and delimiter changes are not supported. Falsy: missing,
/// null, false, "", 0 and empty arrays. Numbers print without a trailing ".0" when whole.
/// A malformed template (unclosed tag or section) is `template_error` (422). Thread-safe.
plugin::Result<std::string> renderMustache(const std::string& tmpl, const nlohmann::json& data);

/// `&`, `<`, `>`, `"` and `'` as HTML entities.
std::string escapeHtml(const std::string& text);

}  // namespace docintel::common
