#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "http/api_dispatcher.h"
#include "http/connection_guard.h"

namespace Poco {
class ThreadPool;
namespace Net {
class TCPServer;
class ServerSocket;
}  // namespace Net
}  // namespace Poco

namespace docintel::http {

struct ConnectionContext;

/// The default largest request body of an operation that declares none (decision 0061).
constexpr std::size_t kDefaultMaxBodyBytes = 1024 * 1024;

struct HttpServerOptions {
    std::string host = "0.0.0.0";
    int port = 8080;  ///< 0 picks a free port
    int max_threads = 128;
    int max_queued = 256;
    /// The body limit when no `BodyLimit` is set (the MCP listener).
    std::size_t max_body_bytes = kDefaultMaxBodyBytes;
    ConnectionLimits connections;
};

/// Serves HTTP/1.1 on Poco's TCPServer (one pool thread per connection), handing every
/// request to `handler` as a RawRequest. Before a handler runs, the transport enforces
/// decision 0061: a deadline for each request head and body, a keep-alive idle timeout, a cap
/// on connections per client address, strict framing (duplicate or conflicting lengths → 400,
/// a body without a length → 411) and the route's body limit (413). Owns its socket and
/// thread pool. `start`/`stop` are called from one thread.
class HttpServer {
  public:
    using Handler = std::function<plugin::HttpResponse(const RawRequest&)>;
    /// Gets the body as a stream instead of in memory (object uploads); `RawRequest::body`
    /// is empty.
    using StreamHandler = std::function<plugin::HttpResponse(const RawRequest&, std::istream&)>;
    /// The largest body `method path` accepts; asked before any of the body is read.
    using BodyLimit =
        std::function<std::size_t(const std::string& method, const std::string& path)>;

    HttpServer(HttpServerOptions options, Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Routes requests whose path starts with `prefix` to `handler`. Call before `start`.
    void setStreamHandler(std::string prefix, StreamHandler handler);
    /// Sets the per-request body limit (else `max_body_bytes`). Call before `start`.
    void setBodyLimit(BodyLimit limit);

    /// Binds the listening socket (so `port()` is known before serving). Throws
    /// Poco::Exception when the port cannot be bound.
    void bind();
    /// Starts accepting (binding first if needed).
    void start();
    /// Stops accepting, lets in-flight requests finish for up to `grace_ms`, then cuts the
    /// connections still open.
    void stop(int grace_ms = 10000);
    /// The bound port (useful with port 0).
    int port() const { return bound_port_; }

  private:
    HttpServerOptions options_;
    std::unique_ptr<ConnectionContext> context_;
    std::unique_ptr<Poco::ThreadPool> pool_;
    std::unique_ptr<Poco::Net::TCPServer> server_;
    std::unique_ptr<Poco::Net::ServerSocket> socket_;
    int bound_port_ = 0;
};

}  // namespace docintel::http
