#pragma once

#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/Net/TCPServerConnectionFactory.h>

#include <cstddef>
#include <functional>
#include <istream>
#include <string>

#include "http/api_dispatcher.h"
#include "http/connection_guard.h"

namespace docintel::http {

/// What every connection of one listener shares. Owned by HttpServer; outlives its
/// connections. Immutable once the listener starts (the guard is thread-safe).
struct ConnectionContext {
    using Handler = std::function<plugin::HttpResponse(const RawRequest&)>;
    using StreamHandler = std::function<plugin::HttpResponse(const RawRequest&, std::istream&)>;
    /// The largest body `method path` accepts (the route's `max_body_bytes`).
    using BodyLimit =
        std::function<std::size_t(const std::string& method, const std::string& path)>;

    explicit ConnectionContext(ConnectionLimits limits) : guard(limits) {}

    Handler handler;
    std::string stream_prefix;
    StreamHandler stream_handler;
    BodyLimit body_limit;
    std::size_t default_max_body = 0;
    Poco::Net::HTTPServerParams::Ptr params;
    ConnectionGuard guard;
};

/// Makes one HttpConnection per accepted socket: the HTTP/1.1 loop of Poco's
/// HTTPServerConnection plus deadlines (head, body, keep-alive), strict framing (400/411/501
/// before a body is read), the per-route body limit (413) and the per-address cap.
Poco::Net::TCPServerConnectionFactory::Ptr connectionFactory(ConnectionContext& context);

/// Refuses, at accept and before a thread is used, a socket whose address holds its cap.
Poco::Net::TCPServerConnectionFilter::Ptr addressFilter(ConnectionGuard& guard);

}  // namespace docintel::http
