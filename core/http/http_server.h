#pragma once

#include <functional>
#include <memory>
#include <string>

#include "http/api_dispatcher.h"

namespace Poco {
class ThreadPool;
namespace Net {
class HTTPServer;
class ServerSocket;
}  // namespace Net
}  // namespace Poco

namespace docintel::http {

struct HttpServerOptions {
    std::string host = "0.0.0.0";
    int port = 8080;  ///< 0 picks a free port
    int max_threads = 64;
    int max_queued = 256;
    std::size_t max_body_bytes = 16 * 1024 * 1024;
};

/// Serves HTTP/1.1 with Poco, handing every request to `handler` as a RawRequest. Owns its
/// socket and thread pool. `start`/`stop` are called from one thread.
class HttpServer {
  public:
    using Handler = std::function<plugin::HttpResponse(const RawRequest&)>;
    /// Gets the body as a stream instead of in memory (object uploads); `RawRequest::body`
    /// is empty.
    using StreamHandler = std::function<plugin::HttpResponse(const RawRequest&, std::istream&)>;

    HttpServer(HttpServerOptions options, Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Routes requests whose path starts with `prefix` to `handler`. Call before `start`.
    void setStreamHandler(std::string prefix, StreamHandler handler);

    /// Binds the listening socket (so `port()` is known before serving). Throws
    /// Poco::Exception when the port cannot be bound.
    void bind();
    /// Starts accepting (binding first if needed).
    void start();
    /// Stops accepting, lets in-flight requests finish for up to `grace_ms`, then closes.
    void stop(int grace_ms = 10000);
    /// The bound port (useful with port 0).
    int port() const { return bound_port_; }

  private:
    HttpServerOptions options_;
    Handler handler_;
    std::string stream_prefix_;
    StreamHandler stream_handler_;
    std::unique_ptr<Poco::ThreadPool> pool_;
    std::unique_ptr<Poco::Net::HTTPServer> server_;
    std::unique_ptr<Poco::Net::ServerSocket> socket_;
    int bound_port_ = 0;
};

}  // namespace docintel::http
