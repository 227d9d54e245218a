#include "console/console_pages.h"

#include <Poco/URI.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "auth/oauth/page_renderer.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/metrics.h"

namespace docintel::console {
namespace {

using auth::oauth::cookieValue;
using auth::oauth::formValue;
using auth::oauth::parseForm;
using auth::oauth::pathSegments;
using auth::oauth::seeOther;

/// Only this server's own stylesheet and images; no script, no inline style, no framing.
const auth::oauth::PageFrame& frame() {
    static const auth::oauth::PageFrame f{
        "console",
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; "
        "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"};
    return f;
}

/// A static file of templates/console/ with a long cache lifetime.
plugin::HttpResponse asset(const std::string& name, const std::string& content_type) {
    plugin::HttpResponse r;
    const std::string text = auth::oauth::embeddedTemplate("console/" + name);
    if (text.empty()) {
        r.status = 404;
        r.content_type = "text/plain";
        r.raw_body = "not found";
        return r;
    }
    r.status = 200;
    r.content_type = content_type;
    r.raw_body = text;
    r.headers.emplace_back("Cache-Control", "public, max-age=3600");
    r.headers.emplace_back("X-Content-Type-Options", "nosniff");
    return r;
}

plugin::HttpResponse fileResponse(const std::string& path, const std::string& content_type,
                                  const std::string& disposition) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    plugin::HttpResponse r;
    r.status = in ? 200 : 404;
    r.content_type = in ? content_type : "text/plain";
    r.raw_body = in ? bytes.str() : std::string("not found");
    r.headers.emplace_back("Cache-Control", "private, no-store");
    r.headers.emplace_back("X-Content-Type-Options", "nosniff");
    r.headers.emplace_back("Content-Security-Policy", "default-src 'none'; sandbox");
    if (!disposition.empty()) r.headers.emplace_back("Content-Disposition", disposition);
    return r;
}

const char* const kStatuses[] = {"pending_review", "changes_requested", "approved", "running",
                                 "failed"};

}  // namespace

std::string ageText(const std::string& iso) {
    const std::int64_t at = common::epochSecondsFromIso(iso);
    if (at < 0) return {};
    const std::int64_t age = common::nowEpochSeconds() - at;
    if (age < 60) return "just now";
    if (age < 3600) return std::to_string(age / 60) + " min";
    if (age < 86400) return std::to_string(age / 3600) + " h";
    return std::to_string(age / 86400) + (age < 2 * 86400 ? " day" : " days");
}

std::string workspaceOf(const nlohmann::json& resource) {
    const auto it = resource.find("workspace_id");
    return it != resource.end() && it->is_string() ? it->get<std::string>()
                                                   : std::string("personal");
}

std::string chosenWorkspace(const std::map<std::string, std::string>& params) {
    const std::string ws = formValue(params, "workspace");
    return ws.empty() ? "personal" : ws;
}

std::string statusLabel(const std::string& status) {
    if (status == "pending_review") return "Waiting for review";
    if (status == "changes_requested") return "Changes requested";
    if (status == "approved") return "Approved";
    if (status == "running") return "Running";
    if (status == "failed") return "Failed";
    return status;
}

ConsolePages::ConsolePages(ConsoleServices services,
                           std::unique_ptr<auth::oauth::BrowserSignIn> sign_in,
                           std::string cache_dir)
    : services_(services),
      sign_in_(std::move(sign_in)),
      images_(std::move(cache_dir)),
      documents_frame_(frame()) {}

void ConsolePages::setUploadOrigin(const std::string& signed_url) {
    documents_frame_ = frame();
    if (signed_url.empty()) return;
    const Poco::URI url(signed_url);
    const std::string self = "connect-src 'self'";
    documents_frame_.csp.replace(documents_frame_.csp.find(self), self.size(),
                                 self + " " + url.getScheme() + "://" + url.getAuthority());
}

auth::oauth::BrowserSignInOptions ConsolePages::signInOptions(
    const auth::oauth::OAuthSettings& settings) {
    auth::oauth::BrowserSignInOptions o;
    o.client_id = settings.reviewer_console_client_id;
    o.client_name = "docintel reviewer console";
    o.path = "/console";
    o.session_cookie = "docintel_console";
    o.login_cookie = "docintel_console_login";
    o.idle_seconds = 30 * 60;
    o.max_age_seconds = 12 * 3600;
    return o;
}

