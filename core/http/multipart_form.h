#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/http_types.h"

namespace docintel::http {

/// A multipart/form-data body (RFC 7578) read into its text fields and its file parts.
struct MultipartForm {
    nlohmann::json fields = nlohmann::json::object();  ///< name → string (the first of a name)
    std::vector<plugin::UploadedFile> files;           ///< parts with a filename, in order
};

/// Reads `body` sent with `content_type` (which must be multipart/form-data with a boundary).
/// A part with a `filename` is a file; any other named part is a text field. Nullopt when the
/// body is not such a form (no boundary, no closing boundary, a part without a name, more than
/// 100 parts).
std::optional<MultipartForm> parseMultipartForm(const std::string& content_type,
                                                const std::string& body);

/// True when `content_type` names multipart/form-data.
bool isMultipartForm(const std::string& content_type);

}  // namespace docintel::http
