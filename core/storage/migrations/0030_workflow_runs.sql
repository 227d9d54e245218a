-- Workflow runs, their audited field changes, generated packets and review tasks.
CREATE TABLE workflow_runs (
    id             uuid PRIMARY KEY,
    workflow       text NOT NULL,
    vertical       text NOT NULL,
    owner_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id   uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    status         text NOT NULL CHECK (status IN
                       ('running', 'pending_review', 'changes_requested', 'approved', 'failed')),
    document_ids   jsonb NOT NULL DEFAULT '[]',
    inputs         jsonb NOT NULL DEFAULT '{}',
    packet         jsonb NOT NULL DEFAULT '{}',
    steps          jsonb NOT NULL DEFAULT '[]',
    error_code     text NULL,
    error_message  text NULL,
    review_notes   text NOT NULL DEFAULT '',
    revision       integer NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    completed_at   timestamptz NULL,
    approved_by    uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    approved_at    timestamptz NULL
);
CREATE INDEX workflow_runs_owner_idx ON workflow_runs (owner_id, created_at DESC)
    WHERE workspace_id IS NULL;
CREATE INDEX workflow_runs_workspace_idx ON workflow_runs (workspace_id, created_at DESC);

-- Every change a reviewer made to a field of a run's review packet: who, when, old, new.
CREATE TABLE workflow_field_changes (
    id          bigserial PRIMARY KEY,
    run_id      uuid NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    revision    integer NOT NULL,
    path        text NOT NULL,
    old_value   jsonb NULL,
    new_value   jsonb NULL,
    changed_by  uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    changed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflow_field_changes_run_idx ON workflow_field_changes (run_id, id);

-- Packets rendered from a run: each is a document of the run's scope (doc_type 'packet').
CREATE TABLE workflow_packets (
    id           uuid PRIMARY KEY,
    run_id       uuid NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    packet_type  text NOT NULL,
    document_id  uuid NULL REFERENCES documents (id) ON DELETE SET NULL,
    revision     integer NOT NULL,
    created_by   uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflow_packets_run_idx ON workflow_packets (run_id, created_at);

CREATE TABLE review_tasks (
    id              uuid PRIMARY KEY,
    vertical        text NOT NULL,
    run_id          uuid NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    title           text NOT NULL CHECK (length(title) BETWEEN 2 AND 240),
    workspace_id    uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    priority        text NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
    due_at          timestamptz NULL,
    metadata        jsonb NOT NULL DEFAULT '{}',
    status          text NOT NULL CHECK (status IN
                        ('pending', 'in_review', 'completed', 'changes_requested', 'rejected')),
    assigned_to     uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    decision        text NULL,
    reviewer_notes  text NOT NULL DEFAULT '',
    created_by      uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    decided_by      uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    decided_at      timestamptz NULL
);
CREATE INDEX review_tasks_run_idx ON review_tasks (run_id);
CREATE INDEX review_tasks_workspace_idx ON review_tasks (workspace_id, created_at DESC);