bool ConsolePages::owns(const std::string& path) {
    return path == "/console" || path.rfind("/console/", 0) == 0;
}

plugin::HttpResponse ConsolePages::handle(const http::RawRequest& r) {
    const auto started = std::chrono::steady_clock::now();
    const std::string trace_id = http::traceIdFor(r.headers);
    plugin::HttpResponse response;
    try {
        response = route(r, trace_id);
    } catch (const std::exception& e) {
        common::log(common::LogLevel::kError, "console_unhandled",
                    {{"trace_id", trace_id}, {"what", e.what()}});
        response = message(nullptr, 500, "Something went wrong", "Try again shortly.", false);
    }
    response.headers.emplace_back("X-Trace-Id", trace_id);
    const double elapsed_ms = common::millisecondsSince(started);
    common::recordRequest("console", r.method, response.status, elapsed_ms / 1000);
    // The path only: queries may carry sign-in codes.
    common::log(response.status >= 500 ? common::LogLevel::kError : common::LogLevel::kInfo,
                "http_request",
                {{"method", r.method},
                 {"path", r.path},
                 {"status", std::to_string(response.status)},
                 {"duration_ms", std::to_string(elapsed_ms)},
                 {"trace_id", trace_id}});
    return response;
}

plugin::HttpResponse ConsolePages::route(const http::RawRequest& r, const std::string& trace_id) {
    const auto seg = pathSegments(r.path, "/console");
    const std::string first = seg.empty() ? std::string() : seg[0];
    if (r.method == "GET" && seg.size() == 2 && first == "static") {
        if (seg[1] == "console.css") return asset("console.css", "text/css; charset=utf-8");
        if (seg[1] == "console.js") {
            return asset("console.js", "text/javascript; charset=utf-8");
        }
        return asset("", "text/plain");
    }
    if (r.method == "GET" && seg.size() == 1 && first == "login") {
        auto started = sign_in_->start();
        if (!started) return message(nullptr, 503, "Service unavailable", "Try again.", false);
        return *started;
    }
    if (r.method == "GET" && seg.size() == 1 && first == "callback") return callback(r);
    if (r.method != "GET" && r.method != "POST") {
        return message(nullptr, 405, "Not allowed", "Use GET or POST.", false);
    }
    auto found = sign_in_->current(r);
    if (!found) return message(nullptr, 503, "Service unavailable", "Try again shortly.", false);
    if (!*found) {
        if (r.method == "GET") return seeOther("/console/login");
        return message(nullptr, 403, "Signed out", "Your session ended. Sign in again.", true);
    }
    const auth::oauth::PageSession& session = **found;
    Context c{r,  session, session.principal(sign_in_->options().client_id), parseForm(r.query),
              {}, trace_id};
    if (r.method == "POST") {
        c.form = parseForm(r.body);
        if (!auth::oauth::BrowserSignIn::csrfMatches(session, formValue(c.form, "csrf_token"))) {
            common::log(common::LogLevel::kWarning, "console_csrf_refused",
                        {{"user_id", session.user_id}, {"remote_address", r.remote_address}});
            return message(&c, 403, "Request refused",
                           "This form was not issued by your console session. Reload the page "
                           "and try again.",
                           false);
        }
        if (seg.size() == 1 && first == "logout") {
            auto resp = message(nullptr, 200, "Signed out", "You signed out of the console.", true);
            resp.headers.emplace_back("Set-Cookie", sign_in_->end(session));
            return resp;
        }
    }
    return signedIn(c, seg);
}

plugin::HttpResponse ConsolePages::callback(const http::RawRequest& r) {
    const auto finish = [&](plugin::HttpResponse resp) {
        resp.headers.emplace_back("Set-Cookie", sign_in_->clearLoginCookie());
        return resp;
    };
    auto principal = sign_in_->finish(r);
    if (!principal) {
        const auto& e = principal.error();
        const bool expired = e.code == "sign_in_expired";
        return finish(message(nullptr, e.http_status,
                              expired ? "Sign-in expired" : "Sign-in failed", e.message, true));
    }
    auto cookie = sign_in_->open(*principal);
    if (!cookie) return finish(message(nullptr, 503, "Service unavailable", "Try again.", false));
    auto resp = finish(seeOther("/console"));
    resp.headers.emplace_back("Set-Cookie", *cookie);
    return resp;
}

