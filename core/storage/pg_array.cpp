#include "storage/pg_array.h"

namespace docintel::storage {

std::string pgArray(const std::vector<std::string>& items) {
    std::string out = "{";
    for (const auto& item : items) {
        if (out.size() > 1) out += ',';
        out += '"';
        for (const char c : item) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

}  // namespace docintel::storage
