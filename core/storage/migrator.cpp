#include "storage/migrator.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "common/log.h"

namespace docintel::migrations {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::storage {
namespace {

constexpr long long kMigrationLockKey = Migrator::kLockKey;

constexpr Statement kAppliedVersions{"migrator_applied",
                                     "SELECT version FROM schema_migrations ORDER BY version"};
constexpr Statement kRecord{"migrator_record",
                            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)"};

}  // namespace

std::vector<Migration> Migrator::embedded() {
    std::vector<Migration> out;
    for (const auto& [path, sql] : docintel::migrations::embeddedFiles()) {
        const std::string file(path);
        if (file.size() < 10 || file.compare(file.size() - 4, 4, ".sql") != 0) continue;
        Migration m;
        m.version = std::stoi(file.substr(0, 4));
        m.name = file.substr(5, file.size() - 9);
        m.sql = std::string(sql);
        out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(),
              [](const Migration& a, const Migration& b) { return a.version < b.version; });
    return out;
}

plugin::Result<std::vector<int>> Migrator::migrate() {
    // Each migration runs in its own transaction holding a transaction-scoped advisory lock,
    // and re-reads what is applied under it, so two processes starting at once apply it once.
    std::vector<int> applied_now;
    for (const auto& m : embedded()) {
        auto step = db_.transact([&](Tx& tx) -> plugin::Result<bool> {
            tx.execRaw("SELECT pg_advisory_xact_lock(" + std::to_string(kMigrationLockKey) + ")");
            tx.execRaw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
            for (const auto& row : tx.exec(kAppliedVersions)) {
                if (row[0].as<int>() == m.version) return false;
            }
            tx.execRaw(m.sql);
            tx.exec(kRecord, m.version, m.name);
            return true;
        });
        if (!step) return step.error();
        if (*step) {
            applied_now.push_back(m.version);
            common::log(common::LogLevel::kInfo, "migration_applied",
                        {{"version", std::to_string(m.version)}, {"name", m.name}});
        }
    }
    return applied_now;
}

bool Migrator::upToDate() {
    const auto wanted = embedded();
    auto applied = db_.transact([&](Tx& tx) -> plugin::Result<std::vector<int>> {
        auto exists = tx.execRaw("SELECT to_regclass('schema_migrations') IS NOT NULL");
        std::vector<int> versions;
        if (!exists[0][0].as<bool>()) return versions;
        for (const auto& row : tx.exec(kAppliedVersions)) versions.push_back(row[0].as<int>());
        return versions;
    });
    if (!applied) return false;
    for (const auto& m : wanted) {
        if (std::find(applied->begin(), applied->end(), m.version) == applied->end()) return false;
    }
    return true;
}

}  // namespace docintel::storage
