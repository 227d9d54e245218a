-- Documents (personal or in a team workspace), their chunks, and the durable job queue.
CREATE TABLE documents (
    id                   uuid PRIMARY KEY,
    owner_id             uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id         uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    filename             text NOT NULL,
    content_type         text NOT NULL,
    declared_size        bigint NOT NULL CHECK (declared_size > 0),
    size_bytes           bigint NULL,
    sha256               text NULL,
    storage_key          text NOT NULL UNIQUE,
    detected_type        text NULL,
    doc_type             text NULL,
    status               text NOT NULL CHECK (status IN
                             ('uploading', 'chunking', 'chunked', 'embedding', 'embedded', 'error')),
    error_code           text NULL,
    error_message        text NULL,
    pages                integer NULL,
    redact_pii           boolean NOT NULL DEFAULT false,
    version              integer NOT NULL DEFAULT 1,
    previous_document_id uuid NULL REFERENCES documents (id) ON DELETE SET NULL,
    change_summary       text NOT NULL DEFAULT '',
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_owner_idx ON documents (owner_id) WHERE workspace_id IS NULL;
CREATE INDEX documents_workspace_idx ON documents (workspace_id);

CREATE TABLE chunks (
    id            uuid PRIMARY KEY,
    document_id   uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    chunk_index   integer NOT NULL,
    text          text NOT NULL,
    page_start    integer NOT NULL,
    page_end      integer NOT NULL,
    section_path  jsonb NOT NULL DEFAULT '[]',
    char_start    integer NOT NULL,
    char_end      integer NOT NULL,
    token_count   integer NOT NULL,
    model         text NULL,
    model_version text NULL,
    embedding     bytea NULL,
    UNIQUE (document_id, chunk_index)
);

-- Durable jobs: workers claim with FOR UPDATE SKIP LOCKED and hold a lease they renew;
-- `checkpoint` records finished steps so a reclaimed job repeats only the unfinished one.
CREATE TABLE jobs (
    id               uuid PRIMARY KEY,
    kind             text NOT NULL,
    payload          jsonb NOT NULL DEFAULT '{}',
    status           text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    max_attempts     integer NOT NULL DEFAULT 5,
    run_after        timestamptz NOT NULL DEFAULT now(),
    lease_owner      text NULL,
    lease_expires_at timestamptz NULL,
    checkpoint       jsonb NOT NULL DEFAULT '{}',
    last_error       text NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_queued_idx ON jobs (run_after) WHERE status = 'queued';
CREATE INDEX jobs_leases_idx ON jobs (lease_expires_at) WHERE status = 'running';
