#include "http/http_server.h"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/String.h>
#include <Poco/ThreadPool.h>

#include <chrono>
#include <thread>

#include "common/log.h"

namespace docintel::http {
namespace {

class RequestHandler final : public Poco::Net::HTTPRequestHandler {
  public:
    RequestHandler(const HttpServer::Handler& handler, const std::string& stream_prefix,
                   const HttpServer::StreamHandler& stream_handler, std::size_t max_body)
        : handler_(handler),
          stream_prefix_(stream_prefix),
          stream_handler_(stream_handler),
          max_body_(max_body) {}

    void handleRequest(Poco::Net::HTTPServerRequest& req,
                       Poco::Net::HTTPServerResponse& resp) override {
        try {
            serve(req, resp);
        } catch (const std::exception& e) {
            common::log(common::LogLevel::kError, "http_transport_error", {{"what", e.what()}});
            if (!resp.sent()) {
                resp.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_INTERNAL_SERVER_ERROR);
                resp.setContentType("application/json");
                resp.send() << R"({"detail":"internal error","code":"internal_error"})";
            }
        }
    }

  private:
    void serve(Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) {
        RawRequest raw;
        raw.method = req.getMethod();
        const std::string& uri = req.getURI();
        const auto q = uri.find('?');
        raw.path = uri.substr(0, q);
        if (q != std::string::npos) raw.query = uri.substr(q + 1);
        for (const auto& [name, value] : req) raw.headers[Poco::toLower(name)] = value;
        raw.remote_address = req.clientAddress().host().toString();

        if (stream_handler_ && !stream_prefix_.empty() && raw.path.rfind(stream_prefix_, 0) == 0) {
            send(resp, stream_handler_(raw, req.stream()));
            return;
        }
        const auto declared = req.getContentLength64();
        if (declared > static_cast<std::int64_t>(max_body_)) {
            sendTooLarge(resp);
            return;
        }
        auto& in = req.stream();
        char buf[8192];
        while (in.good()) {
            in.read(buf, sizeof(buf));
            raw.body.append(buf, static_cast<std::size_t>(in.gcount()));
            if (raw.body.size() > max_body_) {
                sendTooLarge(resp);
                return;
            }
        }

        send(resp, handler_(raw));
    }

    static void send(Poco::Net::HTTPServerResponse& resp, const plugin::HttpResponse& out) {
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
        resp.send().write(body.data(), static_cast<std::streamsize>(body.size()));
    }

    static void sendTooLarge(Poco::Net::HTTPServerResponse& resp) {
        const std::string body =
            R"({"detail":"request body too large","code":"payload_too_large"})";
        resp.setStatus(Poco::Net::HTTPResponse::HTTP_REQUEST_ENTITY_TOO_LARGE);
        resp.setKeepAlive(false);
        resp.setContentType("application/json");
        resp.setContentLength64(static_cast<std::int64_t>(body.size()));
        resp.send() << body;
    }

    const HttpServer::Handler& handler_;
    const std::string& stream_prefix_;
    const HttpServer::StreamHandler& stream_handler_;
    const std::size_t max_body_;
};

class HandlerFactory final : public Poco::Net::HTTPRequestHandlerFactory {
  public:
    HandlerFactory(const HttpServer::Handler& handler, const std::string& stream_prefix,
                   const HttpServer::StreamHandler& stream_handler, std::size_t max_body)
        : handler_(handler),
          stream_prefix_(stream_prefix),
          stream_handler_(stream_handler),
          max_body_(max_body) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(
        const Poco::Net::HTTPServerRequest&) override {
        return new RequestHandler(handler_, stream_prefix_, stream_handler_, max_body_);
    }

  private:
    const HttpServer::Handler& handler_;
    const std::string& stream_prefix_;
    const HttpServer::StreamHandler& stream_handler_;
    const std::size_t max_body_;
};

}  // namespace

HttpServer::HttpServer(HttpServerOptions options, Handler handler)
    : options_(std::move(options)), handler_(std::move(handler)) {}

HttpServer::~HttpServer() { stop(0); }

void HttpServer::setStreamHandler(std::string prefix, StreamHandler handler) {
    stream_prefix_ = std::move(prefix);
    stream_handler_ = std::move(handler);
}

void HttpServer::bind() {
    socket_ = std::make_unique<Poco::Net::ServerSocket>();
    socket_->bind(Poco::Net::SocketAddress(options_.host, static_cast<Poco::UInt16>(options_.port)),
                  true);
    socket_->listen(256);
    bound_port_ = socket_->address().port();
}

void HttpServer::start() {
    if (!socket_) bind();
    auto* params = new Poco::Net::HTTPServerParams;  // owned by the server (AutoPtr)
    params->setMaxThreads(options_.max_threads);
    params->setMaxQueued(options_.max_queued);
    params->setKeepAlive(true);
    params->setMaxKeepAliveRequests(0);
    params->setKeepAliveTimeout(Poco::Timespan(10, 0));
    params->setServerName("docintel");
    pool_ = std::make_unique<Poco::ThreadPool>(2, options_.max_threads + 4);
    server_ = std::make_unique<Poco::Net::HTTPServer>(
        new HandlerFactory(handler_, stream_prefix_, stream_handler_, options_.max_body_bytes),
        *pool_, *socket_, params);
    server_->start();
}

void HttpServer::stop(int grace_ms) {
    if (!server_) return;
    // Stop accepting; each connection closes once its in-flight request is answered.
    server_->stopAll(false);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
    while (server_->currentConnections() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    server_.reset();
    pool_->joinAll();
    pool_.reset();
}

}  // namespace docintel::http
