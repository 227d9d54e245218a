#include "http/schema_validator.h"

#include <re2/re2.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "common/id.h"

namespace docintel::schemas {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::http {
namespace {

constexpr std::string_view kSchemaSuffix = ".schema.json";

std::string refName(const std::string& ref) {
    std::string name = ref;
    const auto slash = name.rfind('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    if (name.size() > kSchemaSuffix.size() &&
        name.compare(name.size() - kSchemaSuffix.size(), kSchemaSuffix.size(), kSchemaSuffix) ==
            0) {
        name.resize(name.size() - kSchemaSuffix.size());
    }
    return name;
}

bool matchesType(const std::string& type, const nlohmann::json& v) {
    if (type == "string") return v.is_string();
    if (type == "integer") {
        if (v.is_number_unsigned()) {
            return v.get<std::uint64_t>() <=
                   static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        }
        if (v.is_number_integer()) return true;
        if (v.is_number_float()) {
            // Whole numbers within int64 only (2^63 itself is out: the cast would be undefined).
            const double d = v.get<double>();
            return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d);
        }
        return false;
    }
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_boolean();
    if (type == "array") return v.is_array();
    if (type == "object") return v.is_object();
    if (type == "null") return v.is_null();
    return false;
}

ValidationIssue typeIssue(const std::string& type, const nlohmann::json& loc) {
    if (type == "string") return {loc, "Input should be a valid string", "string_type"};
    if (type == "integer") return {loc, "Input should be a valid integer", "int_type"};
    if (type == "number") return {loc, "Input should be a valid number", "float_type"};
    if (type == "boolean") return {loc, "Input should be a valid boolean", "bool_type"};
    if (type == "array") return {loc, "Input should be a valid list", "list_type"};
    if (type == "object") return {loc, "Input should be a valid dictionary", "dict_type"};
    return {loc, "Input should be None", "none_required"};
}

std::string plural(long long n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string numberText(const nlohmann::json& n) { return n.dump(); }

std::size_t utf8Length(const std::string& s) {
    std::size_t n = 0;
    for (const unsigned char c : s) {
        if ((c & 0xC0) != 0x80) ++n;
    }
    return n;
}

bool digits(std::string_view s, std::size_t at, std::size_t n) {
    if (at + n > s.size()) return false;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
    }
    return true;
}

int number(std::string_view s, std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
    return v;
}

/// `YYYY-MM-DD` with a real month and day; one pass, no regular expression.
bool isDate(std::string_view s) {
    if (s.size() != 10 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' ||
        !digits(s, 8, 2)) {
        return false;
    }
    const int month = number(s, 5, 2);
    const int day = number(s, 8, 2);
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/// RFC 3339 date-time, read left to right in one pass: date, `T`/`t`/space, hh:mm, optional
/// :ss and fraction, optional `Z` or ±hh[:]mm.
bool isRfc3339DateTime(std::string_view s) {
    if (s.size() < 16 || !isDate(s.substr(0, 10))) return false;
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return false;
    if (!digits(s, 11, 2) || s[13] != ':' || !digits(s, 14, 2)) return false;
    if (number(s, 11, 2) > 23 || number(s, 14, 2) > 59) return false;
    std::size_t i = 16;
    if (i < s.size() && s[i] == ':') {
        if (!digits(s, i + 1, 2) || number(s, i + 1, 2) > 60) return false;
        i += 3;
        if (i < s.size() && s[i] == '.') {
            const std::size_t start = ++i;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
            if (i == start) return false;
        }
    }
    if (i == s.size()) return true;
    if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == s.size()) return true;
    if (s[i] != '+' && s[i] != '-') return false;
    if (!digits(s, i + 1, 2)) return false;
    i += 3;
    if (i < s.size() && s[i] == ':') ++i;
    return digits(s, i, 2) && i + 2 == s.size();
}

/// `local@domain.tld`-shaped, one pass: no spaces or controls, one `@`, a dot in the domain.
bool isEmail(std::string_view s) {
    const auto at = s.find('@');
    if (at == 0 || at == std::string_view::npos || s.find('@', at + 1) != std::string_view::npos) {
        return false;
    }
    for (const char c : s) {
        if (static_cast<unsigned char>(c) <= ' ') return false;
    }
    const auto domain = s.substr(at + 1);
    const auto dot = domain.find('.');
    return dot != std::string_view::npos && dot > 0 && dot + 1 < domain.size();
}

/// An absolute URI: scheme (letter, then letters, digits, `+-.`) and `:`, no spaces.
bool isUri(std::string_view s) {
    const auto colon = s.find(':');
    if (colon == 0 || colon == std::string_view::npos) return false;
    if (!std::isalpha(static_cast<unsigned char>(s[0]))) return false;
    for (std::size_t i = 1; i < colon; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return false;
    }
    for (const char c : s) {
        if (static_cast<unsigned char>(c) <= ' ') return false;
    }
    return true;
}

/// The issue for a string that fails `format`, or nullopt (unknown formats pass, as in JSON
/// Schema). Every check is one linear pass.
std::optional<ValidationIssue> formatIssue(const std::string& format, std::string_view s,
                                           const nlohmann::json& loc) {
    if (format == "date-time" && !isRfc3339DateTime(s)) {
        return ValidationIssue{loc, "Input should be a valid datetime", "datetime_parsing"};
    }
    if (format == "date" && !isDate(s)) {
        return ValidationIssue{loc, "Input should be a valid date", "date_parsing"};
    }
    if (format == "uuid" && !common::isUuid(s)) {
        return ValidationIssue{loc, "Input should be a valid UUID", "uuid_parsing"};
    }
    if (format == "email" && !isEmail(s)) {
        return ValidationIssue{loc, "value is not a valid email address", "value_error"};
    }
    if (format == "uri" && !isUri(s)) {
        return ValidationIssue{loc, "Input should be a valid URL", "url_parsing"};
    }
    return std::nullopt;
}

/// Every `pattern` string in `schema`, where it is a keyword (not inside enum/const/default
/// values or examples).
void collectPatterns(const nlohmann::json& schema, std::vector<std::string>& out) {
    if (schema.is_array()) {
        for (const auto& item : schema) collectPatterns(item, out);
        return;
    }
    if (!schema.is_object()) return;
    for (const auto& [key, value] : schema.items()) {
        if (key == "enum" || key == "const" || key == "default" || key == "examples" ||
            key == "example") {
            continue;
        }
        if (key == "pattern" && value.is_string()) {
            out.push_back(value.get<std::string>());
        } else {
            collectPatterns(value, out);
        }
    }
}

/// `pattern` compiled by RE2 (linear time, no recursion a long string could overflow); null
/// when RE2 cannot read it.
std::unique_ptr<RE2> compilePattern(const std::string& pattern) {
    RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_unique<RE2>(pattern, options);
    return re->ok() ? std::move(re) : nullptr;
}

std::string enumMessage(const nlohmann::json& options) {
    std::vector<std::string> parts;
    for (const auto& o : options) {
        if (o.is_null()) continue;
        parts.push_back(o.is_string() ? "'" + o.get<std::string>() + "'" : o.dump());
    }
    std::string msg = "Input should be ";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) msg += (i + 1 == parts.size()) ? " or " : ", ";
        msg += parts[i];
    }
    return msg;
}

}  // namespace

