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

}  // namespace

WebhookResponse WebhookClient::post(const Destination& d,
                                    const std::vector<std::pair<std::string, std::string>>& headers,
                                    const std::string& body) const {
    const auto started = std::chrono::steady_clock::now();
    const Poco::Timespan timeout(static_cast<long>(timeout_ms_ / 1000),
                                 static_cast<long>((timeout_ms_ % 1000) * 1000));
    WebhookResponse out;
    const auto finish = [&] {
        out.duration_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::steady_clock::now() - started)
                                               .count());
        return out;
    };
    std::unique_ptr<Poco::Net::HTTPClientSession> session;
    for (const auto& address : d.addresses) {
        try {
            const Poco::Net::SocketAddress to(address, d.port);
            if (d.scheme == "https") {
                Poco::Net::SecureStreamSocket socket(common::tlsClientContext());
                socket.setPeerHostName(d.host);
                socket.connect(to, timeout);
                session = std::make_unique<Poco::Net::HTTPSClientSession>(socket);
            } else {
                Poco::Net::StreamSocket socket;
                socket.connect(to, timeout);
                session = std::make_unique<Poco::Net::HTTPClientSession>(socket);
            }
            break;
        } catch (const Poco::TimeoutException&) {
            out.error_code = "timeout";
        } catch (const Poco::Net::SSLException&) {
            out.error_code = "tls_error";
        } catch (const Poco::Exception&) {
            out.error_code = "connection_failed";
        }
    }
    if (!session) return finish();
    out.error_code.clear();
    try {
        session->setTimeout(timeout);
        session->setKeepAlive(false);
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, d.path_and_query,
                                       Poco::Net::HTTPMessage::HTTP_1_1);
        request.set("Host", hostHeader(d));
        request.setContentType("application/json");
        request.set("User-Agent", "docintel-webhooks/1");
        for (const auto& [name, value] : headers) request.set(name, value);
        request.setContentLength(static_cast<std::streamsize>(body.size()));
        session->sendRequest(request) << body;
        Poco::Net::HTTPResponse response;
        std::istream& in = session->receiveResponse(response);
        out.http_status = static_cast<int>(response.getStatus());
        std::string preview(kPreviewBytes, '\0');
        in.read(preview.data(), static_cast<std::streamsize>(preview.size()));
        preview.resize(static_cast<std::size_t>(in.gcount()));
        out.response_preview = common::toValidUtf8(preview);
    } catch (const Poco::TimeoutException&) {
        out.error_code = "timeout";
    } catch (const Poco::Net::SSLException&) {
        out.error_code = "tls_error";
    } catch (const Poco::Exception&) {
        if (out.http_status == 0) out.error_code = "connection_failed";
    } catch (const std::exception&) {
        if (out.http_status == 0) out.error_code = "connection_failed";
    }
    return finish();
}

}  // namespace docintel::events
