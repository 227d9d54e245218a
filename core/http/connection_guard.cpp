#include "http/connection_guard.h"

#include <sys/socket.h>

namespace docintel::http {
namespace {

// How often the watchdog looks; deadlines are met within this much.
constexpr auto kTick = std::chrono::milliseconds(50);

}  // namespace

ConnectionGuard::ConnectionGuard(ConnectionLimits limits)
    : limits_(limits), thread_([this] { watchdog(); }) {}

ConnectionGuard::~ConnectionGuard() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

bool ConnectionGuard::full(const std::string& address) const {
    if (limits_.max_per_address <= 0) return false;
    std::lock_guard lock(mutex_);
    auto it = per_address_.find(address);
    return it != per_address_.end() && it->second >= limits_.max_per_address;
}

bool ConnectionGuard::admit(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& count = per_address_[address];
    if (limits_.max_per_address > 0 && count >= limits_.max_per_address) {
        if (count == 0) per_address_.erase(address);
        return false;
    }
    ++count;
    return true;
}

void ConnectionGuard::release(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = per_address_.find(address);
    if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

void ConnectionGuard::stopAll() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (Watch* w : watches_) {
        if (w->idle_ && !w->expired_) {
            w->expired_ = true;
            ::shutdown(w->fd_, SHUT_RD);
        }
    }
}

void ConnectionGuard::abortAll() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (Watch* w : watches_) {
        w->expired_ = true;
        ::shutdown(w->fd_, SHUT_RDWR);
    }
}

bool ConnectionGuard::stopping() const {
    std::lock_guard lock(mutex_);
    return stopping_;
}

void ConnectionGuard::watchdog() {
    std::unique_lock lock(mutex_);
    while (!closing_) {
        wake_.wait_for(lock, kTick);
        const auto now = std::chrono::steady_clock::now();
        for (Watch* w : watches_) {
            if (!w->expired_ && w->deadline_ <= now) {
                w->expired_ = true;
                ::shutdown(w->fd_, SHUT_RD);
            }
        }
    }
}

ConnectionGuard::Watch::Watch(ConnectionGuard& guard, int fd) : guard_(guard), fd_(fd) {
    std::lock_guard lock(guard_.mutex_);
    guard_.watches_.insert(this);
}

ConnectionGuard::Watch::~Watch() {
    std::lock_guard lock(guard_.mutex_);
    guard_.watches_.erase(this);
}

void ConnectionGuard::Watch::arm(int ms, bool idle) {
    std::lock_guard lock(guard_.mutex_);
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    idle_ = idle;
    if (idle && guard_.stopping_ && !expired_) {
        expired_ = true;
        ::shutdown(fd_, SHUT_RD);
    }
}

void ConnectionGuard::Watch::disarm() {
    std::lock_guard lock(guard_.mutex_);
    deadline_ = std::chrono::steady_clock::time_point::max();
    idle_ = false;
}

bool ConnectionGuard::Watch::expired() const {
    std::lock_guard lock(guard_.mutex_);
    return expired_;
}

}  // namespace docintel::http
