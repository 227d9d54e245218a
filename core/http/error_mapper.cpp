#include "http/error_mapper.h"

namespace docintel::http {

plugin::HttpResponse errorResponse(const plugin::Error& error, const std::string& trace_id,
                                   const std::string& resource_metadata_url) {
    const int status =
        error.http_status >= 400 && error.http_status < 600 ? error.http_status : 500;
    // A service's (or a plugin's) `validation_error` carries the detail array as JSON text: the
    // 422 the request validator writes.
    if (status == 422 && error.code == "validation_error") {
        auto detail = nlohmann::json::parse(error.message, nullptr, false);
        if (detail.is_array()) return plugin::HttpResponse::json(422, {{"detail", detail}});
    }
    const std::string message =
        status == 500 ? std::string("internal error; quote trace_id when reporting it")
                      : error.message;
    auto response =
        plugin::HttpResponse::json(status, {{"detail", message},
                                            {"code", status == 500 ? "internal_error" : error.code},
                                            {"trace_id", trace_id}});
    if (status == 401) {
        response.headers.emplace_back("WWW-Authenticate",
                                      "Bearer error=\"invalid_token\", error_description=\"" +
                                          error.message + "\", resource_metadata=\"" +
                                          resource_metadata_url + "\"");
    } else if (status == 403 && error.code == "insufficient_scope") {
        response.headers.emplace_back("WWW-Authenticate",
                                      "Bearer error=\"insufficient_scope\", error_description=\"" +
                                          error.message + "\", resource_metadata=\"" +
                                          resource_metadata_url + "\"");
    }
    return response;
}

plugin::HttpResponse validationResponse(const std::vector<ValidationIssue>& issues) {
    nlohmann::json detail = nlohmann::json::array();
    for (const auto& issue : issues) detail.push_back(issue.toJson());
    return plugin::HttpResponse::json(422, {{"detail", detail}});
}

}  // namespace docintel::http