plugin::HttpResponse ConsolePages::signedIn(Context& c, const std::vector<std::string>& seg) {
    const std::size_t n = seg.size();
    const std::string what = n > 0 ? seg[0] : std::string();
    if (c.request.method == "GET") {
        if (n == 0) return inbox(c);
        if (what == "counts" && n == 1) {
            auto r = plugin::HttpResponse::json(200, counts(c, chosenWorkspace(c.query)));
            auth::oauth::addNoStore(r);
            return r;
        }
        if (what == "documents" && n == 1) return documentsPage(c);
        if (what == "documents.json" && n == 1) return documentsJson(c);
        if (what == "documents" && n == 3 && seg[2] == "view") return documentView(c, seg[1]);
        if (what == "ask" && n == 1) return askPage(c);
        if (what == "runs" && n == 2) return runPage(c, seg[1]);
        if (what == "runs" && n == 3 && seg[2] == "approve") return approvePage(c, seg[1]);
        if (what == "documents" && n == 4 && seg[2] == "pages") return pageImage(c, seg[1], seg[3]);
        if (what == "documents" && n == 3 && seg[2] == "file") return documentFile(c, seg[1]);
        if (what == "tasks" && n == 3 && seg[2] == "decide") return decidePage(c, seg[1]);
        if (what == "plugins" && n >= 3) return pluginPage(c, seg);
    } else if (what == "runs" && n == 3) {
        return runAction(c, seg[1], seg[2]);
    } else if (what == "tasks" && n == 3 && seg[2] == "assign") {
        return takeTask(c, seg[1]);
    } else if (what == "tasks" && n == 3 && seg[2] == "decide") {
        return decideTask(c, seg[1]);
    } else if (what == "uploads" && (n == 1 || (n == 2 && seg[1] == "complete"))) {
        return upload(c, n == 1 ? "create" : "complete");
    } else if (what == "ask" && n == 1) {
        return ask(c);
    }
    return message(&c, 404, "Not found", "There is no such console page.", false);
}

nlohmann::json ConsolePages::workspaceChoices(Context& c, const std::string& selected) {
    nlohmann::json out = nlohmann::json::array();
    out.push_back({{"id", "personal"}, {"name", "Personal"}, {"selected", selected == "personal"}});
    // The route table's scope of GET /api/v1/workspaces (the service leaves scopes to routes).
    if (!c.principal.hasScope("workspaces:read")) return out;
    if (auto listed = services_.workspaces.list(c.principal)) {
        for (const auto& w : (*listed)["workspaces"]) {
            const std::string id = w.value("id", "");
            out.push_back({{"id", id},
                           {"name", w.value("name", id) + " (" + w.value("role", "member") + ")"},
                           {"selected", id == selected}});
        }
    }
    return out;
}

nlohmann::json ConsolePages::layoutFor(Context* c, const std::string& page, nlohmann::json& view) {
    nlohmann::json layout = nlohmann::json::object();
    if (c) {
        layout["signed_in"] = true;
        layout["email"] = c->session.email;
        layout["csrf_token"] = c->session.csrf_token;
        const std::string ws = view.value("workspace", chosenWorkspace(c->query));
        layout["workspaces"] = workspaceChoices(*c, ws);
        layout["workspace"] = ws;
        layout["nav_" + page] = true;
        layout["plugin_nav"] = pluginNavigation(*c, ws);
        const bool listed = page == "documents" || page == "ask";
        layout["switch_to"] = listed ? "/console/" + page : std::string("/console");
        view["csrf_token"] = c->session.csrf_token;
    }
    return layout;
}

plugin::HttpResponse ConsolePages::render(Context* c, const std::string& page, nlohmann::json view,
                                          int status) {
    nlohmann::json layout = layoutFor(c, page, view);
    return auth::oauth::renderPage(page == "documents" ? documents_frame_ : frame(), page, view,
                                   status, std::move(layout));
}

