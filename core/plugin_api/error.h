#pragma once

#include <string>
#include <utility>

namespace docintel::plugin {

/// An expected failure: what went wrong (a stable machine `code`), a message safe to show to a
/// client, and the HTTP status it maps to. The one error mapper turns it into a REST or MCP
/// response; nothing else formats errors.
struct Error {
    std::string code;
    std::string message;
    int http_status = 500;

    static Error badRequest(std::string code, std::string message) {
        return {std::move(code), std::move(message), 400};
    }
    static Error unauthorized(std::string message) {
        return {"invalid_token", std::move(message), 401};
    }
    static Error forbidden(std::string code, std::string message) {
        return {std::move(code), std::move(message), 403};
    }
    static Error notFound(std::string message) { return {"not_found", std::move(message), 404}; }
    static Error conflict(std::string code, std::string message) {
        return {std::move(code), std::move(message), 409};
    }
    static Error unprocessable(std::string code, std::string message) {
        return {std::move(code), std::move(message), 422};
    }
    static Error internal(std::string message) {
        return {"internal_error", std::move(message), 500};
    }
    static Error notImplemented() { return {"not_implemented", "not implemented yet", 501}; }
    static Error unavailable(std::string code, std::string message) {
        return {std::move(code), std::move(message), 503};
    }
};

}  // namespace docintel::plugin
