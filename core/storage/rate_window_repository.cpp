#include "storage/rate_window_repository.h"

#include "storage/pg_array.h"

namespace docintel::storage {
namespace {

constexpr Statement kStore{
    "rate_windows_store",
    "INSERT INTO rate_windows (scope, key, window_start, node, used) "
    "SELECT $1, k, $2, $3, u FROM unnest($4::text[], $5::int[]) AS t(k, u) "
    "ON CONFLICT (scope, window_start, key, node) DO UPDATE SET used = excluded.used"};
constexpr Statement kOthers{"rate_windows_others",
                            "SELECT key, sum(used)::int FROM rate_windows "
                            "WHERE scope = $1 AND window_start = $2 AND node <> $3 GROUP BY key"};
constexpr Statement kPurge{"rate_windows_purge",
                           "DELETE FROM rate_windows WHERE scope = $1 AND window_start < $2"};

}  // namespace

plugin::Result<std::map<std::string, int>> RateWindowRepository::exchange(
    const std::string& scope, const std::string& node, std::int64_t start,
    const std::map<std::string, int>& mine) {
    std::vector<std::string> keys;
    std::vector<std::string> used;
    for (const auto& [key, n] : mine) {
        keys.push_back(key);
        used.push_back(std::to_string(n));
    }
    return db_.transact([&](Tx& tx) -> plugin::Result<std::map<std::string, int>> {
        tx.exec(kPurge, scope, start);
        if (!keys.empty()) tx.exec(kStore, scope, start, node, pgArray(keys), pgArray(used));
        std::map<std::string, int> others;
        for (const auto& r : tx.exec(kOthers, scope, start, node)) {
            others.emplace(r[0].as<std::string>(), r[1].as<int>());
        }
        return others;
    });
}

}  // namespace docintel::storage
