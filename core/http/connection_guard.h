#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace docintel::http {

/// What a listener allows one connection (decision 0061). Times in milliseconds.
struct ConnectionLimits {
    /// Open connections one client address may hold; 0 = no cap.
    int max_per_address = 64;
    /// From the connection's start (or the first byte after a keep-alive wait) to the end of
    /// the request head.
    int header_timeout_ms = 10000;
    /// How long a kept-alive connection may wait, idle, for its next request.
    int keep_alive_timeout_ms = 5000;
    /// Reading a request body held in memory; streamed uploads get this plus a minimum rate.
    int body_timeout_ms = 30000;
};

/// The shared state of one listener's connections: how many each client address holds, and a
/// watchdog that ends any connection whose deadline passes (the request head or body took too
/// long). Ending means `shutdown(SHUT_RD)`: the connection's blocking read returns end-of-file,
/// so its thread can still answer 408 and is freed.
///
/// Thread-safe: one mutex guards the counts and the watched connections; the watchdog thread
/// lives as long as the object.
class ConnectionGuard {
  public:
    explicit ConnectionGuard(ConnectionLimits limits);
    ~ConnectionGuard();
    ConnectionGuard(const ConnectionGuard&) = delete;
    ConnectionGuard& operator=(const ConnectionGuard&) = delete;

    const ConnectionLimits& limits() const { return limits_; }

    /// True when `address` already holds its cap (checked at accept, before a thread is used).
    bool full(const std::string& address) const;
    /// Counts a connection from `address`; false (nothing counted) when the cap is reached.
    bool admit(const std::string& address);
    void release(const std::string& address);

    /// One watched connection: registered on construction, removed on destruction (which
    /// must happen before its socket is closed). Used by the connection's own thread only.
    class Watch {
      public:
        Watch(ConnectionGuard& guard, int fd);
        ~Watch();
        Watch(const Watch&) = delete;
        Watch& operator=(const Watch&) = delete;
        /// Ends the connection unless `disarm`ed within `ms`. `idle`: the connection waits
        /// for a request, so stopping the server may end it at once.
        void arm(int ms, bool idle);
        void disarm();
        /// The deadline passed and the connection's reads were shut down.
        bool expired() const;

      private:
        friend class ConnectionGuard;
        ConnectionGuard& guard_;
        const int fd_;
        std::chrono::steady_clock::time_point deadline_ =
            std::chrono::steady_clock::time_point::max();
        bool idle_ = true;
        bool expired_ = false;
    };

    /// Ends every connection waiting for a request and refuses new requests (`stopping`).
    void stopAll();
    bool stopping() const;
    /// Shuts every watched connection down both ways (the end of a stop's grace period): a
    /// handler still streaming sees its writes fail and returns.
    void abortAll();

  private:
    void watchdog();

    const ConnectionLimits limits_;
    mutable std::mutex mutex_;  // guards everything below
    std::map<std::string, int> per_address_;
    std::set<Watch*> watches_;
    bool stopping_ = false;
    bool closing_ = false;  // the destructor ends the watchdog
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace docintel::http
