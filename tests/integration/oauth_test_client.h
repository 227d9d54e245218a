#pragma once

// HTTP helpers for the OAuth integration tests: form posts with cookies and Basic auth, a
// client socket bound to a chosen source address, the browser steps of /authorize, and an
// SMTP sink that captures the e-mailed sign-in codes.

#include <gtest/gtest.h>

#include <Poco/Base64Encoder.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketStream.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/StreamCopier.h>
#include <Poco/String.h>
#include <Poco/URI.h>
#include <openssl/evp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/base64url.h"
#include "support/test_server.h"

namespace docintel::test::oauth {

using Form = std::vector<std::pair<std::string, std::string>>;

inline std::string formEncode(const Form& form) {
    std::string out;
    for (const auto& [k, v] : form) {
        std::string ek, ev;
        Poco::URI::encode(k, "!#$&'()*+,/:;=?@[]", ek);
        Poco::URI::encode(v, "!#$&'()*+,/:;=?@[]", ev);
        out += (out.empty() ? "" : "&") + ek + "=" + ev;
    }
    return out;
}

inline std::string basicAuth(const std::string& id, const std::string& secret) {
    std::ostringstream out;
    Poco::Base64Encoder enc(out);
    enc.rdbuf()->setLineLength(0);
    enc << id << ":" << secret;
    enc.close();
    return "Basic " + out.str();
}

/// One request on a fresh connection from `source` (a loopback address) to the server.
inline Response send(int port, const std::string& method, const std::string& target,
                     const std::string& body = {}, const std::string& content_type = {},
                     const std::map<std::string, std::string>& headers = {},
                     const std::string& source = "127.0.0.1") {
    Poco::Net::StreamSocket socket(Poco::Net::SocketAddress::IPv4);
    socket.impl()->bind(Poco::Net::SocketAddress(source, 0));
    socket.connect(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(port)));
    Poco::Net::HTTPClientSession session(socket);
    session.setTimeout(Poco::Timespan(30, 0));
    Poco::Net::HTTPRequest req(method, target, Poco::Net::HTTPMessage::HTTP_1_1);
    req.setHost("localhost", static_cast<Poco::UInt16>(port));
    for (const auto& [k, v] : headers) req.set(k, v);
    if (!content_type.empty()) req.setContentType(content_type);
    if (!body.empty() || method == "POST")
        req.setContentLength(static_cast<std::streamsize>(body.size()));
    session.sendRequest(req) << body;
    Poco::Net::HTTPResponse resp;
    std::istream& in = session.receiveResponse(resp);
    Response out;
    out.status = resp.getStatus();
    for (const auto& [k, v] : resp) {
        auto& slot = out.headers[Poco::toLower(k)];
        slot += (slot.empty() ? "" : "\n") + v;
    }
    Poco::StreamCopier::copyToString(in, out.body);
    return out;
}

inline Response postForm(int port, const std::string& path, const Form& form,
                         const std::map<std::string, std::string>& headers = {},
                         const std::string& source = "127.0.0.1") {
    return send(port, "POST", path, formEncode(form), "application/x-www-form-urlencoded", headers,
                source);
}

inline std::string pkceChallenge(const std::string& verifier) {
    unsigned char d[32];
    unsigned int n = 0;
    EVP_Digest(verifier.data(), verifier.size(), d, &n, EVP_sha256(), nullptr);
    return common::base64UrlEncode(std::string(reinterpret_cast<char*>(d), n));
}

/// The value of query parameter `name` in a URL ("" if absent).
inline std::string queryParam(const std::string& url, const std::string& name) {
    try {
        for (const auto& [k, v] : Poco::URI(url).getQueryParameters()) {
            if (k == name) return v;
        }
    } catch (const std::exception&) {
    }
    return {};
}

inline std::string csrfOf(const std::string& html) {
    std::smatch m;
    static const std::regex re("name=\"csrf_token\" value=\"([^\"]+)\"");
    return std::regex_search(html, m, re) ? m[1].str() : std::string();
}

inline std::string sessionCookieOf(const Response& r) {
    std::smatch m;
    static const std::regex re("docintel_oauth=([^;]+);");
    const std::string set = r.header("set-cookie");
    return std::regex_search(set, m, re) ? m[1].str() : std::string();
}

/// A browser going through /authorize: keeps the session cookie and the CSRF token.
class Browser {
  public:
    explicit Browser(int port) : port_(port) {}

