#pragma once

#include <memory>
#include <string>

#include "auth/document_access.h"
#include "common/secret_box.h"
#include "events/event_sequencer.h"
#include "events/event_service.h"
#include "events/webhook_sender.h"
#include "jobs/worker_pool.h"
#include "server/config.h"
#include "storage/database.h"
#include "storage/event_repository.h"
#include "storage/job_repository.h"
#include "storage/webhook_repository.h"

namespace docintel::server {

/// The event log, subscriptions and webhook delivery, wired once (docs/events.md): the REST
/// service on every node; on nodes that run jobs, the sequencer and a worker pool of its own
/// for `webhook_send` jobs (so slow receivers never hold up ingestion workers). The secret box
/// key is `<data_dir>/keys/webhook-secrets.key`, beside the signing keys.
/// Not thread-safe: start/stop from one thread; the parts it lends are thread-safe.
class EventSubsystem {
  public:
    /// Throws std::runtime_error when the secret key cannot be read or created.
    EventSubsystem(const Config& config, storage::Database& db, storage::JobRepository& jobs,
                   const auth::DocumentAccess& access);
    ~EventSubsystem() { stop(); }

    events::EventService& service() { return *service_; }
    storage::EventRepository& log() { return events_; }

    /// Starts the sequencer and the sender pool (worker and all-in-one nodes).
    void startDelivery(const std::string& worker_id);
    void stop(int grace_ms = 10000);

  private:
    const Config& config_;
    storage::JobRepository& jobs_;
    storage::EventRepository events_;
    storage::WebhookRepository webhooks_;
    std::shared_ptr<const common::SecretBox> secrets_;
    std::unique_ptr<events::EventService> service_;
    std::unique_ptr<events::WebhookSender> sender_;
    std::unique_ptr<jobs::WorkerPool> senders_;
    std::unique_ptr<events::EventSequencer> sequencer_;
};

}  // namespace docintel::server
