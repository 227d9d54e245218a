#include "auth/oauth/page_renderer.h"

#include <Poco/URI.h>

#include <map>
#include <string_view>

#include "common/log.h"
#include "common/mustache.h"

namespace docintel::templates {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::auth::oauth {
namespace {

std::string templateText(const std::string& dir, const std::string& name) {
    return embeddedTemplate(dir + "/" + name + ".html.mustache");
}

/// Calls `each(name, value)` for every pair of a form, decoded.
template <typename F>
void forEachPair(const std::string& text, F each) {
    std::size_t start = 0;
    while (start <= text.size()) {
        auto amp = text.find('&', start);
        if (amp == std::string::npos) amp = text.size();
        const std::string pair = text.substr(start, amp - start);
        if (!pair.empty()) {
            const auto eq = pair.find('=');
            each(urlDecode(pair.substr(0, eq)),
                 eq == std::string::npos ? std::string() : urlDecode(pair.substr(eq + 1)));
        }
        start = amp + 1;
    }
}

}  // namespace

std::vector<std::string> pathSegments(const std::string& path, const std::string& prefix) {
    std::vector<std::string> out;
    const std::string rest = path.size() > prefix.size() ? path.substr(prefix.size()) : "";
    std::size_t start = 0;
    while (start < rest.size()) {
        auto slash = rest.find('/', start);
        if (slash == std::string::npos) slash = rest.size();
        if (slash > start) out.push_back(urlDecode(rest.substr(start, slash - start)));
        start = slash + 1;
    }
    return out;
}

std::string urlDecode(std::string s) {
    // Poco turns '+' into a space only after a '?'.
    for (char& c : s) {
        if (c == '+') c = ' ';
    }
    std::string out;
    try {
        Poco::URI::decode(s, out);
    } catch (const std::exception&) {
        return {};
    }
    return out;
}

std::map<std::string, std::string> parseForm(const std::string& text, bool* duplicate) {
    std::map<std::string, std::string> out;
    forEachPair(text, [&](const std::string& name, const std::string& value) {
        if (!out.emplace(name, value).second && duplicate) *duplicate = true;
    });
    return out;
}

std::vector<std::string> formValues(const std::string& text, const std::string& name) {
    std::vector<std::string> out;
    forEachPair(text, [&](const std::string& n, const std::string& value) {
        if (n == name) out.push_back(value);
    });
    return out;
}

std::string cookieValue(const http::RawRequest& r, const std::string& name) {
    auto it = r.headers.find("cookie");
    const std::string all = it == r.headers.end() ? std::string() : it->second;
    std::size_t start = 0;
    while (start < all.size()) {
        auto semi = all.find(';', start);
        if (semi == std::string::npos) semi = all.size();
        std::string item = all.substr(start, semi - start);
        while (!item.empty() && item.front() == ' ') item.erase(0, 1);
        if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
        start = semi + 1;
    }
    return {};
}

void addNoStore(plugin::HttpResponse& r) {
    r.headers.emplace_back("Cache-Control", "no-store");
    r.headers.emplace_back("Pragma", "no-cache");
}

plugin::HttpResponse seeOther(const std::string& location) {
    plugin::HttpResponse r;
    r.status = 303;
    r.content_type = "text/plain";
    r.headers.emplace_back("Location", location);
    addNoStore(r);
    r.headers.emplace_back("Referrer-Policy", "no-referrer");
    return r;
}

std::string formValue(const std::map<std::string, std::string>& form, const std::string& name) {
    auto it = form.find(name);
    return it == form.end() ? std::string() : it->second;
}

std::string embeddedTemplate(const std::string& path) {
    const auto& files = docintel::templates::embeddedFiles();
    auto it = files.find(path);
    return it == files.end() ? std::string() : std::string(it->second);
}

plugin::HttpResponse renderPage(const std::string& page, const nlohmann::json& view, int status,
                                nlohmann::json layout) {
    static const PageFrame oauth{"oauth",
                                 "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' "
                                 "data:; frame-ancestors 'none'; base-uri 'none'"};
    return renderPage(oauth, page, view, status, std::move(layout));
}

plugin::HttpResponse renderPage(const PageFrame& frame, const std::string& page,
                                const nlohmann::json& view, int status, nlohmann::json layout) {
    return renderTemplatePage(frame, page, templateText(frame.dir, page), view, status,
                              std::move(layout));
}

plugin::HttpResponse renderTemplatePage(const PageFrame& frame, const std::string& page,
                                        const std::string& template_text,
                                        const nlohmann::json& view, int status,
                                        nlohmann::json layout) {
    plugin::HttpResponse resp;
    addNoStore(resp);
    resp.headers.emplace_back("Referrer-Policy", "no-referrer");
    auto body = common::renderMustache(template_text, view);
    layout["title"] = view.value("title", "docintel");
    layout["body"] = body ? *body : std::string();
    auto html = body ? common::renderMustache(templateText(frame.dir, "layout"), layout) : body;
    if (!html) {
        common::log(common::LogLevel::kError, "template_error",
                    {{"page", page}, {"what", html.error().message}});
        resp.status = 500;
        resp.content_type = "text/plain";
        resp.raw_body = "internal error";
        return resp;
    }
    resp.status = status;
    resp.content_type = "text/html; charset=utf-8";
    resp.raw_body = *html;
    resp.headers.emplace_back("Content-Security-Policy", frame.csp);
    resp.headers.emplace_back("X-Frame-Options", "DENY");
    resp.headers.emplace_back("X-Content-Type-Options", "nosniff");
    return resp;
}

}  // namespace docintel::auth::oauth
