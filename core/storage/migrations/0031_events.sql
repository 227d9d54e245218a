-- The event log (ARCHITECTURE.md §5 event types). Delivery (subscriptions, webhooks) reads it.
CREATE TABLE events (
    id             uuid PRIMARY KEY,
    seq            bigserial UNIQUE,
    type           text NOT NULL,
    resource_type  text NOT NULL,
    resource_id    text NOT NULL,
    workspace_id   uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    actor_id       uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    payload        jsonb NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_resource_idx ON events (resource_type, resource_id, seq);
