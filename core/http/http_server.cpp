#include "http/http_server.h"

#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/ThreadPool.h>

#include <chrono>
#include <thread>

#include "http/http_connection.h"

namespace docintel::http {

HttpServer::HttpServer(HttpServerOptions options, Handler handler)
    : options_(std::move(options)),
      context_(std::make_unique<ConnectionContext>(options_.connections)) {
    context_->handler = std::move(handler);
    context_->default_max_body = options_.max_body_bytes;
}

HttpServer::~HttpServer() { stop(0); }

void HttpServer::setStreamHandler(std::string prefix, StreamHandler handler) {
    context_->stream_prefix = std::move(prefix);
    context_->stream_handler = std::move(handler);
}

void HttpServer::setBodyLimit(BodyLimit limit) { context_->body_limit = std::move(limit); }

void HttpServer::bind() {
    socket_ = std::make_unique<Poco::Net::ServerSocket>();
    socket_->bind(Poco::Net::SocketAddress(options_.host, static_cast<Poco::UInt16>(options_.port)),
                  true);
    socket_->listen(1024);
    bound_port_ = socket_->address().port();
}

void HttpServer::start() {
    if (!socket_) bind();
    const auto& limits = options_.connections;
    Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(options_.max_threads);
    params->setMaxQueued(options_.max_queued);
    params->setKeepAlive(true);
    params->setMaxKeepAliveRequests(0);
    params->setKeepAliveTimeout(
        Poco::Timespan(Poco::Timespan::TimeDiff(limits.keep_alive_timeout_ms) * 1000));
    // Each read and write waits at most this long; the guard's deadlines bound the totals.
    params->setTimeout(Poco::Timespan(Poco::Timespan::TimeDiff(limits.body_timeout_ms) * 1000));
    params->setServerName("docintel");
    context_->params = params;
    pool_ = std::make_unique<Poco::ThreadPool>(2, options_.max_threads + 4);
    server_ = std::make_unique<Poco::Net::TCPServer>(connectionFactory(*context_), *pool_, *socket_,
                                                     params);
    server_->setConnectionFilter(addressFilter(context_->guard));
    server_->start();
}

void HttpServer::stop(int grace_ms) {
    if (!server_) return;
    // Stop accepting; idle connections close now, busy ones after their request.
    server_->stop();
    context_->guard.stopAll();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
    while (server_->currentConnections() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    context_->guard.abortAll();
    server_.reset();
    pool_->joinAll();
    pool_.reset();
}

}  // namespace docintel::http
