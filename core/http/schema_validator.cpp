#include "http/schema_validator.h"

#include <mutex>
#include <regex>
#include <stdexcept>
#include <string_view>

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
        if (v.is_number_integer()) return true;
        if (v.is_number_float()) {
            const double d = v.get<double>();
            return d == static_cast<double>(static_cast<long long>(d));
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

bool isRfc3339DateTime(const std::string& s) {
    static const std::regex kPattern(
        R"(^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$)");
    return std::regex_match(s, kPattern);
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

bool SchemaRegistry::add(const std::string& name, nlohmann::json schema) {
    if (!schema.is_object()) return false;
    std::unique_lock lock(mutex_);
    return schemas_.emplace(name, std::make_shared<const nlohmann::json>(std::move(schema))).second;
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
            if (primary == "object" && loc.size() == 1) {
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
        if (auto p = schema.find("pattern"); p != schema.end()) {
            const std::regex re(p->get<std::string>(), std::regex::ECMAScript);
            if (!std::regex_search(s, re)) {
                issues.push_back({loc,
                                  "String should match pattern '" + p->get<std::string>() + "'",
                                  "string_pattern_mismatch"});
            }
        }
        if (auto f = schema.find("format");
            f != schema.end() && *f == "date-time" && !isRfc3339DateTime(s)) {
            issues.push_back({loc, "Input should be a valid datetime", "datetime_parsing"});
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

}  // namespace docintel::http
