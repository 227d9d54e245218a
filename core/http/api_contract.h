#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "http/router.h"

namespace docintel::http {

/// The response side of the REST contract, kept as data in the embedded
/// schemas/openapi/operations.json so that route rows (built-in and plugin) stay what they are.
/// An entry names the success body's schema (`response`), its media type when it streams
/// (`content_type`), the error statuses beyond those the OpenAPI generator derives from the
/// operation's shape (`errors`), allowed values of query parameters (`query`), and an OpenAPI
/// fragment for operations answered in front of the dispatcher (`openapi`, for `/token`).
///
/// Entries are found by operation id, or for routes every vertical plugin registers the same
/// way (plugins/shared/vertical_routes.h: thin adapters over the host's workflow runs, whose
/// records the host defines) by method and path with `*` for the vertical's segment.
///
/// Thread-safe: the table is parsed once and never changes. Throws std::runtime_error when the
/// embedded table is missing or malformed (a build bug, not an input error).
const nlohmann::json& responseContract(const Route& route);

}  // namespace docintel::http
