#pragma once

// The 422 of a feature plugin's own checks, in the request validator's shape: a
// `validation_error` whose message is the JSON `detail` array of {loc, msg, type} items (the
// host's error mapper turns it into HTTPValidationError). Header-only; thread-safe.

#include <string>

#include <nlohmann/json.hpp>

#include "plugin_api/error.h"

namespace docintel::shared {

/// Collects detail items; error() is the 422 carrying them all.
class Problems {
  public:
    void add(nlohmann::json loc, const std::string& msg, const std::string& type = "value_error") {
        detail_.push_back({{"loc", std::move(loc)}, {"msg", msg}, {"type", type}});
    }
    bool empty() const { return detail_.empty(); }
    const nlohmann::json& detail() const { return detail_; }
    plugin::Error error() const { return {"validation_error", detail_.dump(), 422}; }

  private:
    nlohmann::json detail_ = nlohmann::json::array();
};

/// A 422 with one detail item.
inline plugin::Error validationError(nlohmann::json loc, const std::string& msg,
                                     const std::string& type = "value_error") {
    Problems p;
    p.add(std::move(loc), msg, type);
    return p.error();
}

/// `error` as the validator's 422 at `loc` when it is a 422 of another shape (a rule's
/// `unsupported_language`, say, becomes the detail item's `type`); any other error as it is.
/// A 422 on the REST surface always carries the `detail` array.
inline plugin::Error atField(plugin::Error error, nlohmann::json loc) {
    if (error.http_status != 422 || error.code == "validation_error") return error;
    return validationError(std::move(loc), error.message, error.code);
}

}  // namespace docintel::shared
