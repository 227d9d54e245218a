#pragma once

#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/error.h"

namespace re2 {
class RE2;
}

namespace docintel::http {

/// One failed rule, in FastAPI's shape: `loc` starts with body/query/path.
struct ValidationIssue {
    nlohmann::json loc;  ///< array of strings and integers
    std::string msg;
    std::string type;

    nlohmann::json toJson() const { return {{"loc", loc}, {"msg", msg}, {"type", type}}; }
};

/// The `validation_error` (422) of failed rules: its message is the detail array, which the
/// error mapper sends in the 422 shape and the console lists as messages.
plugin::Error validationError(const std::vector<ValidationIssue>& issues);

/// Holds the request schemas by name and validates JSON values against them.
///
/// Supports the JSON Schema subset our schemas use (type incl. nullable unions, properties,
/// required, default, minLength/maxLength, minimum/maximum/exclusiveMinimum, enum, pattern,
/// formats date-time/date/uuid/email/uri, items, minItems/maxItems, additionalProperties (a schema,
/// or false), and
/// `$ref` to another registered schema by file name). Errors carry pydantic v2 error types so
/// clients written against the original service read them unchanged (docs/decisions/0001).
/// Every check is linear in the input: patterns run on RE2, formats on one-pass parsers, so no
/// client string can drive a recursion (issue 21).
///
/// Thread-safe: schemas may be added (plugins) while requests validate.
class SchemaRegistry {
  public:
    SchemaRegistry();
    ~SchemaRegistry();
    SchemaRegistry(const SchemaRegistry&) = delete;
    SchemaRegistry& operator=(const SchemaRegistry&) = delete;

    /// Adds the request schemas embedded from schemas/api. Throws std::runtime_error on a bad
    /// file.
    void loadBuiltins();

    /// Adds one other embedded schema (path relative to schemas/) under `name`. Throws
    /// std::runtime_error when it is not embedded or not valid JSON.
    void loadBuiltin(const std::string& file, const std::string& name);

    /// Registers `schema` under `name` (e.g. "WorkspaceCreateInput") and compiles its
    /// patterns; false if the name is taken or a pattern is one RE2 cannot read.
    bool add(const std::string& name, nlohmann::json schema);
    /// The first `pattern` of `schema` that RE2 cannot read, if any (checked before `add`).
    static std::optional<std::string> unreadablePattern(const nlohmann::json& schema);

    bool has(const std::string& name) const;
    /// The schema as registered; throws std::out_of_range when unknown.
    nlohmann::json get(const std::string& name) const;
    std::vector<std::string> names() const;

    /// Validates `value` against schema `name`, prefixing every `loc` with `loc_prefix`. When
    /// valid, fills in schema defaults for absent properties (recursively) and returns no
    /// issues.
    std::vector<ValidationIssue> validate(const std::string& name, nlohmann::json& value,
                                          const nlohmann::json& loc_prefix) const;

  private:
    void validateNode(const nlohmann::json& schema, nlohmann::json& value, nlohmann::json& loc,
                      std::vector<ValidationIssue>& issues) const;
    const nlohmann::json& resolve(const nlohmann::json& schema) const;

    mutable std::shared_mutex mutex_;  // guards schemas_ and patterns_
    std::map<std::string, std::shared_ptr<const nlohmann::json>> schemas_;
    /// Every pattern of the registered schemas, compiled when its schema was added; never
    /// removed, so a pointer to one stays valid.
    std::map<std::string, std::unique_ptr<const re2::RE2>> patterns_;
};

}  // namespace docintel::http
