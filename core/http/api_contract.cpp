#include "http/api_contract.h"

#include <map>
#include <stdexcept>
#include <string_view>

namespace docintel::schemas {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::http {
namespace {

const nlohmann::json& table() {
    static const nlohmann::json doc = [] {
        const auto& files = docintel::schemas::embeddedFiles();
        const auto it = files.find("openapi/operations.json");
        if (it == files.end()) throw std::runtime_error("schemas/openapi/operations.json missing");
        auto parsed = nlohmann::json::parse(it->second);
        for (const char* section : {"operations", "paths"}) {
            if (!parsed.contains(section) || !parsed[section].is_object()) {
                throw std::runtime_error(std::string("schemas/openapi/operations.json has no ") +
                                         section + " object");
            }
        }
        return parsed;
    }();
    return doc;
}

/// Whether `pattern` ("/a/*/b/{x}") names the template `segments` ("*" matches any literal).
bool pathMatches(const std::string& pattern, const std::vector<std::string>& segments) {
    const auto parts = splitPath(pattern);
    if (parts.size() != segments.size()) return false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i] != segments[i] && !(parts[i] == "*" && segments[i].front() != '{')) {
            return false;
        }
    }
    return true;
}

}  // namespace

const nlohmann::json& responseContract(const Route& route) {
    static const nlohmann::json none = nlohmann::json::object();
    const auto& ops = table()["operations"];
    if (const auto it = ops.find(route.def.operation_id); it != ops.end()) return *it;
    for (const auto& [key, entry] : table()["paths"].items()) {
        const auto space = key.find(' ');
        if (key.substr(0, space) == route.def.method &&
            pathMatches(key.substr(space + 1), route.segments)) {
            return entry;
        }
    }
    return none;
}

}  // namespace docintel::http
