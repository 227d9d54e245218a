#pragma once

// The 422 of the learning operations: a `validation_error` whose message is the JSON `detail`
// array, in the request validator's shape ({loc, msg, type} items). Pure; thread-safe.

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "plugin_api/error.h"
#include "shared/problems.h"
#include "shared/study_text.h"

namespace docintel::learning {

using shared::Problems;
using shared::validationError;

using study::lowered;
using study::trim;
using study::utf8Length;

/// Checks an optional string field of `body`: absent (or null when `nullable`) is fine; a
/// non-string or a length outside [min, max] adds a problem at `loc`.
void checkString(const nlohmann::json& body, const char* field, std::size_t min, std::size_t max,
                 bool nullable, const nlohmann::json& loc_prefix, Problems& problems);

/// Checks an optional array-of-strings field (null allowed when `nullable`).
void checkStrings(const nlohmann::json& body, const char* field, bool nullable,
                  const nlohmann::json& loc_prefix, Problems& problems);

}  // namespace docintel::learning
