#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "storage/event_repository.h"
#include "storage/webhook_repository.h"

namespace docintel::events {

/// A background thread that numbers committed events (storage::EventRepository::sequence)
/// every `interval_ms`, so webhook senders see new events within about that long, and every
/// `sweep_seconds` makes sure each subscription with open deliveries has its sender job.
/// Any number of nodes may run one: the numbering step is serialised in Postgres.
/// start/stop from one thread.
class EventSequencer {
  public:
    EventSequencer(storage::EventRepository& events, storage::WebhookRepository& webhooks,
                   int interval_ms = 100, int sweep_seconds = 30)
        : events_(events),
          webhooks_(webhooks),
          interval_ms_(interval_ms),
          sweep_seconds_(sweep_seconds) {}
    ~EventSequencer() { stop(); }
    EventSequencer(const EventSequencer&) = delete;
    EventSequencer& operator=(const EventSequencer&) = delete;

    /// `numbered` runs (on the sequencer's thread) after a step numbered events.
    void start(std::function<void()> numbered);
    void stop();

  private:
    void loop();

    storage::EventRepository& events_;
    storage::WebhookRepository& webhooks_;
    const int interval_ms_;
    const int sweep_seconds_;
    std::function<void()> numbered_;
    std::mutex mutex_;  // guards stopping_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace docintel::events