SchemaRegistry::SchemaRegistry() = default;
SchemaRegistry::~SchemaRegistry() = default;

void SchemaRegistry::loadBuiltins() {
    for (const auto& [path, text] : docintel::schemas::embeddedFiles()) {
        const std::string file(path);
        if (file.rfind("api/", 0) != 0) continue;
        nlohmann::json schema = nlohmann::json::parse(text);
        if (!add(refName(file), std::move(schema))) {
            throw std::runtime_error("duplicate schema " + file);
        }
    }
}

void SchemaRegistry::loadBuiltin(const std::string& file, const std::string& name) {
    const auto& files = docintel::schemas::embeddedFiles();
    auto it = files.find(file);
    if (it == files.end()) throw std::runtime_error("schema not embedded: " + file);
    if (!add(name, nlohmann::json::parse(it->second))) {
        throw std::runtime_error("duplicate schema " + name);
    }
}

std::optional<std::string> SchemaRegistry::unreadablePattern(const nlohmann::json& schema) {
    std::vector<std::string> patterns;
    collectPatterns(schema, patterns);
    for (const auto& pattern : patterns) {
        if (!compilePattern(pattern)) return pattern;
    }
    return std::nullopt;
}

bool SchemaRegistry::add(const std::string& name, nlohmann::json schema) {
    if (!schema.is_object()) return false;
    std::vector<std::string> patterns;
    collectPatterns(schema, patterns);
    std::map<std::string, std::unique_ptr<const RE2>> compiled;
    for (auto& pattern : patterns) {
        auto re = compilePattern(pattern);
        if (!re) return false;
        compiled.emplace(std::move(pattern), std::move(re));
    }
    std::unique_lock lock(mutex_);
    if (schemas_.count(name) > 0) return false;
    schemas_.emplace(name, std::make_shared<const nlohmann::json>(std::move(schema)));
    patterns_.merge(compiled);  // a pattern already compiled keeps its first RE2
    return true;
}

