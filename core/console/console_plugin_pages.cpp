// Plugins' pages in the reviewer console (Registrar::addConsolePage, ABI minor 6): matched under
// `/console/plugins/<plugin>/`, checked against the page's scopes, viewed as the signed-in user
// and rendered inside the console's frame; and the navigation that lists them.

#include "auth/oauth/page_renderer.h"
#include "console/console_pages.h"

namespace docintel::console {
namespace {

/// The parameters of `pattern` ("courses/{course_id}") in `segments`, or nullopt when the
/// page does not match.
std::optional<std::map<std::string, std::string>> match(const std::string& pattern,
                                                        const std::vector<std::string>& segments) {
    const auto parts = auth::oauth::pathSegments(pattern, "");
    if (parts.size() != segments.size()) return std::nullopt;
    std::map<std::string, std::string> params;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        if (p.size() > 2 && p.front() == '{' && p.back() == '}') {
            params[p.substr(1, p.size() - 2)] = segments[i];
        } else if (p != segments[i]) {
            return std::nullopt;
        }
    }
    return params;
}

bool holdsAll(const plugin::Principal& principal, const std::vector<std::string>& scopes) {
    for (const auto& s : scopes) {
        if (!principal.hasScope(s)) return false;
    }
    return true;
}

}  // namespace

plugin::HttpResponse ConsolePages::pluginPage(Context& c, const std::vector<std::string>& seg) {
    const std::string& plugin_name = seg[1];
    const std::vector<std::string> rest(seg.begin() + 2, seg.end());
    if (services_.plugins) {
        for (const auto& entry : services_.plugins->consolePages()) {
            if (entry.plugin != plugin_name) continue;
            auto params = match(entry.page.path, rest);
            if (!params) continue;
            if (!holdsAll(c.principal, entry.page.scopes)) {
                std::string needed;
                for (const auto& s : entry.page.scopes) needed += (needed.empty() ? "" : ", ") + s;
                return message(&c, 403, "Not allowed",
                               "This page needs a sign-in that includes " + needed + ".", false);
            }
            const std::string ws = chosenWorkspace(c.query);
            plugin::HttpRequest request;
            request.method = "GET";
            request.path = c.request.path;
            request.operation_id = "console:" + plugin_name + "/" + entry.page.path;
            request.path_params = std::move(*params);
            request.query = c.query;
            request.principal = c.principal;
            request.workspace_id = serviceWorkspace(ws);
            request.trace_id = c.trace_id;
            auto view = entry.page.view(request);
            if (!view) return errorPage(c, view.error());
            nlohmann::json shown = view->is_object() ? *view : nlohmann::json::object();
            shown["workspace"] = ws;
            return renderText(c, request.operation_id, entry.page.template_text, std::move(shown));
        }
    }
    return message(&c, 404, "Not found", "There is no such console page.", false);
}

nlohmann::json ConsolePages::pluginNavigation(Context& c, const std::string& workspace) {
    nlohmann::json nav = nlohmann::json::array();
    if (!services_.plugins) return nav;
    for (const auto& entry : services_.plugins->consolePages()) {
        if (entry.page.nav.empty() || !holdsAll(c.principal, entry.page.scopes)) continue;
        nav.push_back({{"label", entry.page.nav},
                       {"href", "/console/plugins/" + entry.plugin + "/" + entry.page.path +
                                    "?workspace=" + workspace}});
    }
    return nav;
}

}  // namespace docintel::console
