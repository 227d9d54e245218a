#include "http/http_connection.h"

#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponseImpl.h>
#include <Poco/Net/HTTPServerSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/String.h>
#include <Poco/Timestamp.h>

#include <chrono>
#include <memory>

#include "common/log.h"
#include "http/error_mapper.h"
#include "http/http_framing.h"

namespace docintel::http {
namespace {

using Poco::Net::HTTPServerRequestImpl;
using Poco::Net::HTTPServerResponseImpl;

// A streamed upload may take its body timeout plus one second per this many bytes.
constexpr std::int64_t kMinUploadBytesPerSecond = 256 * 1024;

/// Writes `out` (a whole body, or a stream of pieces as chunked encoding).
void send(HTTPServerResponseImpl& resp, const plugin::HttpResponse& out) {
    resp.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(out.status));
    for (const auto& [name, value] : out.headers) resp.add(name, value);
    if (out.stream) {
        resp.setContentType(out.content_type);
        resp.setChunkedTransferEncoding(true);
        std::ostream& os = resp.send();
        out.stream([&os](const std::string& piece) {
            os.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            os.flush();
            return os.good();
        });
        return;
    }
    // Invalid UTF-8 in a response (a document's bytes, an echoed value) is replaced, never
    // an exception after the status line.
    const std::string body =
        out.raw_body.empty() && out.content_type == "application/json"
            ? out.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
            : out.raw_body;
    resp.setContentType(out.content_type);
    resp.setContentLength64(static_cast<std::int64_t>(body.size()));
    std::ostream& os = resp.send();
    os.write(body.data(), static_cast<std::streamsize>(body.size()));
    os.flush();  // now, not when the response goes: a refusal shuts the socket down after
}

/// Answers a request the transport refuses (framing, size, deadline) in the error shape with
/// a trace id, and closes the connection after it: the rest of its bytes cannot be trusted.
void refuse(HTTPServerResponseImpl& resp, const plugin::Error& error, const RawRequest& raw) {
    const std::string trace_id = traceIdFor(raw.headers);
    auto out = errorResponse(error, trace_id, {});
    out.headers.emplace_back("X-Trace-Id", trace_id);
    common::log(common::LogLevel::kInfo, "http_refused",
                {{"method", raw.method},
                 {"path", raw.path},
                 {"status", std::to_string(error.http_status)},
                 {"code", error.code},
                 {"remote", raw.remote_address},
                 {"trace_id", trace_id}});
    resp.setKeepAlive(false);
    try {
        send(resp, out);
    } catch (const Poco::Exception&) {
        // The client is gone; nothing to tell it.
    }
}

/// After a refusal: sends FIN, then reads and drops what the client still sends (up to 4 MiB
/// or 2 s), so that closing does not reset the connection before the client read the answer.
void linger(Poco::Net::StreamSocket& socket) {
    try {
        socket.shutdownSend();
        socket.setReceiveTimeout(Poco::Timespan(0, 500 * 1000));
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        char buf[16384];
        std::size_t dropped = 0;
        while (dropped < (4u << 20) && std::chrono::steady_clock::now() < until) {
            const int n = socket.receiveBytes(buf, sizeof(buf));
            if (n <= 0) break;
            dropped += static_cast<std::size_t>(n);
        }
    } catch (const Poco::Exception&) {
        // Timed out or reset: the connection closes either way.
    }
}

plugin::Error timedOut() {
    return {"request_timeout", "the request was not received in time", 408};
}

RawRequest rawRequest(const HTTPServerRequestImpl& req) {
    RawRequest raw;
    raw.method = req.getMethod();
    const std::string& uri = req.getURI();
    const auto q = uri.find('?');
    raw.path = uri.substr(0, q);
    if (q != std::string::npos) raw.query = uri.substr(q + 1);
    for (const auto& [name, value] : req) raw.headers[Poco::toLower(name)] = value;
    raw.remote_address = req.clientAddress().host().toString();
    return raw;
}

/// One client connection, served on one pool thread: requests in turn (keep-alive) until the
/// client closes, a deadline passes, framing fails or the server stops.
class HttpConnection final : public Poco::Net::TCPServerConnection {
  public:
    HttpConnection(const Poco::Net::StreamSocket& socket, ConnectionContext& context)
        : TCPServerConnection(socket), context_(context) {
        try {
            address_ = socket.peerAddress().host().toString();
            admitted_ = context_.guard.admit(address_);
        } catch (const Poco::Exception&) {
            admitted_ = false;  // already disconnected
        }
    }
    ~HttpConnection() override {
        if (admitted_) context_.guard.release(address_);
    }

