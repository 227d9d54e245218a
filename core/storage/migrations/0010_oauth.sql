-- The OAuth 2.1 authorization server (docs/oauth.md): clients and applications, the scopes
-- granted to users and the access requests that ask for more, interactive authorization
-- sessions (login, e-mail one-time code, consent), authorization codes, refresh-token
-- families and the access tokens issued from them.

-- Person accounts log in; service accounts stand for confidential applications and hold
-- their workspace grants as memberships (docs/decisions/0010).
ALTER TABLE users ADD COLUMN kind text NOT NULL DEFAULT 'person'
    CHECK (kind IN ('person', 'service'));
ALTER TABLE users ADD COLUMN mfa_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN disabled_at timestamptz NULL;

CREATE TABLE oauth_clients (
    client_id        text PRIMARY KEY,
    kind             text NOT NULL CHECK (kind IN ('public', 'confidential')),
    name             text NOT NULL,
    redirect_uris    jsonb NOT NULL DEFAULT '[]',
    -- confidential: the approved scopes (space-separated) and the source allowlist
    scopes           text NOT NULL DEFAULT '',
    cidrs            text NOT NULL DEFAULT '',
    service_user_id  uuid NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    created_by       uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    disabled_at      timestamptz NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (kind = 'public' OR service_user_id IS NOT NULL)
);

-- At most two live secrets per application (rotation overlap); only SHA-256 hashes are kept.
CREATE TABLE oauth_client_secrets (
    id           uuid PRIMARY KEY,
    client_id    text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
    secret_hash  text NOT NULL,
    expires_at   timestamptz NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_client_secrets_client_idx ON oauth_client_secrets (client_id);

CREATE TABLE oauth_user_scopes (
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    scope       text NOT NULL,
    granted_by  uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    granted_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, scope)
);

CREATE TABLE oauth_access_requests (
    id          uuid PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_id   text NULL REFERENCES oauth_clients (client_id) ON DELETE SET NULL,
    scope       text NOT NULL,
    status      text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'revoked')),
    decided_by  uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    decided_at  timestamptz NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX oauth_access_requests_one_pending_idx ON oauth_access_requests (user_id, scope)
    WHERE status = 'pending';
CREATE INDEX oauth_access_requests_status_idx ON oauth_access_requests (status, created_at);

-- One browser authorization in progress, named by a cookie whose SHA-256 is the key.
CREATE TABLE oauth_auth_sessions (
    id_hash         text PRIMARY KEY,
    csrf_token      text NOT NULL,
    client_id       text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
    request         jsonb NOT NULL,
    stage           text NOT NULL CHECK (stage IN ('login', 'mfa', 'consent', 'done')),
    user_id         uuid NULL REFERENCES users (id) ON DELETE CASCADE,
    mfa_code_hash   text NULL,
    mfa_expires_at  timestamptz NULL,
    mfa_attempts    integer NOT NULL DEFAULT 0,
    expires_at      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_auth_sessions_expires_idx ON oauth_auth_sessions (expires_at);

CREATE TABLE oauth_login_failures (
    id              bigserial PRIMARY KEY,
    email           text NOT NULL,
    remote_address  text NOT NULL,
    failed_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_login_failures_email_idx ON oauth_login_failures (lower(email), failed_at);

CREATE TABLE oauth_refresh_families (
    id              uuid PRIMARY KEY,
    client_id       text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    scope           text NOT NULL,
    resource        text NOT NULL,
    revoked_at      timestamptz NULL,
    revoked_reason  text NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_refresh_families_user_idx ON oauth_refresh_families (user_id);

CREATE TABLE oauth_authorization_codes (
    code_hash       text PRIMARY KEY,
    client_id       text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri    text NOT NULL,
    code_challenge  text NOT NULL,
    scope           text NOT NULL,
    resource        text NOT NULL,
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz NULL,
    family_id       uuid NULL REFERENCES oauth_refresh_families (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- Opaque refresh tokens: looked up by SHA-256, kept AES-256-GCM encrypted at rest.
CREATE TABLE oauth_refresh_tokens (
    id                uuid PRIMARY KEY,
    family_id         uuid NOT NULL REFERENCES oauth_refresh_families (id) ON DELETE CASCADE,
    token_hash        text NOT NULL UNIQUE,
    token_ciphertext  text NOT NULL,  -- base64url(nonce || AES-256-GCM ciphertext || tag)
    scope             text NOT NULL,
    expires_at        timestamptz NOT NULL,
    used_at           timestamptz NULL,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_refresh_tokens_family_idx ON oauth_refresh_tokens (family_id);

-- Every access token the authorization server minted, so a family, a client or a user can be
-- revoked (their ids go to revoked_tokens, which every node reads about once a second).
CREATE TABLE oauth_issued_tokens (
    jti         text PRIMARY KEY,
    client_id   text NOT NULL,
    user_id     uuid NULL,
    family_id   uuid NULL REFERENCES oauth_refresh_families (id) ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL,
    issued_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_issued_tokens_client_idx ON oauth_issued_tokens (client_id, expires_at);
CREATE INDEX oauth_issued_tokens_user_idx ON oauth_issued_tokens (user_id, expires_at);
CREATE INDEX oauth_issued_tokens_family_idx ON oauth_issued_tokens (family_id);
