#pragma once

#include <utility>

#include <nlohmann/json.hpp>

#include "plugin_api/http_types.h"

namespace docintel::http {

/// A service call that returns JSON, as a route handler: its value is the JSON body; errors go to
/// the error mapper (a `validation_error`, whose message is the detail array, becomes the 422
/// validation shape there).
template <typename Call>
plugin::HttpHandler jsonHandler(Call&& call) {
    return [call = std::forward<Call>(call)](
               const plugin::HttpRequest& req) -> plugin::Result<plugin::HttpResponse> {
        plugin::Result<nlohmann::json> out = call(req);
        if (out) return plugin::HttpResponse::json(std::move(out).value());
        return out.error();
    };
}

}  // namespace docintel::http