plugin::HttpResponse ConsolePages::renderText(Context& c, const std::string& name,
                                              const std::string& template_text,
                                              nlohmann::json view) {
    nlohmann::json layout = layoutFor(&c, name, view);
    return auth::oauth::renderTemplatePage(frame(), name, template_text, view, 200,
                                           std::move(layout));
}

plugin::HttpResponse ConsolePages::message(Context* c, int status, const std::string& title,
                                           const std::string& text, bool offer_login) {
    return render(c, "message", {{"title", title}, {"message", text}, {"offer_login", offer_login}},
                  status);
}

std::string readableMessage(const plugin::Error& e) {
    if (e.http_status >= 500) return "Try again shortly.";
    if (e.code != "validation_error") return e.message;
    // A 422 carries the FastAPI detail array as JSON text.
    std::string text;
    auto detail = nlohmann::json::parse(e.message, nullptr, false);
    for (const auto& d : detail.is_array() ? detail : nlohmann::json::array()) {
        if (!text.empty()) text += " ";
        text += d.value("msg", "") + ".";
    }
    return text.empty() ? "The value is not valid." : text;
}

plugin::HttpResponse ConsolePages::errorPage(Context& c, const plugin::Error& e) {
    const std::string text = readableMessage(e);
    const int status = e.http_status >= 400 ? e.http_status : 500;
    const std::string title = status == 403   ? "Not allowed"
                              : status == 404 ? "Not found"
                              : status == 409 ? "Not possible now"
                              : status >= 500 ? "Service unavailable"
                                              : "Check the value";
    return message(&c, status, title, text, false);
}

plugin::HttpResponse ConsolePages::inbox(Context& c) {
    const std::string workspace = chosenWorkspace(c.query);
    std::string status = formValue(c.query, "status");
    if (status.empty()) status = "pending_review";
    const std::string workflow = formValue(c.query, "workflow");
    std::map<std::string, std::string> query = {{"limit", "200"}, {"workflow", workflow}};
    if (status != "any") query["status"] = status;
    auto listed = services_.workflows.list(c.principal, workspace, "", query);
    if (!listed) return errorPage(c, listed.error());

    nlohmann::json titles = nlohmann::json::object();
    nlohmann::json workflows = nlohmann::json::array();
    for (const auto& w : services_.workflows.catalog()) {
        const std::string name = w.value("workflow", "");
        titles[name] = w.value("title", name);
        workflows.push_back(
            {{"name", name}, {"title", w.value("title", name)}, {"selected", name == workflow}});
    }
    nlohmann::json statuses = nlohmann::json::array();
    for (const char* s : kStatuses) {
        statuses.push_back({{"value", s}, {"label", statusLabel(s)}, {"selected", status == s}});
    }
    statuses.push_back({{"value", "any"}, {"label", "Any status"}, {"selected", status == "any"}});
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& run : (*listed)["runs"]) {
        const std::string name = run.value("workflow", "");
        rows.push_back({{"run_id", run.value("run_id", "")},
                        {"workflow", titles.value(name, name)},
                        {"vertical", run.value("vertical", "")},
                        {"status", run.value("status", "")},
                        {"status_label", statusLabel(run.value("status", ""))},
                        {"documents", run["document_ids"].size()},
                        {"age", ageText(run.value("created_at", ""))},
                        {"created_at", run.value("created_at", "")}});
    }
    const auto tasks = openTasks(c, workspace);
    nlohmann::json summary = nlohmann::json::array();
    const auto counted = runCounts(c, workspace);
    for (const char* st : kStatuses) {
        summary.push_back({{"status", st}, {"label", statusLabel(st)}, {"count", counted.at(st)}});
    }
    return render(&c, "inbox",
                  {{"title", "Inbox"},
                   {"tasks", tasks},
                   {"summary", summary},
                   {"has_tasks", !tasks.empty()},
                   {"task_count", tasks.size()},
                   {"done_taken", formValue(c.query, "done") == "taken"},
                   {"done_decided", formValue(c.query, "done") == "decided"},
                   {"workspace", workspace},
                   {"runs", rows},
                   {"count", rows.size()},
                   {"has_runs", !rows.empty()},
                   {"statuses", statuses},
                   {"workflows", workflows}},
                  200);
}

