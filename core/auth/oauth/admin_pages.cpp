#include "auth/oauth/admin_pages.h"

#include <map>

#include "auth/oauth/authorization_flow.h"
#include "auth/oauth/page_renderer.h"
#include "auth/oauth/token_cipher.h"
#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"

namespace docintel::auth::oauth {
namespace {

/// What a `?done=` code after a successful form post says (nothing else is echoed).
const std::map<std::string, std::string>& notices() {
    static const std::map<std::string, std::string> m = {
        {"user_created", "User created."},
        {"mfa_on", "E-mail sign-in codes are now required for this user."},
        {"mfa_off", "E-mail sign-in codes are no longer required for this user."},
        {"disabled", "Disabled. Its tokens were revoked."},
        {"enabled", "Enabled."},
        {"scopes_granted", "Scopes granted. They apply from the user's next sign-in."},
        {"scopes_revoked", "Scopes withdrawn."},
        {"approved", "Access request approved. It applies from the user's next sign-in."},
        {"denied", "Access request denied."},
        {"revoked", "Access withdrawn."},
        {"app_updated", "Application updated."},
        {"workspace_granted", "Workspace granted."},
        {"workspace_withdrawn", "Workspace grant withdrawn."},
    };
    return m;
}

std::string noticeText(const std::map<std::string, std::string>& query) {
    auto it = query.find("done");
    if (it == query.end()) return {};
    auto n = notices().find(it->second);
    return n == notices().end() ? std::string() : n->second;
}

/// "ID[:role]" items separated by spaces, commas or new lines.
nlohmann::json workspaceList(const std::string& text) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : stringList(nlohmann::json(text))) {
        const auto colon = item.find(':');
        out.push_back({{"workspace_id", item.substr(0, colon)},
                       {"role", colon == std::string::npos ? "editor" : item.substr(colon + 1)}});
    }
    return out;
}

}  // namespace

AdminPages::AdminPages(const OAuthSettings& settings, OAuthAdmin& admin, BrowserSignIn& sign_in)
    : settings_(settings), admin_(admin), sign_in_(sign_in) {}

bool AdminPages::owns(const std::string& path) {
    return path == "/admin" || (path.rfind("/admin/", 0) == 0 && path.rfind("/admin/api/", 0) != 0);
}

BrowserSignInOptions AdminPages::signInOptions(const OAuthSettings& settings) {
    BrowserSignInOptions o;
    o.client_id = settings.admin_console_client_id;
    o.client_name = "docintel administration";
    o.path = "/admin";
    o.session_cookie = "docintel_admin";
    o.login_cookie = "docintel_admin_login";
    o.idle_seconds = settings.admin_session_ttl;
    return o;
}

plugin::HttpResponse AdminPages::render(const Session* s, const std::string& page,
                                        nlohmann::json view, int status) {
    view["issuer"] = settings_.issuer;
    nlohmann::json layout = {{"wide", true}};
    if (s) {
        layout["admin"] = true;
        layout["csrf_token"] = s->csrf_token;
        view["csrf_token"] = s->csrf_token;
    }
    return renderPage(page, view, status, layout);
}

plugin::HttpResponse AdminPages::message(const Session* s, int status, const std::string& title,
                                         const std::string& text, bool offer_login) {
    return render(s, "admin_message",
                  {{"title", title}, {"message", text}, {"offer_login", offer_login}}, status);
}

nlohmann::json AdminPages::scopeChoices(const std::vector<std::string>& held) const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& name : settings_.scopes_supported) {
        auto d = settings_.scope_descriptions.find(name);
        bool has = false;
        for (const auto& h : held) has = has || h == name;
        out.push_back({{"name", name},
                       {"description", d == settings_.scope_descriptions.end() ? "" : d->second},
                       {"checked", has}});
    }
    return out;
}

