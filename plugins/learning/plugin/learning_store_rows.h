#pragma once

// What the learning store's files share to turn rows into structs and results into statuses.
// Internal to learning_store*.cpp.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::learning::store::rows {

/// A statement's outcome without its rows.
plugin::Status ok(const plugin::Result<nlohmann::json>& r);
/// The strings of a JSON array (anything else: none).
std::vector<std::string> strings(const nlohmann::json& value);

}  // namespace docintel::learning::store::rows