nlohmann::json ConsolePages::counts(Context& c, const std::string& workspace) {
    return {{"workspace", workspace},
            {"statuses", runCounts(c, workspace)},
            {"tasks", std::to_string(openTasks(c, workspace).size())}};
}

nlohmann::json ConsolePages::runCounts(Context& c, const std::string& workspace) {
    nlohmann::json statuses = nlohmann::json::object();
    const auto counted = services_.workflows.countRuns(c.principal, workspace);
    const std::map<std::string, long long> none;
    const auto& by_status = counted ? *counted : none;
    for (const char* st : kStatuses) {
        const auto it = by_status.find(st);
        statuses[st] = std::to_string(it == by_status.end() ? 0 : it->second);
    }
    return statuses;
}

nlohmann::json ConsolePages::openTasks(Context& c, const std::string& workspace) {
    nlohmann::json out = nlohmann::json::array();
    // GET /api/v1/reviews asks for workflows:read; the service leaves it to the route.
    if (!requireScope(c, "workflows:read").ok()) return out;
    auto listed = services_.reviews.list(c.principal, "", 200);
    if (!listed) return out;
    const bool may_take = requireScope(c, "reviews:write").ok();
    // POST /api/v1/reviews/{task_id}/decision asks for reviews:approve.
    const bool may_decide = requireScope(c, "reviews:approve").ok();
    for (const auto& t : (*listed)["reviews"]) {
        const std::string status = t.value("status", "");
        if (status != "pending" && status != "in_review") continue;
        if (workspaceOf(t) != workspace) continue;
        const bool mine = t["assigned_to"] == c.session.user_id;
        if (!mine && !t["assigned_to"].is_null()) continue;
        out.push_back({{"task_id", t.value("id", "")},
                       {"run_id", t.value("run_id", "")},
                       {"title", t.value("title", "")},
                       {"priority", t.value("priority", "")},
                       {"status", status},
                       {"mine", mine},
                       {"may_take", may_take && !mine},
                       {"may_decide", may_decide},
                       {"age", ageText(t.value("created_at", ""))},
                       {"created_at", t.value("created_at", "")}});
    }
    return out;
}

plugin::HttpResponse ConsolePages::takeTask(Context& c, const std::string& task_id) {
    if (auto ok = requireScope(c, "reviews:write"); !ok) return errorPage(c, ok.error());
    auto taken = services_.reviews.assign(c.principal, task_id);
    if (!taken) return errorPage(c, taken.error());
    return seeOther("/console?workspace=" + workspaceOf(*taken) + "&done=taken");
}

plugin::Status ConsolePages::requireScope(const Context& c, const std::string& scope) {
    if (c.principal.hasScope(scope)) return {};
    return plugin::Error::forbidden("insufficient_scope",
                                    "Your sign-in does not include " + scope + ".");
}

plugin::HttpResponse ConsolePages::pageImage(Context& c, const std::string& document_id,
                                             const std::string& page) {
    const auto dot = page.find(".png");
    const int number = dot == std::string::npos ? 0 : std::atoi(page.substr(0, dot).c_str());
    if (number < 1) return message(&c, 404, "Not found", "There is no such page.", false);
    if (auto ok = requireScope(c, "documents:read"); !ok) return errorPage(c, ok.error());
    auto file = services_.documents.mediaFile(c.principal, document_id);
    if (!file) return errorPage(c, file.error());
    auto png = images_.png(document_id, *file, number);
    if (!png) return errorPage(c, png.error());
    return fileResponse(*png, "image/png", "");
}

plugin::HttpResponse ConsolePages::documentFile(Context& c, const std::string& document_id) {
    if (auto ok = requireScope(c, "documents:read"); !ok) return errorPage(c, ok.error());
    auto doc = services_.documents.get(c.principal, document_id);
    if (!doc) return errorPage(c, doc.error());
    auto file = services_.documents.mediaFile(c.principal, document_id);
    if (!file) return errorPage(c, file.error());
    std::string name = doc->value("filename", "document");
    for (char& ch : name) {
        if (ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) ch = '_';
    }
    return fileResponse(*file, doc->value("content_type", "application/octet-stream"),
                        "attachment; filename=\"" + name + "\"");
}

}  // namespace docintel::console