    void run() override {
        if (!admitted_) return;  // over the cap: closed unanswered
        const auto& limits = context_.guard.limits();
        Poco::Net::HTTPServerSession session(socket(), context_.params);
        // Declared after the session so it is unregistered before the socket closes.
        ConnectionGuard::Watch watch(context_.guard, socket().impl()->sockfd());
        watch.arm(limits.header_timeout_ms, true);
        bool first = true;
        while (!context_.guard.stopping() && session.hasMoreRequests()) {
            if (!first) watch.arm(limits.header_timeout_ms, true);
            first = false;
            try {
                if (!serveOne(session, watch)) break;
            } catch (const Poco::Exception& e) {
                // A network failure (reset, timeout) ends the connection quietly.
                if (!session.networkException()) {
                    common::log(common::LogLevel::kWarning, "http_connection_error",
                                {{"what", e.displayText()}, {"remote", address_}});
                }
                break;
            }
            watch.arm(limits.keep_alive_timeout_ms + limits.header_timeout_ms, true);
        }
    }

  private:
    /// Serves one request; false when the connection must close.
    bool serveOne(Poco::Net::HTTPServerSession& session, ConnectionGuard::Watch& watch) {
        HTTPServerResponseImpl response(session);
        std::unique_ptr<HTTPServerRequestImpl> request;
        // When the request cannot be built, `response` points at the dead request: answer on a
        // fresh one (as Poco's HTTPServerConnection does).
        const auto refuseUnparsed = [&](const plugin::Error& error) {
            HTTPServerResponseImpl fresh(session);
            fresh.setVersion(Poco::Net::HTTPMessage::HTTP_1_1);
            RawRequest raw;
            raw.remote_address = address_;
            refuse(fresh, error, raw);
        };
        try {
            request =
                std::make_unique<HTTPServerRequestImpl>(response, session, context_.params.get());
        } catch (const Poco::Net::NoMessageException&) {
            return false;  // closed (or idle past its deadline) before a request began
        } catch (const Poco::Net::MessageException&) {
            if (watch.expired()) {
                refuseUnparsed(timedOut());
            } else if (!session.networkException()) {
                refuseUnparsed({"bad_request", "malformed request head", 400});
            }
            return false;
        } catch (const Poco::SyntaxException&) {
            refuseUnparsed(malformedContentLength());
            linger(socket());
            return false;
        }
        response.setDate(Poco::Timestamp());
        response.setVersion(request->getVersion());
        response.setKeepAlive(context_.params->getKeepAlive() && request->getKeepAlive() &&
                              session.canKeepAlive());
        RawRequest raw = rawRequest(*request);
        // Poco takes end-of-file for the end of a head, so a head cut by the deadline can parse
        // as a shorter request: a head that finished late is never served.
        watch.disarm();
        if (watch.expired()) {
            refuse(response, timedOut(), raw);
            return false;
        }

        Framing framing;
        if (auto error = framingError(*request, framing)) {
            refuse(response, *error, raw);
            linger(socket());
            return false;
        }
        const auto& limits = context_.guard.limits();
        const bool has_body = framing.chunked || framing.content_length > 0;
        plugin::HttpResponse out;
        if (context_.stream_handler && !context_.stream_prefix.empty() &&
            raw.path.rfind(context_.stream_prefix, 0) == 0) {
            const auto extra_s =
                std::max<std::int64_t>(framing.content_length, 0) / kMinUploadBytesPerSecond;
            watch.arm(limits.body_timeout_ms + static_cast<int>(std::min<std::int64_t>(
                                                   extra_s * 1000, 24LL * 3600 * 1000)),
                      false);
            if (request->getExpectContinue()) response.sendContinue();
            out = callHandler(raw, [&] { return context_.stream_handler(raw, request->stream()); });
            // A body the handler left unread would be taken for the next request.
            if (has_body && request->stream().peek() != std::char_traits<char>::eof()) {
                response.setKeepAlive(false);
            }
        } else {
            const std::size_t limit = context_.body_limit
                                          ? context_.body_limit(raw.method, raw.path)
                                          : context_.default_max_body;
            if (framing.content_length > static_cast<std::int64_t>(limit)) {
                refuse(response, tooLarge(limit), raw);
                linger(socket());
                return false;
            }
            if (has_body) {
                watch.arm(limits.body_timeout_ms, false);
                if (request->getExpectContinue()) response.sendContinue();
                if (!readBody(*request, framing, limit, raw.body)) {
                    if (raw.body.size() > limit) {
                        refuse(response, tooLarge(limit), raw);
                        linger(socket());
                    } else if (watch.expired()) {
                        refuse(response, timedOut(), raw);
                    }
                    return false;
                }
            }
            watch.disarm();
            out = callHandler(raw, [&] { return context_.handler(raw); });
        }
        watch.disarm();
        send(response, out);
        session.setKeepAlive(context_.params->getKeepAlive() && response.getKeepAlive() &&
                             session.canKeepAlive());
        return true;
    }

