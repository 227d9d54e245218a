#include "events/event_sequencer.h"

#include <chrono>

#include "common/log.h"

namespace docintel::events {

void EventSequencer::start(std::function<void()> numbered) {
    numbered_ = std::move(numbered);
    stopping_ = false;
    thread_ = std::thread([this] { loop(); });
}

void EventSequencer::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void EventSequencer::loop() {
    using Clock = std::chrono::steady_clock;
    auto next_sweep = Clock::now();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        // A full batch means more may be waiting: go again at once.
        int numbered = 0;
        do {
            auto n = events_.sequence();
            if (!n) {
                common::log(common::LogLevel::kWarning, "event_sequencer_failed",
                            {{"code", n.error().code}});
                break;
            }
            numbered = *n;
            if (numbered > 0 && numbered_) numbered_();
        } while (numbered >= 5000);
        if (Clock::now() >= next_sweep) {
            (void)webhooks_.ensureSenders();
            next_sweep = Clock::now() + std::chrono::seconds(sweep_seconds_);
        }
        lock.lock();
        wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stopping_; });
    }
}

}  // namespace docintel::events
