-- Generic artifacts (POST/GET /api/v1/artifacts, decision 0056): a typed JSON result a client
-- saves in a scope (a workspace, or its owner's personal scope), with the documents and the
-- answer trace it came from.
CREATE TABLE artifacts (
    id                  uuid PRIMARY KEY,
    artifact_type       text NOT NULL CHECK (length(artifact_type) BETWEEN 2 AND 80),
    title               text NOT NULL CHECK (length(title) BETWEEN 2 AND 240),
    content             jsonb NOT NULL,
    status              text NOT NULL CHECK (status IN ('draft', 'reviewed', 'approved')),
    owner_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id        uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    source_document_ids jsonb NOT NULL DEFAULT '[]',
    source_trace_id     text NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX artifacts_owner_idx ON artifacts (owner_id, created_at DESC)
    WHERE workspace_id IS NULL;
CREATE INDEX artifacts_workspace_idx ON artifacts (workspace_id, created_at DESC);
