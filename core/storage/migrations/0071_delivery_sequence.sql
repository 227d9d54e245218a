-- Webhook deliveries carry their event's sequence number (decision 0062): the sequencer creates
-- them when it numbers the event, so the writer's transaction inserts the event row alone, and
-- a sender's "next open deliveries in event order" is a range of one index instead of a join
-- and sort of the whole backlog.
ALTER TABLE webhook_deliveries ADD COLUMN event_seq bigint NULL;
UPDATE webhook_deliveries d SET event_seq = e.seq FROM events e
    WHERE e.id = d.event_id AND e.seq IS NOT NULL;
CREATE INDEX webhook_deliveries_next_idx ON webhook_deliveries (subscription_id, event_seq,
    created_at) WHERE status IN ('pending', 'delivering', 'retrying');
DROP INDEX IF EXISTS webhook_deliveries_open_idx;

-- A job woken while it runs (a webhook sender the sequencer gives new deliveries) runs again at
-- once when it defers itself, instead of sleeping through the wake (a lost wake-up).
ALTER TABLE jobs ADD COLUMN woken_at timestamptz NULL;

-- Events are numbered in (created_at, id) order; `now()` is the transaction's start, so the
-- events of one transaction tied and came out in the order of their random ids. The time of
-- the insert keeps them in the order they were emitted.
ALTER TABLE events ALTER COLUMN created_at SET DEFAULT clock_timestamp();
