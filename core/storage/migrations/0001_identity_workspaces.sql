-- Users, team workspaces and their members, and revoked access tokens.

CREATE TABLE users (
    id              uuid PRIMARY KEY,
    email           text NOT NULL,
    display_name    text NOT NULL DEFAULT '',
    password_hash   text NOT NULL,
    is_admin        boolean NOT NULL DEFAULT false,
    active_workspace_id uuid NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE workspaces (
    id          uuid PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    created_by  uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspace_members (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    added_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id);

ALTER TABLE users ADD CONSTRAINT users_active_workspace_fkey
    FOREIGN KEY (active_workspace_id) REFERENCES workspaces (id) ON DELETE SET NULL;

CREATE TABLE revoked_tokens (
    jti         text PRIMARY KEY,
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revoked_tokens_revoked_at_idx ON revoked_tokens (revoked_at);