    /// GET /authorize with `query` (already encoded as a form).
    Response authorize(const Form& query) {
        Response r = send(port_, "GET", "/authorize?" + formEncode(query));
        if (auto c = sessionCookieOf(r); !c.empty()) cookie_ = c;
        if (auto t = csrfOf(r.body); !t.empty()) csrf_ = t;
        return r;
    }
    Response post(const std::string& path, Form form) {
        form.emplace_back("csrf_token", csrf_);
        Response r = postForm(port_, path, form, {{"Cookie", "docintel_oauth=" + cookie_}});
        if (auto t = csrfOf(r.body); !t.empty()) csrf_ = t;
        return r;
    }
    Response login(const std::string& email, const std::string& password) {
        return post("/authorize/login", {{"email", email}, {"password", password}});
    }
    void setCsrf(std::string csrf) { csrf_ = std::move(csrf); }

  private:
    int port_;
    std::string cookie_;
    std::string csrf_;
};

/// Registers a public client; returns its client_id.
inline std::string registerClient(int port, const std::string& redirect_uri) {
    const nlohmann::json body = {{"client_name", "test client"},
                                 {"redirect_uris", {redirect_uri}},
                                 {"token_endpoint_auth_method", "none"}};
    Response r = send(port, "POST", "/register", body.dump(), "application/json");
    if (r.status != 201) throw std::runtime_error("register failed: " + r.body);
    return r.json()["client_id"].get<std::string>();
}

/// A minimal SMTP server on 127.0.0.1 that keeps every message it receives.
class SmtpSink {
  public:
    SmtpSink() : socket_(Poco::Net::SocketAddress("127.0.0.1", 0)) {
        socket_.setReceiveTimeout(Poco::Timespan(0, 200000));
        thread_ = std::thread([this] { run(); });
    }
    ~SmtpSink() {
        stop_ = true;
        thread_.join();
    }
    int port() const { return socket_.address().port(); }

    /// The newest 6-digit code in a message to `to`, waiting up to 10 s.
    std::string waitForCode(const std::string& to) {
        std::unique_lock lock(mutex_);
        std::string code;
        cv_.wait_for(lock, std::chrono::seconds(10), [&] {
            for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
                std::smatch m;
                static const std::regex re("sign-in code is ([0-9]{6})");
                if (it->find(to) != std::string::npos && std::regex_search(*it, m, re)) {
                    code = m[1].str();
                    return true;
                }
            }
            return false;
        });
        return code;
    }
    std::size_t count() {
        std::lock_guard lock(mutex_);
        return messages_.size();
    }

  private:
    void run() {
        while (!stop_) {
            Poco::Net::StreamSocket s;
            try {
                s = socket_.acceptConnection();
            } catch (const Poco::TimeoutException&) {
                continue;
            } catch (const std::exception&) {
                continue;
            }
            try {
                serve(s);
            } catch (const std::exception&) {
            }
        }
    }
    void serve(Poco::Net::StreamSocket& s) {
        s.setReceiveTimeout(Poco::Timespan(5, 0));
        Poco::Net::SocketStream io(s);
        const auto reply = [&](const std::string& line) { io << line << "\r\n" << std::flush; };
        reply("220 sink ESMTP");
        std::string line, message;
        bool data = false;
        while (std::getline(io, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (data) {
                if (line == ".") {
                    data = false;
                    {
                        std::lock_guard lock(mutex_);
                        messages_.push_back(message);
                    }
                    cv_.notify_all();
                    message.clear();
                    reply("250 queued");
                } else {
                    message += line + "\n";
                }
                continue;
            }
            const std::string verb = Poco::toUpper(line.substr(0, 4));
            if (verb == "EHLO" || verb == "HELO") {
                reply("250 sink");
            } else if (verb == "DATA") {
                data = true;
                reply("354 go ahead");
            } else if (verb == "QUIT") {
                reply("221 bye");
                return;
            } else {
                if (verb == "RCPT") message += line + "\n";
                reply("250 ok");
            }
        }
    }

    Poco::Net::ServerSocket socket_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
    std::mutex mutex_;  // guards messages_
    std::condition_variable cv_;
    std::vector<std::string> messages_;
};

/// The fixture of the OAuth integration suites: a server whose mail goes to an SmtpSink, and
/// an administrator `admin_token_` is a REST token of.
class OAuthSuite : public ::testing::Test {
  protected:
    static void startServer(const std::string& admin_email) {
        sink_ = new SmtpSink();
        TestServer::Options options;
        options.smtp_port = sink_->port();
        server_ = new TestServer(options);
        const std::string admin_id = server_->createUser(admin_email);
        server_->db().scalar("UPDATE users SET is_admin = true WHERE id = '" + admin_id + "'");
        admin_token_ = server_->token(admin_id, TestServer::allScopes(), 3600);
    }
    static void TearDownTestSuite() {
        delete server_;
        delete sink_;
        server_ = nullptr;
        sink_ = nullptr;
    }

    static int port() { return server_->port(); }
    static std::string base() { return server_->baseUrl(); }

    static inline TestServer* server_ = nullptr;
    static inline SmtpSink* sink_ = nullptr;
    static inline std::string admin_token_;
};

}  // namespace docintel::test::oauth
