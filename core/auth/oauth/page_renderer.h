#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "http/api_dispatcher.h"
#include "plugin_api/http_types.h"

namespace docintel::auth::oauth {

/// The HTML response of a server-rendered page: `templates/oauth/<page>.html.mustache` over
/// `view`, inside `layout.html.mustache` (whose view is `layout` plus `title` — the view's, or
/// "docintel" — and the rendered `body`). Sent with `Cache-Control: no-store`, a CSP that
/// allows no script, `X-Frame-Options: DENY`, `nosniff` and `Referrer-Policy: no-referrer`.
/// A template that fails to render is logged and answers a plain 500.
plugin::HttpResponse renderPage(const std::string& page, const nlohmann::json& view, int status,
                                nlohmann::json layout = nlohmann::json::object());

/// Where another family of pages keeps its templates (`templates/<dir>/`, with its own
/// `layout.html.mustache`) and the Content-Security-Policy it is sent with.
struct PageFrame {
    std::string dir;
    std::string csp;
};

/// renderPage for the pages of `frame`, with the same headers and the frame's CSP.
plugin::HttpResponse renderPage(const PageFrame& frame, const std::string& page,
                                const nlohmann::json& view, int status, nlohmann::json layout);

/// renderPage with the body's template given as text (a plugin's console page); `page` names it
/// in logs.
plugin::HttpResponse renderTemplatePage(const PageFrame& frame, const std::string& page,
                                        const std::string& template_text,
                                        const nlohmann::json& view, int status,
                                        nlohmann::json layout);

/// An embedded file of `templates/` ("" when there is none).
std::string embeddedTemplate(const std::string& path);

/// `Cache-Control: no-store` and `Pragma: no-cache`.
void addNoStore(plugin::HttpResponse& response);

/// 303 See Other to `location`, not stored, sending no referrer: where a page's POST (or a
/// page needing a session) sends the browser next.
plugin::HttpResponse seeOther(const std::string& location);

/// The value of `name` in a parsed form or query, "" when absent.
std::string formValue(const std::map<std::string, std::string>& form, const std::string& name);

/// Percent-decoding with '+' as a space; "" when malformed.
std::string urlDecode(std::string s);

/// The percent-decoded, non-empty path segments after `prefix`:
/// pathSegments("/admin/api/users/x/scopes", "/admin/api/") → {"users","x","scopes"}.
std::vector<std::string> pathSegments(const std::string& path, const std::string& prefix);

/// application/x-www-form-urlencoded (or a query string) as name → first value. A repeated
/// name makes `duplicate` true (RFC 6749 §3.1: parameters must not repeat).
std::map<std::string, std::string> parseForm(const std::string& text, bool* duplicate = nullptr);

/// Every value of `name` in a form (checkbox groups), in order.
std::vector<std::string> formValues(const std::string& text, const std::string& name);

/// The value of cookie `name` in the request ("" when absent).
std::string cookieValue(const http::RawRequest& request, const std::string& name);

}  // namespace docintel::auth::oauth
