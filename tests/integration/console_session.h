#pragma once

// A signed-in reviewer-console session for tests that drive the console over raw HTTP: the PKCE
// sign-in through /console/login → /authorize (password "correct horse") → /console/callback,
// then GETs with the session cookie and form POSTs with its CSRF token.

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "oauth_test_client.h"

namespace docintel::test::oauth {

/// The `Set-Cookie` line for cookie `name` ("" when none).
inline std::string setCookie(const Response& r, const std::string& name) {
    std::istringstream lines(r.header("set-cookie"));
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind(name + "=", 0) == 0) return line;
    }
    return {};
}

/// The value of a `Set-Cookie` line.
inline std::string cookieValueOf(const std::string& line) {
    const auto eq = line.find('=');
    const auto semi = line.find(';');
    return line.substr(eq + 1, semi - eq - 1);
}

/// The value of the first `csrf_token` hidden input of a page ("" when none).
inline std::string csrfTokenOf(const std::string& page) {
    const std::string marker = "name=\"csrf_token\" value=\"";
    const auto at = page.find(marker);
    if (at == std::string::npos) return {};
    const auto start = at + marker.size();
    return page.substr(start, page.find('"', start) - start);
}

/// Signs `email` in to the console; returns the `docintel_console` Set-Cookie line.
inline std::string signInToConsole(int port, const std::string& email) {
    const Response start = send(port, "GET", "/console/login");
    EXPECT_EQ(start.status, 303);
    const std::string login_cookie = setCookie(start, "docintel_console_login");
    const std::string cookie = "docintel_console_login=" + cookieValueOf(login_cookie);
    const Response page = send(port, "GET", start.header("location"));
    EXPECT_EQ(page.status, 200) << page.body;
    const std::string auth_cookie = page.header("set-cookie");
    const std::string auth_session = auth_cookie.substr(0, auth_cookie.find(';'));
    const std::string csrf = csrfTokenOf(page.body);
    EXPECT_FALSE(csrf.empty());
    const Response next =
        postForm(port, "/authorize/login",
                 {{"email", email}, {"password", "correct horse"}, {"csrf_token", csrf}},
                 {{"Cookie", auth_session}});
    EXPECT_EQ(next.status, 303) << next.body;  // straight to the callback: no consent page
    const std::string callback = next.header("location");
    EXPECT_NE(callback.find("/console/callback?"), std::string::npos) << callback;
    const Response done = send(port, "GET", callback.substr(callback.find("/console/callback")), {},
                               {}, {{"Cookie", cookie}});
    EXPECT_EQ(done.status, 303) << done.body;
    EXPECT_EQ(done.header("location"), "/console");
    return setCookie(done, "docintel_console");
}

/// A signed-in console user.
class ConsoleSession {
  public:
    ConsoleSession(int port, const std::string& email)
        : port_(port), cookie_("docintel_console=" + cookieValueOf(signInToConsole(port, email))) {}

    Response get(const std::string& path) const {
        return send(port_, "GET", path, {}, {}, {{"Cookie", cookie_}});
    }
    /// A form POST carrying the session's CSRF token (read from the inbox once).
    Response post(const std::string& path, Form form) {
        if (csrf_.empty()) csrf_ = csrfTokenOf(get("/console").body);
        form.emplace_back("csrf_token", csrf_);
        return postForm(port_, path, form, {{"Cookie", cookie_}});
    }

  private:
    int port_;
    std::string cookie_;
    std::string csrf_;
};

}  // namespace docintel::test::oauth
