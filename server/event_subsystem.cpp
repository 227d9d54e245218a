#include "server/event_subsystem.h"

namespace docintel::server {

EventSubsystem::EventSubsystem(const Config& config, storage::Database& db,
                               storage::JobRepository& jobs, const auth::DocumentAccess& access)
    : config_(config),
      jobs_(jobs),
      events_(db),
      webhooks_(db),
      secrets_(common::SecretBox::loadOrCreate(config.keysDir() + "/webhook-secrets.key")) {
    const events::WebhookPolicy policy{config.webhook_allow_http, config.webhook_allow_private};
    service_ = std::make_unique<events::EventService>(
        events::EventService::Parts{events_, webhooks_, access, secrets_, policy});
    service_->setWake([this] {
        if (senders_) senders_->wake();
    });
    events::SenderOptions options;
    options.policy = policy;
    options.retry_base_ms = config.webhook_retry_base_ms;
    sender_ = std::make_unique<events::WebhookSender>(webhooks_, secrets_, options);
}

void EventSubsystem::startDelivery(const std::string& worker_id) {
    senders_ = std::make_unique<jobs::WorkerPool>(
        jobs_, worker_id + "/webhooks", config_.webhook_senders, config_.job_lease_seconds, 200);
    senders_->handle(storage::WebhookRepository::kSendJob,
                     [this](jobs::JobContext& c) { return sender_->run(c); });
    senders_->start();
    sequencer_ = std::make_unique<events::EventSequencer>(events_, webhooks_);
    sequencer_->start([this] { senders_->wake(); });
}

void EventSubsystem::stop(int grace_ms) {
    if (sequencer_) sequencer_->stop();
    if (senders_) senders_->stop(grace_ms);
}

}  // namespace docintel::server