plugin::HttpResponse AdminPages::handle(const http::RawRequest& r) {
    const auto seg = pathSegments(r.path, "/admin");
    if (seg.size() == 1 && seg[0] == "login") {
        if (r.method != "GET") return message(nullptr, 405, "Not allowed", "Use GET.", true);
        return login();
    }
    if (seg.size() == 1 && seg[0] == "callback") {
        if (r.method != "GET") return message(nullptr, 405, "Not allowed", "Use GET.", true);
        return callback(r);
    }
    if (r.method != "GET" && r.method != "POST") {
        return message(nullptr, 405, "Not allowed", "Use GET or POST.", false);
    }

    // The admin session, then the administrator check on every request.
    auto found = sign_in_.current(r);
    if (!found) return message(nullptr, 503, "Service unavailable", "Try again shortly.", false);
    if (!*found) return seeOther("/admin/login");
    const Session session{(*found)->id_hash, (*found)->user_id, (*found)->csrf_token};
    plugin::Principal principal;
    principal.user_id = session.user_id;
    if (auto allowed = admin_.requireAdmin(principal); !allowed) {
        if (allowed.error().http_status >= 500) {
            return message(nullptr, 503, "Service unavailable", "Try again shortly.", false);
        }
        auto resp = message(nullptr, 403, "Administrators only",
                            "Your account is not an enabled administrator.", true);
        resp.headers.emplace_back("Set-Cookie", sign_in_.end(**found));
        return resp;
    }
    if (r.method == "POST") {
        const auto form = parseForm(r.body);
        if (!constantTimeEquals(formValue(form, "csrf_token"), session.csrf_token)) {
            common::log(common::LogLevel::kWarning, "oauth_admin_csrf_refused",
                        {{"user_id", session.user_id}, {"remote_address", r.remote_address}});
            return message(&session, 403, "Request refused",
                           "This form was not issued by your administration session. Reload the "
                           "page and try again.",
                           false);
        }
        if (seg.size() == 1 && seg[0] == "logout") return logout(session);
    }
    return dispatch(r, session, seg);
}

plugin::HttpResponse AdminPages::login() {
    auto started = sign_in_.start();
    if (!started) return message(nullptr, 503, "Service unavailable", "Try again shortly.", false);
    return *started;
}

plugin::HttpResponse AdminPages::callback(const http::RawRequest& r) {
    const auto finish = [&](plugin::HttpResponse resp) {
        resp.headers.emplace_back("Set-Cookie", sign_in_.clearLoginCookie());
        return resp;
    };
    auto principal = sign_in_.finish(r);
    if (!principal) {
        const auto& e = principal.error();
        if (e.code == "sign_in_expired") {
            return finish(message(nullptr, 400, "Sign-in expired", e.message, true));
        }
        if (e.code == "access_denied") {
            return finish(message(nullptr, 403, "Administrators only",
                                  "This account cannot use the administration pages.", true));
        }
        return finish(message(nullptr, e.http_status >= 500 ? 503 : 400,
                              e.http_status >= 500 ? "Service unavailable" : "Sign-in failed",
                              e.message, true));
    }
    if (auto allowed = admin_.requireAdmin(*principal); !allowed) {
        common::log(common::LogLevel::kInfo, "oauth_admin_refused",
                    {{"user_id", principal->user_id}, {"remote_address", r.remote_address}});
        return finish(
            message(nullptr, allowed.error().http_status >= 500 ? 503 : 403, "Administrators only",
                    "Your account is not an administrator of this docintel server.", false));
    }
    auto cookie = sign_in_.open(*principal);
    if (!cookie) {
        return finish(message(nullptr, 503, "Service unavailable", "Try again shortly.", false));
    }
    common::log(common::LogLevel::kInfo, "oauth_admin_signed_in",
                {{"user_id", principal->user_id}, {"remote_address", r.remote_address}});
    auto resp = finish(seeOther("/admin/access-requests"));
    resp.headers.emplace_back("Set-Cookie", *cookie);
    return resp;
}

plugin::HttpResponse AdminPages::logout(const Session& session) {
    auto resp =
        message(nullptr, 200, "Signed out", "You signed out of the administration pages.", true);
    resp.headers.emplace_back(
        "Set-Cookie",
        sign_in_.end(PageSession{session.id_hash, session.user_id, "", session.csrf_token, {}}));
    return resp;
}

