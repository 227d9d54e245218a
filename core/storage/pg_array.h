#pragma once

#include <string>
#include <vector>

namespace docintel::storage {

/// A Postgres array literal of `items`, each quoted ("{\"a\",\"b\"}"): a statement parameter
/// for `$1::text[]`, `::uuid[]`, `::int[]` or `::float8[]`.
std::string pgArray(const std::vector<std::string>& items);

}  // namespace docintel::storage
