#pragma once

#include <optional>
#include <string>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct User {
    std::string id;
    std::string email;
    std::string display_name;
    std::string password_hash;
    bool is_admin = false;
    std::string active_workspace_id;  ///< empty = personal
    std::string created_at;
};

/// Users by id or e-mail (case-insensitive). Thread-safe (stateless over the pool).
class UserRepository {
  public:
    explicit UserRepository(Database& db) : db_(db) {}

    /// Inserts a user; `conflict` when the e-mail is taken.
    plugin::Result<User> create(const std::string& email, const std::string& display_name,
                                const std::string& password_hash, bool is_admin);
    plugin::Result<std::optional<User>> findById(const std::string& id);
    plugin::Result<std::optional<User>> findByEmail(const std::string& email);
    /// Sets (or clears, with an empty id) the user's remembered workspace context.
    plugin::Status setActiveWorkspace(const std::string& user_id, const std::string& workspace_id);
    plugin::Result<long long> count();

  private:
    Database& db_;
};

}  // namespace docintel::storage