bool SchemaRegistry::has(const std::string& name) const {
    std::shared_lock lock(mutex_);
    return schemas_.count(name) > 0;
}

nlohmann::json SchemaRegistry::get(const std::string& name) const {
    std::shared_lock lock(mutex_);
    return *schemas_.at(name);
}

std::vector<std::string> SchemaRegistry::names() const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> out;
    for (const auto& entry : schemas_) out.push_back(entry.first);
    return out;
}

const nlohmann::json& SchemaRegistry::resolve(const nlohmann::json& schema) const {
    auto ref = schema.find("$ref");
    if (ref == schema.end()) return schema;
    std::shared_lock lock(mutex_);
    auto it = schemas_.find(refName(ref->get<std::string>()));
    if (it == schemas_.end()) throw std::runtime_error("unresolved $ref " + ref->dump());
    return *it->second;  // registered schemas are never removed, so the reference stays valid
}

std::vector<ValidationIssue> SchemaRegistry::validate(const std::string& name,
                                                      nlohmann::json& value,
                                                      const nlohmann::json& loc_prefix) const {
    std::shared_ptr<const nlohmann::json> schema;
    {
        std::shared_lock lock(mutex_);
        schema = schemas_.at(name);
    }
    std::vector<ValidationIssue> issues;
    nlohmann::json loc = loc_prefix;
    validateNode(*schema, value, loc, issues);
    return issues;
}

