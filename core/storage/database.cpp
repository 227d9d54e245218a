#include "storage/database.h"

#include "common/log.h"

namespace docintel::storage {
namespace {

/// A connection whose session prints timestamps in UTC (see pg_time.h).
std::unique_ptr<pqxx::connection> connect(const std::string& url) {
    auto c = std::make_unique<pqxx::connection>(url);
    pqxx::nontransaction(*c).exec("SET TIME ZONE 'UTC'");
    return c;
}

}  // namespace

Database::Database(std::string url, int pool_size) : url_(std::move(url)), pool_size_(pool_size) {}

Database::~Database() = default;

std::unique_ptr<Database::Lease> Database::lease() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    available_.wait(lock, [&] { return !idle_.empty() || open_ < pool_size_; });
    --waiting_;
    if (!idle_.empty()) {
        auto c = std::move(idle_.back());
        idle_.pop_back();
        lock.unlock();
        if (!c->conn->is_open()) {
            c->conn = connect(url_);
            c->prepared.clear();
        }
        return std::make_unique<Lease>(*this, std::move(c));
    }
    ++open_;
    lock.unlock();
    try {
        auto c = std::make_unique<Connection>();
        c->conn = connect(url_);
        return std::make_unique<Lease>(*this, std::move(c));
    } catch (...) {
        std::lock_guard relock(mutex_);
        --open_;
        available_.notify_one();
        throw;
    }
}

Database::PoolUse Database::poolUse() {
    std::lock_guard lock(mutex_);
    return {pool_size_, open_, open_ - static_cast<int>(idle_.size()), waiting_};
}

void Database::giveBack(std::unique_ptr<Connection> c) {
    std::lock_guard lock(mutex_);
    if (c) {
        idle_.push_back(std::move(c));
    } else {
        --open_;
    }
    available_.notify_one();
}

plugin::Error Database::mapError(const std::exception& e) {
    if (dynamic_cast<const pqxx::unique_violation*>(&e)) {
        return plugin::Error::conflict("conflict", "the resource already exists");
    }
    if (dynamic_cast<const pqxx::foreign_key_violation*>(&e)) {
        return plugin::Error::conflict("conflict", "a referenced resource does not exist");
    }
    if (dynamic_cast<const pqxx::broken_connection*>(&e)) {
        common::log(common::LogLevel::kError, "database_unavailable", {{"what", e.what()}});
        return plugin::Error::unavailable("database_unavailable", "the database is unavailable");
    }
    if (dynamic_cast<const pqxx::serialization_failure*>(&e) ||
        dynamic_cast<const pqxx::deadlock_detected*>(&e)) {
        return plugin::Error::unavailable("busy", "the request conflicted with another; retry");
    }
    common::log(common::LogLevel::kError, "database_error", {{"what", e.what()}});
    return plugin::Error::internal("database error");
}

bool Database::ping() {
    try {
        auto result = transact([](Tx& tx) -> plugin::Result<bool> {
            tx.execRaw("SELECT 1");
            return true;
        });
        return result.ok();
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace docintel::storage
