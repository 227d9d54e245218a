#pragma once

#include <string>
#include <vector>

#include "http/schema_validator.h"
#include "plugin_api/error.h"
#include "plugin_api/http_types.h"

namespace docintel::http {

/// The one place an Error becomes a response: `{"detail","code","trace_id"}` with the error's
/// status; 401 adds `WWW-Authenticate: Bearer error="invalid_token", resource_metadata=...`,
/// 403 `insufficient_scope` adds `WWW-Authenticate: Bearer error="insufficient_scope",
/// scope=...`. A 500's message is replaced by a generic one. A 422 `validation_error` whose
/// message is a JSON detail array is the validator's `{"detail":[...]}`.
plugin::HttpResponse errorResponse(const plugin::Error& error, const std::string& trace_id,
                                   const std::string& resource_metadata_url);

/// 422 with FastAPI's `{"detail":[{"loc","msg","type"}]}`.
plugin::HttpResponse validationResponse(const std::vector<ValidationIssue>& issues);

}  // namespace docintel::http
