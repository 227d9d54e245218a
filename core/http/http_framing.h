#pragma once

#include <cstdint>
#include <optional>

#include "plugin_api/error.h"

namespace Poco::Net {
class HTTPRequest;
}  // namespace Poco::Net

namespace docintel::http {

/// How a request's body is delimited, once `framingError` found nothing wrong.
struct Framing {
    bool chunked = false;
    std::int64_t content_length = -1;  ///< -1: none declared
};

/// Checks a request head before any of its body is read (RFC 9112 §6, strictly): at most one
/// `Content-Length`, made of digits only; `Transfer-Encoding` only as one `chunked` and never
/// together with a length; POST, PUT and PATCH carry one or the other. Returns the error to
/// answer with (400, 501 or 411), else the framing.
std::optional<plugin::Error> framingError(const Poco::Net::HTTPRequest& request, Framing& framing);

/// The error for a `Content-Length` that Poco could not even parse.
plugin::Error malformedContentLength();

}  // namespace docintel::http
