#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <pqxx/pqxx>

#include "plugin_api/result.h"

namespace docintel::storage {

/// The Status of a write whose Result carries nothing of interest.
template <typename T>
plugin::Status toStatus(const plugin::Result<T>& r) {
    if (!r) return r.error();
    return {};
}

/// A named prepared statement. Repositories declare theirs as constants next to the code
/// that uses them; a connection prepares each on first use.
struct Statement {
    const char* name;
    const char* sql;
};

/// One database transaction (or, from Database::read, one autocommit session) on a leased
/// connection.
class Tx {
  public:
    Tx(pqxx::transaction_base& work, std::set<std::string>& prepared)
        : work_(work), prepared_(prepared) {}

    template <typename... Args>
    pqxx::result exec(const Statement& statement, Args&&... args) {
        if (!prepared_.count(statement.name)) {
            work_.conn().prepare(statement.name, statement.sql);
            prepared_.insert(statement.name);
        }
        return work_.exec_prepared(statement.name, std::forward<Args>(args)...);
    }

    /// Runs plain SQL (migrations, DDL only).
    pqxx::result execRaw(const std::string& sql) { return work_.exec(sql); }

    /// Runs the one statement `sql` with `params` bound as $1, $2, ... (nullopt binds NULL):
    /// for SQL a plugin brings (storage/plugin_store.h); core code uses named Statements.
    pqxx::result execParams(const std::string& sql,
                            const std::vector<std::optional<std::string>>& params) {
        std::vector<const char*> values;
        values.reserve(params.size());
        for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
        return work_.exec_params(sql, pqxx::prepare::make_dynamic_params(values));
    }

  private:
    pqxx::transaction_base& work_;
    std::set<std::string>& prepared_;
};

/// A pool of libpqxx connections to one database. Connections are leased to one thread at a
/// time; a broken connection is replaced on its next lease. `transact` is the one place that
/// retries serialization failures and maps Postgres errors to Error values:
/// unique_violation → 409 `conflict`, a lost database → 503 `database_unavailable`.
///
/// Thread-safe.
class Database {
  public:
    /// Opens `pool_size` connections lazily. Throws nothing until used.
    Database(std::string url, int pool_size);
    ~Database();

    /// Runs `fn(Tx&)` in a transaction, committing when it returns an ok Result. `fn` may be
    /// run more than once (serialization retry), so it must only touch the database.
    template <typename F>
    auto transact(F&& fn) -> decltype(fn(std::declval<Tx&>())) {
        return run<pqxx::work>(std::forward<F>(fn));
    }

    /// Runs `fn(Tx&)` without BEGIN/COMMIT: for reads of one statement, or several whose
    /// consistency does not matter. Saves two round trips on the hot read paths.
    template <typename F>
    auto read(F&& fn) -> decltype(fn(std::declval<Tx&>())) {
        return run<pqxx::nontransaction>(std::forward<F>(fn));
    }

    /// Runs `fn(Tx&)` in a read-only REPEATABLE READ transaction: every statement sees the
    /// same snapshot (index rebuilds read the whole corpus at one watermark).
    template <typename F>
    auto snapshot(F&& fn) -> decltype(fn(std::declval<Tx&>())) {
        return run<pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>>(std::forward<F>(fn));
    }

    /// True when a trivial query succeeds.
    bool ping();

    const std::string& url() const { return url_; }

    /// How the pool is used right now (GET /metrics).
    struct PoolUse {
        int size = 0;     ///< the most connections it opens
        int open = 0;     ///< opened (idle or leased)
        int leased = 0;   ///< in use by a transaction
        int waiting = 0;  ///< callers waiting for a connection
    };
    PoolUse poolUse();

  private:
    struct Connection {
        std::unique_ptr<pqxx::connection> conn;
        std::set<std::string> prepared;
    };

    class Lease {
      public:
        Lease(Database& db, std::unique_ptr<Connection> c) : db_(db), c_(std::move(c)) {}
        ~Lease() { db_.giveBack(std::move(c_)); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Connection& operator*() { return *c_; }
        Connection* operator->() { return c_.get(); }
        void discard() { c_.reset(); }

      private:
        Database& db_;
        std::unique_ptr<Connection> c_;
    };

    template <typename Work, typename F>
    auto run(F&& fn) -> decltype(fn(std::declval<Tx&>()));
    std::unique_ptr<Lease> lease();
    void giveBack(std::unique_ptr<Connection> c);
    static plugin::Error mapError(const std::exception& e);

    const std::string url_;
    const int pool_size_;
    std::mutex mutex_;  // guards idle_, open_, waiting_
    std::condition_variable available_;
    std::vector<std::unique_ptr<Connection>> idle_;
    int open_ = 0;
    int waiting_ = 0;
};

template <typename Work, typename F>
auto Database::run(F&& fn) -> decltype(fn(std::declval<Tx&>())) {
    constexpr int kAttempts = 4;
    for (int attempt = 1;; ++attempt) {
        std::unique_ptr<Lease> c;
        try {
            c = lease();
        } catch (const pqxx::broken_connection& e) {
            return mapError(e);
        }
        try {
            Work work(*(*c)->conn);
            Tx tx(work, (*c)->prepared);
            auto result = fn(tx);
            if (result) work.commit();
            return result;
        } catch (const pqxx::serialization_failure& e) {
            if (attempt >= kAttempts) return mapError(e);
        } catch (const pqxx::deadlock_detected& e) {
            if (attempt >= kAttempts) return mapError(e);
        } catch (const pqxx::broken_connection& e) {
            c->discard();
            if (attempt >= 2) return mapError(e);
        } catch (const pqxx::sql_error& e) {
            return mapError(e);
        }
    }
}

}  // namespace docintel::storage
