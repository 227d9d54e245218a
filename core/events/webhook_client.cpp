#include "events/webhook_client.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLException.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>

#include <chrono>
#include <memory>

#include "common/tls_client.h"
#include "common/utf8.h"

namespace docintel::events {
namespace {

std::string hostHeader(const Destination& d) {
    const bool v6 = d.host.find(':') != std::string::npos;
    std::string h = v6 ? "[" + d.host + "]" : d.host;
    const bool default_port =
        (d.scheme == "https" && d.port == 443) || (d.scheme == "http" && d.port == 80);
    if (!default_port) h += ":" + std::to_string(d.port);
    return h;
}

/// What must match for a kept connection to be used again.
std::string sessionKey(const Destination& d, const std::string& address) {
    return d.scheme + "|" + d.host + "|" + std::to_string(d.port) + "|" + address;
}

}  // namespace

WebhookClient::WebhookClient(int timeout_ms) : timeout_ms_(timeout_ms) {}
WebhookClient::~WebhookClient() = default;

Poco::Net::HTTPClientSession* WebhookClient::session(const Destination& d, WebhookResponse& out,
                                                     bool* reused) {
    *reused = false;
    if (session_) {
        for (const auto& address : d.addresses) {
            if (sessionKey(d, address) == session_key_ && session_->connected()) {
                *reused = true;
                return session_.get();
            }
        }
        session_.reset();
    }
    const Poco::Timespan timeout(static_cast<long>(timeout_ms_ / 1000),
                                 static_cast<long>((timeout_ms_ % 1000) * 1000));
    for (const auto& address : d.addresses) {
        try {
            const Poco::Net::SocketAddress to(address, d.port);
            if (d.scheme == "https") {
                Poco::Net::SecureStreamSocket socket(common::tlsClientContext());
                socket.setPeerHostName(d.host);
                socket.connect(to, timeout);
                session_ = std::make_unique<Poco::Net::HTTPSClientSession>(socket);
            } else {
                Poco::Net::StreamSocket socket;
                socket.connect(to, timeout);
                session_ = std::make_unique<Poco::Net::HTTPClientSession>(socket);
            }
            session_->setTimeout(timeout);
            session_->setKeepAlive(true);
            session_key_ = sessionKey(d, address);
            out.error_code.clear();
            return session_.get();
        } catch (const Poco::TimeoutException&) {
            out.error_code = "timeout";
        } catch (const Poco::Net::SSLException&) {
            out.error_code = "tls_error";
        } catch (const Poco::Exception&) {
            out.error_code = "connection_failed";
        }
    }
    return nullptr;
}

bool WebhookClient::exchange(Poco::Net::HTTPClientSession& session, const Destination& d,
                             const std::vector<std::pair<std::string, std::string>>& headers,
                             const std::string& body, WebhookResponse& out) {
    bool keep = false;
    try {
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, d.path_and_query,
                                       Poco::Net::HTTPMessage::HTTP_1_1);
        request.set("Host", hostHeader(d));
        request.setContentType("application/json");
        request.set("User-Agent", "docintel-webhooks/1");
        request.setKeepAlive(true);
        for (const auto& [name, value] : headers) request.set(name, value);
        request.setContentLength(static_cast<std::streamsize>(body.size()));
        session.sendRequest(request) << body;
        Poco::Net::HTTPResponse response;
        std::istream& in = session.receiveResponse(response);
        out.http_status = static_cast<int>(response.getStatus());
        std::string preview(kPreviewBytes, '\0');
        in.read(preview.data(), static_cast<std::streamsize>(preview.size()));
        preview.resize(static_cast<std::size_t>(in.gcount()));
        out.response_preview = common::toValidUtf8(preview);
        // The rest of a small body is read so the connection can carry the next post; a
        // receiver that says much more, or closes, gets a new connection next time.
        char rest[4096];
        std::size_t drained = 0;
        while (in && drained < (64u << 10)) {
            in.read(rest, sizeof(rest));
            drained += static_cast<std::size_t>(in.gcount());
        }
        keep = in.eof() && response.getKeepAlive();
    } catch (const Poco::TimeoutException&) {
        if (out.http_status == 0) out.error_code = "timeout";
    } catch (const Poco::Net::SSLException&) {
        if (out.http_status == 0) out.error_code = "tls_error";
    } catch (const Poco::Exception&) {
        if (out.http_status == 0) out.error_code = "connection_failed";
    } catch (const std::exception&) {
        if (out.http_status == 0) out.error_code = "connection_failed";
    }
    if (!keep) session_.reset();
    return out.http_status != 0;
}

WebhookResponse WebhookClient::post(const Destination& d,
                                    const std::vector<std::pair<std::string, std::string>>& headers,
                                    const std::string& body) {
    const auto started = std::chrono::steady_clock::now();
    WebhookResponse out;
    bool reused = false;
    Poco::Net::HTTPClientSession* s = session(d, out, &reused);
    if (s != nullptr && !exchange(*s, d, headers, body, out) && reused) {
        // The receiver closed the kept connection meanwhile: once more on a new one.
        out = WebhookResponse{};
        s = session(d, out, &reused);
        if (s != nullptr) exchange(*s, d, headers, body, out);
    }
    out.duration_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - started)
                                           .count());
    return out;
}

}  // namespace docintel::events
