-- Events, subscriptions and signed webhooks (docs/events.md, decision 0060).
--
-- Sequence numbers are no longer drawn at insert: a writer's transaction inserts its event with
-- `seq` NULL and a sequencer numbers committed events in one serial step under an advisory lock
-- (storage/event_repository.cpp), so a reader paging with `after` never skips an event whose
-- transaction committed late.
ALTER TABLE events ALTER COLUMN seq DROP DEFAULT;
ALTER TABLE events ALTER COLUMN seq DROP NOT NULL;
DROP SEQUENCE IF EXISTS events_seq_seq;
-- The user whose personal scope a personal event belongs to (workspace events: the actor).
ALTER TABLE events ADD COLUMN user_id uuid NULL REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE events ADD COLUMN trace_id text NOT NULL DEFAULT '';
UPDATE events SET user_id = actor_id;
CREATE INDEX events_unsequenced_idx ON events (created_at, id) WHERE seq IS NULL;
CREATE INDEX events_personal_idx ON events (user_id, seq) WHERE workspace_id IS NULL;
CREATE INDEX events_workspace_idx ON events (workspace_id, seq);

CREATE TABLE event_subscriptions (
    id                   uuid PRIMARY KEY,
    owner_id             uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id         uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    event_types          text[] NOT NULL DEFAULT '{}',
    resource_type        text NULL,
    resource_id          text NULL,
    webhook_url          text NULL,
    -- AES-256-GCM boxes (base64url) of the signing secret and, for 24 h after a rotation,
    -- of the previous one.
    secret_box           text NOT NULL,
    previous_secret_box  text NULL,
    previous_expires_at  timestamptz NULL,
    active               boolean NOT NULL DEFAULT true,
    disabled_reason      text NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_subscriptions_owner_idx ON event_subscriptions (owner_id);
CREATE INDEX event_subscriptions_workspace_idx ON event_subscriptions (workspace_id)
    WHERE active AND webhook_url IS NOT NULL;

CREATE TABLE webhook_deliveries (
    id               uuid PRIMARY KEY,
    subscription_id  uuid NOT NULL REFERENCES event_subscriptions (id) ON DELETE CASCADE,
    event_id         uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    status           text NOT NULL CHECK (status IN
                         ('pending', 'delivering', 'delivered', 'retrying', 'dead_letter')),
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_http_status integer NULL,
    last_error_code  text NULL,
    delivered_at     timestamptz NULL,
    created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_open_idx ON webhook_deliveries (subscription_id)
    WHERE status IN ('pending', 'delivering', 'retrying');
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id,
    created_at DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE webhook_delivery_attempts (
    id               bigserial PRIMARY KEY,
    delivery_id      uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt          integer NOT NULL,
    http_status      integer NULL,
    duration_ms      integer NOT NULL,
    response_preview text NOT NULL DEFAULT '',
    error_code       text NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id);

-- One sender job per subscription at a time (storage/webhook_repository.cpp): it sends the
-- subscription's deliveries one after another, in event order.
CREATE UNIQUE INDEX jobs_webhook_sender_idx ON jobs ((payload ->> 'subscription_id'))
    WHERE kind = 'webhook_send' AND status IN ('queued', 'running');