plugin::HttpResponse AdminPages::dispatch(const http::RawRequest& r, const Session& s,
                                          const std::vector<std::string>& seg) {
    const auto query = parseForm(r.query);
    const std::string notice = noticeText(query);
    const std::string& actor = s.user_id;
    const std::size_t n = seg.size();
    const std::string what = n > 0 ? seg[0] : std::string();
    if (r.method == "GET") {
        if (n == 0) return seeOther("/admin/access-requests");
        if (what == "users" && n == 1) return usersPage(s, notice, nullptr, nullptr);
        if (what == "users" && n == 2) return userPage(s, seg[1], notice, nullptr);
        if (what == "access-requests" && n == 1) {
            const std::string status = formValue(query, "status");
            return requestsPage(s, status.empty() ? "pending" : status, notice, nullptr);
        }
        if (what == "applications" && n == 1) return applicationsPage(s, notice, nullptr, nullptr);
        if (what == "applications" && n == 2) return applicationPage(s, seg[1], notice, nullptr);
        return message(&s, 404, "Not found", "There is no such administration page.", false);
    }

    const auto form = parseForm(r.body);
    if (what == "users" && n == 1) {
        nlohmann::json body = {{"email", formValue(form, "email")},
                               {"password", formValue(form, "password")},
                               {"display_name", formValue(form, "display_name")},
                               {"is_admin", formValue(form, "is_admin") == "on"},
                               {"mfa_enabled", formValue(form, "mfa_enabled") == "on"},
                               {"scopes", formValues(r.body, "scope")}};
        auto created = admin_.createUser(body);
        if (!created) {
            body.erase("password");
            return usersPage(s, "", &created.error(), body);
        }
        return seeOther("/admin/users/" + (*created)["id"].get<std::string>() +
                        "?done=user_created");
    }
    if (what == "users" && n >= 3) {
        const std::string& id = seg[1];
        const std::string& action = seg[2];
        plugin::Result<nlohmann::json> out = plugin::Error::notFound("no such action");
        std::string done;
        if (n == 3 && action == "mfa") {
            const bool on = formValue(form, "mfa") == "on";
            out = admin_.updateUser(id, {{"mfa_enabled", on}});
            done = on ? "mfa_on" : "mfa_off";
        } else if (n == 3 && (action == "disable" || action == "enable")) {
            if (action == "disable" && id == actor) {
                out = plugin::Error{"conflict", "You cannot disable your own account here.", 409};
            } else {
                out = admin_.updateUser(id, {{"disabled", action == "disable"}});
            }
            done = action == "disable" ? "disabled" : "enabled";
        } else if (n == 3 && action == "scopes") {
            out = admin_.grantScopes(id, formValues(r.body, "scope"), actor);
            done = "scopes_granted";
        } else if (n == 4 && action == "scopes" && seg[3] == "revoke") {
            out = admin_.revokeScopes(id, formValues(r.body, "scope"), actor);
            done = "scopes_revoked";
        }
        if (!out) return userPage(s, id, "", &out.error());
        return seeOther("/admin/users/" + (*out)["id"].get<std::string>() + "?done=" + done);
    }
    if (what == "access-requests" && n == 3) {
        auto out = admin_.decideAccessRequest(seg[1], seg[2], actor);
        std::string back = formValue(form, "back");
        if (back != "pending" && back != "approved" && back != "denied" && back != "revoked" &&
            back != "all") {
            back = "pending";
        }
        if (!out) return requestsPage(s, back, "", &out.error());
        return seeOther("/admin/access-requests?status=" + back +
                        "&done=" + (*out)["status"].get<std::string>());
    }
    if (what == "applications" && n == 1) {
        nlohmann::json body = {{"name", formValue(form, "name")},
                               {"scopes", formValues(r.body, "scope")},
                               {"workspaces", workspaceList(formValue(form, "workspaces"))},
                               {"cidrs", formValue(form, "cidrs")}};
        auto created = admin_.createApplication(body, actor);
        if (!created) {
            body["workspaces"] = formValue(form, "workspaces");
            return applicationsPage(s, "", &created.error(), body);
        }
        return secretPage(s, *created, false);
    }
    if (what == "applications" && n >= 3) {
        const std::string& id = seg[1];
        const std::string& action = seg[2];
        plugin::Result<nlohmann::json> out = plugin::Error::notFound("no such action");
        std::string done = "app_updated";
        if (n == 3 && action == "rotate-secret") {
            std::int64_t overlap = 86400;
            try {
                const std::string text = formValue(form, "overlap_seconds");
                std::size_t used = 0;
                if (!text.empty()) overlap = std::stoll(text, &used);
                if (!text.empty() && used != text.size()) overlap = -1;
            } catch (const std::exception&) {
                overlap = -1;
            }
            auto rotated = admin_.rotateSecret(id, overlap);
            if (!rotated) return applicationPage(s, id, "", &rotated.error());
            return secretPage(s, *rotated, true);
        }
        if (n == 3 && (action == "disable" || action == "enable")) {
            out = admin_.setApplicationDisabled(id, action == "disable");
            done = action == "disable" ? "disabled" : "enabled";
        } else if (n == 3 && action == "scopes") {
            out = admin_.updateApplication(id, {{"scopes", formValues(r.body, "scope")}});
        } else if (n == 3 && action == "cidrs") {
            out = admin_.updateApplication(id, {{"cidrs", formValue(form, "cidrs")}});
        } else if (n == 3 && action == "workspaces") {
            out = admin_.grantWorkspace(id, {{"workspace_id", formValue(form, "workspace_id")},
                                             {"role", formValue(form, "role")}});
            done = "workspace_granted";
        } else if (n == 5 && action == "workspaces" && seg[4] == "remove") {
            out = admin_.withdrawWorkspace(id, seg[3]);
            done = "workspace_withdrawn";
        }
        if (!out) return applicationPage(s, id, "", &out.error());
        return seeOther("/admin/applications/" + (*out)["client_id"].get<std::string>() +
                        "?done=" + done);
    }
    return message(&s, 404, "Not found", "There is no such administration action.", false);
}

