#include "storage/pg_time.h"

namespace docintel::storage {

std::string isoTime(const pqxx::field& field) {
    return field.is_null() ? std::string() : isoTime(std::string_view(field.c_str()));
}

std::string isoTime(std::string_view t) {
    // "YYYY-MM-DD HH:MM:SS" then optional ".ffffff", then the zone ("+00").
    if (t.size() < 19) return std::string(t);
    std::string out(t.substr(0, 19));
    out[10] = 'T';
    std::size_t i = 19;
    std::string millis = "000";
    if (i < t.size() && t[i] == '.') {
        ++i;
        for (std::size_t d = 0; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++d) {
            if (d < 3) millis[d] = t[i];
        }
    }
    out += '.';
    out += millis;
    out += 'Z';
    return out;
}

}  // namespace docintel::storage