void SchemaRegistry::validateNode(const nlohmann::json& raw_schema, nlohmann::json& value,
                                  nlohmann::json& loc, std::vector<ValidationIssue>& issues) const {
    const nlohmann::json& schema = resolve(raw_schema);

    if (auto t = schema.find("type"); t != schema.end()) {
        std::vector<std::string> types;
        if (t->is_array()) {
            for (const auto& x : *t) types.push_back(x.get<std::string>());
        } else {
            types.push_back(t->get<std::string>());
        }
        bool matched = false;
        for (const auto& type : types) matched = matched || matchesType(type, value);
        if (!matched) {
            const std::string& primary =
                types.front() == "null" && types.size() > 1 ? types[1] : types.front();
            if (primary == "integer" && value.is_number_unsigned()) {
                issues.push_back({loc,
                                  "Unable to parse input string as an integer, exceeded maximum "
                                  "size",
                                  "int_parsing_size"});
            } else if (primary == "object" && loc.size() == 1) {
                issues.push_back({loc,
                                  "Input should be a valid dictionary or object to extract "
                                  "fields from",
                                  "model_attributes_type"});
            } else {
                issues.push_back(typeIssue(primary, loc));
            }
            return;
        }
    }
    if (value.is_null()) return;

    if (auto e = schema.find("enum"); e != schema.end()) {
        bool found = false;
        for (const auto& option : *e) found = found || option == value;
        if (!found) {
            issues.push_back({loc, enumMessage(*e), "enum"});
            return;
        }
    }

    if (value.is_string()) {
        const auto& s = value.get_ref<const std::string&>();
        const auto len = static_cast<long long>(utf8Length(s));
        if (auto m = schema.find("minLength"); m != schema.end() && len < m->get<long long>()) {
            issues.push_back(
                {loc, "String should have at least " + plural(m->get<long long>(), "character"),
                 "string_too_short"});
        }
        if (auto m = schema.find("maxLength"); m != schema.end() && len > m->get<long long>()) {
            issues.push_back(
                {loc, "String should have at most " + plural(m->get<long long>(), "character"),
                 "string_too_long"});
        }
        // A value that fails its format is not also reported against a pattern that restates
        // the format (one issue a value, as pydantic gives).
        std::optional<ValidationIssue> format_issue;
        if (auto f = schema.find("format"); f != schema.end() && f->is_string()) {
            format_issue = formatIssue(f->get<std::string>(), s, loc);
        }
        if (format_issue) {
            issues.push_back(std::move(*format_issue));
        } else if (auto p = schema.find("pattern"); p != schema.end()) {
            const std::string& pattern = p->get_ref<const std::string&>();
            const RE2* re = nullptr;
            {
                std::shared_lock lock(mutex_);
                auto it = patterns_.find(pattern);
                if (it != patterns_.end()) re = it->second.get();
            }
            if (re == nullptr) throw std::runtime_error("schema pattern not compiled: " + pattern);
            if (!RE2::PartialMatch(s, *re)) {
                issues.push_back({loc, "String should match pattern '" + pattern + "'",
                                  "string_pattern_mismatch"});
            }
        }
    }

    if (value.is_number()) {
        const double d = value.get<double>();
        if (auto m = schema.find("minimum"); m != schema.end() && d < m->get<double>()) {
            issues.push_back({loc, "Input should be greater than or equal to " + numberText(*m),
                              "greater_than_equal"});
        }
        if (auto m = schema.find("exclusiveMinimum"); m != schema.end() && d <= m->get<double>()) {
            issues.push_back(
                {loc, "Input should be greater than " + numberText(*m), "greater_than"});
        }
        if (auto m = schema.find("maximum"); m != schema.end() && d > m->get<double>()) {
            issues.push_back({loc, "Input should be less than or equal to " + numberText(*m),
                              "less_than_equal"});
        }
    }

    if (value.is_array()) {
        const auto n = static_cast<long long>(value.size());
        if (auto m = schema.find("minItems"); m != schema.end() && n < m->get<long long>()) {
            issues.push_back({loc,
                              "List should have at least " + plural(m->get<long long>(), "item") +
                                  " after validation, not " + std::to_string(n),
                              "too_short"});
        }
        if (auto m = schema.find("maxItems"); m != schema.end() && n > m->get<long long>()) {
            issues.push_back({loc,
                              "List should have at most " + plural(m->get<long long>(), "item") +
                                  " after validation, not " + std::to_string(n),
                              "too_long"});
        }
        if (auto items = schema.find("items"); items != schema.end()) {
            for (std::size_t i = 0; i < value.size(); ++i) {
                loc.push_back(i);
                validateNode(*items, value[i], loc, issues);
                loc.erase(loc.size() - 1);
            }
        }
    }

    if (value.is_object()) {
        const auto props = schema.find("properties");
        if (auto req = schema.find("required"); req != schema.end()) {
            for (const auto& field : *req) {
                if (!value.contains(field.get<std::string>())) {
                    loc.push_back(field);
                    issues.push_back({loc, "Field required", "missing"});
                    loc.erase(loc.size() - 1);
                }
            }
        }
        if (props != schema.end()) {
            for (const auto& [field, field_schema] : props->items()) {
                auto it = value.find(field);
                if (it == value.end()) continue;
                loc.push_back(field);
                validateNode(field_schema, *it, loc, issues);
                loc.erase(loc.size() - 1);
            }
        }
        if (auto extra = schema.find("additionalProperties");
            extra != schema.end() && extra->is_boolean() && !extra->get<bool>()) {
            for (const auto& [field, field_value] : value.items()) {
                if (props != schema.end() && props->contains(field)) continue;
                loc.push_back(field);
                issues.push_back({loc, "Extra inputs are not permitted", "extra_forbidden"});
                loc.erase(loc.size() - 1);
            }
        } else if (extra != schema.end() && extra->is_object()) {
            for (auto& [field, field_value] : value.items()) {
                if (props != schema.end() && props->contains(field)) continue;
                loc.push_back(field);
                validateNode(*extra, field_value, loc, issues);
                loc.erase(loc.size() - 1);
            }
        }
        if (issues.empty() && props != schema.end()) {
            for (const auto& [field, field_schema] : props->items()) {
                if (value.contains(field)) continue;
                const auto& resolved = resolve(field_schema);
                if (auto d = resolved.find("default"); d != resolved.end()) value[field] = *d;
            }
        }
    }
}

plugin::Error validationError(const std::vector<ValidationIssue>& issues) {
    nlohmann::json detail = nlohmann::json::array();
    for (const auto& i : issues) detail.push_back(i.toJson());
    return {"validation_error", detail.dump(), 422};
}

}  // namespace docintel::http
