#include "storage/user_repository.h"

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_USER_COLUMNS \
    "id, email, display_name, password_hash, is_admin, active_workspace_id, created_at"

constexpr Statement kInsert{"user_insert",
                            "INSERT INTO users (id, email, display_name, password_hash, is_admin) "
                            "VALUES ($1, $2, $3, $4, $5) RETURNING " DOCINTEL_USER_COLUMNS};
constexpr Statement kById{"user_by_id",
                          "SELECT " DOCINTEL_USER_COLUMNS " FROM users WHERE id = $1"};
constexpr Statement kByEmail{
    "user_by_email", "SELECT " DOCINTEL_USER_COLUMNS " FROM users WHERE lower(email) = lower($1)"};
constexpr Statement kSetActive{
    "user_set_active_workspace",
    "UPDATE users SET active_workspace_id = NULLIF($2, '')::uuid WHERE id = $1"};
constexpr Statement kCount{"user_count", "SELECT count(*) FROM users"};

#undef DOCINTEL_USER_COLUMNS

User rowToUser(const pqxx::row& r) {
    return User{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                r[3].as<std::string>(), r[4].as<bool>(),        r[5].as<std::string>(""),
                isoTime(r[6])};
}

std::optional<User> firstUser(const pqxx::result& rows) {
    if (rows.empty()) return std::nullopt;
    return rowToUser(rows[0]);
}

}  // namespace

plugin::Result<User> UserRepository::create(const std::string& email,
                                            const std::string& display_name,
                                            const std::string& password_hash, bool is_admin) {
    auto result = db_.transact([&](Tx& tx) -> plugin::Result<User> {
        return rowToUser(
            tx.exec(kInsert, common::newUuid(), email, display_name, password_hash, is_admin)[0]);
    });
    if (!result && result.error().code == "conflict") {
        return plugin::Error::conflict("email_taken", "a user with this e-mail already exists");
    }
    return result;
}

plugin::Result<std::optional<User>> UserRepository::findById(const std::string& id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::optional<User>> {
        return firstUser(tx.exec(kById, id));
    });
}

plugin::Result<std::optional<User>> UserRepository::findByEmail(const std::string& email) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<User>> {
        return firstUser(tx.exec(kByEmail, email));
    });
}

plugin::Status UserRepository::setActiveWorkspace(const std::string& user_id,
                                                  const std::string& workspace_id) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kSetActive, user_id, workspace_id);
        return true;
    }));
}

plugin::Result<long long> UserRepository::count() {
    return db_.transact(
        [&](Tx& tx) -> plugin::Result<long long> { return tx.exec(kCount)[0][0].as<long long>(); });
}

}  // namespace docintel::storage
