#pragma once

#include <string>
#include <string_view>

#include <pqxx/pqxx>

namespace docintel::storage {

/// RFC 3339 UTC text with milliseconds (2026-11-22T02:53:48.418Z) of a timestamptz as Postgres
/// prints it to a session in time zone UTC ("2026-11-22 02:53:48.418123+00"). Formatting here
/// rather than with to_char() in SQL halves the cost of the hot read queries. Empty for NULL.
std::string isoTime(const pqxx::field& field);
std::string isoTime(std::string_view pg_text);

}  // namespace docintel::storage