namespace {

/// The page status and view fields for a failed action.
int applyError(nlohmann::json& view, const plugin::Error* error) {
    if (!error) return 200;
    if (error->http_status >= 500) {
        view["error"] = "The server could not complete the request. Try again shortly.";
        return 503;
    }
    view["error"] = error->message;
    return error->http_status >= 400 ? error->http_status : 400;
}

}  // namespace

plugin::HttpResponse AdminPages::usersPage(const Session& s, const std::string& notice,
                                           const plugin::Error* error, const nlohmann::json& form) {
    auto users = admin_.listUsers();
    if (!users) return message(&s, 503, "Service unavailable", "Try again shortly.", false);
    nlohmann::json view = {{"title", "Users · docintel administration"},
                           {"nav_users", true},
                           {"notice", notice},
                           {"users", (*users)["items"]},
                           {"form", form.is_object() ? form : nlohmann::json::object()}};
    std::vector<std::string> chosen;
    if (form.is_object()) chosen = stringList(form.value("scopes", nlohmann::json()));
    view["scope_choices"] = scopeChoices(chosen);
    const int status = applyError(view, error);
    return render(&s, "admin_users", view, status);
}

plugin::HttpResponse AdminPages::userPage(const Session& s, const std::string& user_id,
                                          const std::string& notice, const plugin::Error* error) {
    auto user = admin_.getUser(user_id);
    if (!user) {
        if (user.error().http_status == 404) {
            return message(&s, 404, "Not found", "There is no such user.", false);
        }
        return message(&s, 503, "Service unavailable", "Try again shortly.", false);
    }
    if ((*user)["kind"] != "person") {
        return message(&s, 404, "Not found", "Applications are managed on their own page.", false);
    }
    const auto held = (*user)["scopes"].get<std::vector<std::string>>();
    nlohmann::json grantable = nlohmann::json::array();
    for (const auto& c : scopeChoices(held)) {
        if (!c["checked"].get<bool>()) grantable.push_back(c);
    }
    nlohmann::json requests = nlohmann::json::array();
    if (auto all = admin_.listAccessRequests("")) {
        for (auto r : (*all)["items"]) {
            if (r["user_id"] != user_id) continue;
            r["is_pending"] = r["status"] == "pending";
            r["is_approved"] = r["status"] == "approved";
            requests.push_back(r);
        }
    }
    nlohmann::json view = {{"title", (*user)["email"].get<std::string>() + " · docintel"},
                           {"nav_users", true},
                           {"notice", notice},
                           {"user", *user},
                           {"held", held},
                           {"grantable", grantable},
                           {"has_grantable", !grantable.empty()},
                           {"requests", requests},
                           {"is_self", user_id == s.user_id}};
    const int status = applyError(view, error);
    return render(&s, "admin_user", view, status);
}

