#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "http/schema_validator.h"

namespace docintel::http {

/// What a client's JSON may cost before anything is built from it (issue 21, item 3).
struct JsonBodyLimits {
    int max_depth = 64;                ///< nesting of objects and arrays
    std::size_t max_values = 100'000;  ///< every scalar, object and array counts once
};

/// The one decoder of client JSON (REST bodies, MCP messages, OAuth registration). It first
/// reads the text with a SAX pass that builds nothing, refusing, each with its `loc` under
/// `loc_prefix`:
///   - text that is not JSON or not UTF-8 (`json_invalid`, loc carries the byte offset),
///   - nesting deeper than `max_depth` (`json_too_deep`) or more than `max_values` values
///     (`json_too_large`), so no request can make the process build a huge document,
///   - a number beyond double range (`finite_number`; integers beyond int64 are the schema's
///     to refuse, `int_parsing_size`, since free-form objects may carry them),
///   - a NUL character in a string or a key (`string_nul`; Postgres cannot store it and C
///     strings would cut it),
/// and only then builds the value. Returns nullopt with `issues` filled on refusal.
/// Thread-safe (no shared state).
std::optional<nlohmann::json> parseJsonBody(std::string_view text, const JsonBodyLimits& limits,
                                            const nlohmann::json& loc_prefix,
                                            std::vector<ValidationIssue>& issues);

}  // namespace docintel::http
