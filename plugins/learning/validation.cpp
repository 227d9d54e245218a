#include "learning/validation.h"

#include <cctype>

namespace docintel::learning {

using nlohmann::json;

namespace {

json at(const json& prefix, const json& key) {
    json loc = prefix;
    loc.push_back(key);
    return loc;
}

}  // namespace

void checkString(const json& body, const char* field, std::size_t min, std::size_t max,
                 bool nullable, const json& loc_prefix, Problems& problems) {
    if (!body.is_object() || !body.contains(field)) return;
    const json& v = body.at(field);
    if (v.is_null() && nullable) return;
    if (!v.is_string()) {
        problems.add(at(loc_prefix, field), "Input should be a valid string", "string_type");
        return;
    }
    const std::size_t n = utf8Length(v.get<std::string>());
    if (n < min) {
        problems.add(at(loc_prefix, field),
                     "String should have at least " + std::to_string(min) + " character" +
                         (min == 1 ? "" : "s"),
                     "string_too_short");
    } else if (n > max) {
        problems.add(at(loc_prefix, field),
                     "String should have at most " + std::to_string(max) + " characters",
                     "string_too_long");
    }
}

void checkStrings(const json& body, const char* field, bool nullable, const json& loc_prefix,
                  Problems& problems) {
    if (!body.is_object() || !body.contains(field)) return;
    const json& v = body.at(field);
    if (v.is_null() && nullable) return;
    if (!v.is_array()) {
        problems.add(at(loc_prefix, field), "Input should be a valid list", "list_type");
        return;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) {
            problems.add(at(at(loc_prefix, field), i), "Input should be a valid string",
                         "string_type");
        }
    }
}

}  // namespace docintel::learning