plugin::HttpResponse AdminPages::requestsPage(const Session& s, const std::string& status,
                                              const std::string& notice,
                                              const plugin::Error* error) {
    auto list = admin_.listAccessRequests(status == "all" ? "" : status);
    if (!list) {
        if (list.error().http_status == 400) {
            return message(&s, 400, "Unknown filter",
                           "Show pending, approved, denied, revoked or all requests.", false);
        }
        return message(&s, 503, "Service unavailable", "Try again shortly.", false);
    }
    nlohmann::json items = nlohmann::json::array();
    for (auto r : (*list)["items"]) {
        r["is_pending"] = r["status"] == "pending";
        r["is_approved"] = r["status"] == "approved";
        items.push_back(r);
    }
    nlohmann::json filters = nlohmann::json::array();
    for (const std::string f : {"pending", "approved", "denied", "revoked", "all"}) {
        filters.push_back({{"name", f}, {"current", f == status}});
    }
    nlohmann::json view = {{"title", "Access requests · docintel administration"},
                           {"nav_requests", true},
                           {"notice", notice},
                           {"filter", status},
                           {"filters", filters},
                           {"requests", items}};
    const int code = applyError(view, error);
    return render(&s, "admin_access_requests", view, code);
}

plugin::HttpResponse AdminPages::applicationsPage(const Session& s, const std::string& notice,
                                                  const plugin::Error* error,
                                                  const nlohmann::json& form) {
    auto apps = admin_.listApplications();
    if (!apps) return message(&s, 503, "Service unavailable", "Try again shortly.", false);
    nlohmann::json items = nlohmann::json::array();
    for (auto a : (*apps)["items"]) {
        a["scope_text"] = joinScope(a["scopes"].get<std::vector<std::string>>());
        a["workspace_count"] = a["workspaces"].size();
        items.push_back(a);
    }
    std::vector<std::string> chosen;
    if (form.is_object()) chosen = stringList(form.value("scopes", nlohmann::json()));
    nlohmann::json view = {{"title", "Applications · docintel administration"},
                           {"nav_apps", true},
                           {"notice", notice},
                           {"applications", items},
                           {"scope_choices", scopeChoices(chosen)},
                           {"form", form.is_object() ? form : nlohmann::json::object()}};
    const int status = applyError(view, error);
    return render(&s, "admin_applications", view, status);
}

plugin::HttpResponse AdminPages::applicationPage(const Session& s, const std::string& client_id,
                                                 const std::string& notice,
                                                 const plugin::Error* error) {
    auto app = admin_.getApplication(client_id);
    if (!app) {
        if (app.error().http_status == 404) {
            return message(&s, 404, "Not found", "There is no such application.", false);
        }
        return message(&s, 503, "Service unavailable", "Try again shortly.", false);
    }
    nlohmann::json secrets = nlohmann::json::array();
    for (auto sec : (*app)["secrets"]) {
        const auto expires = sec["expires_at"];
        sec["expires_text"] = expires.is_number()
                                  ? common::isoFromEpoch(expires.get<std::int64_t>())
                                  : std::string("no expiry");
        secrets.push_back(sec);
    }
    nlohmann::json view = {
        {"title", (*app)["name"].get<std::string>() + " · docintel administration"},
        {"nav_apps", true},
        {"notice", notice},
        {"app", *app},
        {"secrets", secrets},
        {"cidr_text", joinScope((*app)["cidrs"].get<std::vector<std::string>>())},
        {"scope_choices", scopeChoices((*app)["scopes"].get<std::vector<std::string>>())}};
    const int status = applyError(view, error);
    return render(&s, "admin_application", view, status);
}

plugin::HttpResponse AdminPages::secretPage(const Session& s, const nlohmann::json& application,
                                            bool rotated) {
    nlohmann::json view = {{"title", "Client secret · docintel administration"},
                           {"nav_apps", true},
                           {"app", application},
                           {"rotated", rotated}};
    if (rotated && application.contains("previous_secret_expires_at")) {
        view["previous_expires_text"] =
            common::isoFromEpoch(application["previous_secret_expires_at"].get<std::int64_t>());
    }
    return render(&s, "admin_secret", view, rotated ? 200 : 201);
}

}  // namespace docintel::auth::oauth
