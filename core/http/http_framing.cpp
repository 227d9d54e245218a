#include "http/http_framing.h"

#include <Poco/Net/HTTPRequest.h>
#include <Poco/String.h>

namespace docintel::http {
namespace {

bool allDigits(const std::string& s) {
    if (s.empty() || s.size() > 18) return false;  // 18 digits always fit an int64
    for (const char c : s) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

}  // namespace

plugin::Error malformedContentLength() {
    return {"invalid_content_length", "Content-Length must be a decimal number of bytes", 400};
}

std::optional<plugin::Error> framingError(const Poco::Net::HTTPRequest& request, Framing& framing) {
    int lengths = 0;
    int encodings = 0;
    std::string length;
    std::string encoding;
    for (const auto& [name, value] : request) {
        if (Poco::icompare(name, "Content-Length") == 0) {
            ++lengths;
            length = Poco::trim(value);
        } else if (Poco::icompare(name, "Transfer-Encoding") == 0) {
            ++encodings;
            encoding = Poco::trim(value);
        }
    }
    if (lengths > 1) {
        return plugin::Error{"invalid_framing", "more than one Content-Length header", 400};
    }
    if (lengths == 1 && !allDigits(length)) return malformedContentLength();
    if (lengths == 1 && encodings > 0) {
        return plugin::Error{"invalid_framing",
                             "Content-Length and Transfer-Encoding cannot both be sent", 400};
    }
    if (encodings > 1 || (encodings == 1 && Poco::icompare(encoding, "chunked") != 0)) {
        return plugin::Error{"unsupported_transfer_encoding",
                             "the only Transfer-Encoding accepted is one chunked", 501};
    }
    framing.chunked = encodings == 1;
    framing.content_length = lengths == 1 ? std::stoll(length) : -1;
    const std::string& method = request.getMethod();
    const bool takes_body = method == "POST" || method == "PUT" || method == "PATCH";
    if (takes_body && !framing.chunked && framing.content_length < 0) {
        return plugin::Error{"length_required",
                             method + " needs a Content-Length (or chunked transfer encoding)",
                             411};
    }
    return std::nullopt;
}

}  // namespace docintel::http