    /// Reads the whole body into `body`; false when it ends early or passes `limit`.
    static bool readBody(HTTPServerRequestImpl& request, const Framing& framing, std::size_t limit,
                         std::string& body) {
        auto& in = request.stream();
        if (framing.content_length > 0)
            body.reserve(static_cast<std::size_t>(framing.content_length));
        char buf[16384];
        while (in.good()) {
            in.read(buf, sizeof(buf));
            body.append(buf, static_cast<std::size_t>(in.gcount()));
            if (body.size() > limit) return false;
        }
        return framing.chunked ? in.eof() && !in.bad()
                               : body.size() == static_cast<std::size_t>(framing.content_length);
    }

    static plugin::Error tooLarge(std::size_t limit) {
        return {"payload_too_large",
                "request body too large; this operation accepts at most " + std::to_string(limit) +
                    " bytes",
                413};
    }

    /// No exception leaves a handler: it becomes a 500 in the error shape.
    template <typename Call>
    static plugin::HttpResponse callHandler(const RawRequest& raw, Call&& call) {
        try {
            return call();
        } catch (const std::exception& e) {
            const std::string trace_id = traceIdFor(raw.headers);
            common::log(common::LogLevel::kError, "http_transport_error",
                        {{"what", e.what()}, {"trace_id", trace_id}});
            auto out = errorResponse(plugin::Error::internal(e.what()), trace_id, {});
            out.headers.emplace_back("X-Trace-Id", trace_id);
            return out;
        }
    }

    ConnectionContext& context_;
    std::string address_;
    bool admitted_ = false;
};

class ConnectionFactory final : public Poco::Net::TCPServerConnectionFactory {
  public:
    explicit ConnectionFactory(ConnectionContext& context) : context_(context) {}
    Poco::Net::TCPServerConnection* createConnection(
        const Poco::Net::StreamSocket& socket) override {
        return new HttpConnection(socket, context_);
    }

  private:
    ConnectionContext& context_;
};

class AddressFilter final : public Poco::Net::TCPServerConnectionFilter {
  public:
    explicit AddressFilter(ConnectionGuard& guard) : guard_(guard) {}
    bool accept(const Poco::Net::StreamSocket& socket) override {
        try {
            return !guard_.full(socket.peerAddress().host().toString());
        } catch (const Poco::Exception&) {
            return false;
        }
    }

  private:
    ConnectionGuard& guard_;
};

}  // namespace

Poco::Net::TCPServerConnectionFactory::Ptr connectionFactory(ConnectionContext& context) {
    return new ConnectionFactory(context);
}

Poco::Net::TCPServerConnectionFilter::Ptr addressFilter(ConnectionGuard& guard) {
    return new AddressFilter(guard);
}

}  // namespace docintel::http
