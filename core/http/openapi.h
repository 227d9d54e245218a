#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "http/router.h"
#include "http/schema_validator.h"

namespace docintel::http {

struct OpenApiInfo {
    std::string title = "docintel";
    std::string version;
    std::string server_url;  ///< {base_url}
    std::string issuer;      ///< the authorization server (for OAuth2 flow URLs)
};

/// The scopes a client can request, with their descriptions (spec §5.4).
const nlohmann::json& scopeDescriptions();

/// Generates the OpenAPI 3.1 document from the route table and the schemas: every route
/// (built-in and plugin, tagged), its parameters, request body, its success response (the
/// route's response schema; an event stream's frame schema in `x-docintel-frame-schema`), its
/// error responses (those its shape implies plus its declared ones, each with the error or
/// validation shape), and a `security` requirement naming its scopes. Pure function of its
/// inputs and the embedded operation table (http/api_contract.h).
nlohmann::json buildOpenApi(const Router& router, const SchemaRegistry& schemas,
                            const OpenApiInfo& info);

}  // namespace docintel::http
