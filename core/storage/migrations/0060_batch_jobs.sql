-- Batch jobs (docs/documents.md "Batches", docs/decisions/0053): a batch is a set of items, one
-- per document, worked by one durable `batch_run` job of the jobs table with at most
-- `concurrency` items in flight. Item outcomes are recorded here, so a restarted job never
-- redoes a finished item.
CREATE TABLE batch_jobs (
    id              uuid PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN
                        ('upload', 'classification', 'embedding', 'workspace_summary')),
    owner_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id    uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    status          text NOT NULL CHECK (status IN
                        ('awaiting_upload', 'queued', 'running', 'cancelling', 'completed',
                         'completed_with_errors', 'failed', 'cancelled')),
    concurrency     integer NOT NULL CHECK (concurrency BETWEEN 1 AND 10),
    force           boolean NOT NULL DEFAULT false,
    options         jsonb NOT NULL DEFAULT '{}',
    result          jsonb NULL,
    error_code      text NULL,
    error_message   text NULL,
    idempotency_key text NULL,
    job_id          uuid NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz NULL
);
CREATE UNIQUE INDEX batch_jobs_idempotency_idx ON batch_jobs (owner_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX batch_jobs_owner_idx ON batch_jobs (owner_id, created_at DESC)
    WHERE workspace_id IS NULL;
CREATE INDEX batch_jobs_workspace_idx ON batch_jobs (workspace_id, created_at DESC);

-- `awaiting_upload`: an upload item whose file is not completed yet.
CREATE TABLE batch_items (
    batch_id      uuid NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
    position      integer NOT NULL,
    document_id   uuid NOT NULL,
    filename      text NOT NULL DEFAULT '',
    status        text NOT NULL CHECK (status IN
                      ('awaiting_upload', 'queued', 'running', 'succeeded', 'skipped', 'failed',
                       'cancelled')),
    error_code    text NULL,
    error_message text NULL,
    result        jsonb NULL,
    attempts      integer NOT NULL DEFAULT 0,
    started_at    timestamptz NULL,
    finished_at   timestamptz NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (batch_id, position)
);
CREATE INDEX batch_items_document_idx ON batch_items (document_id);
