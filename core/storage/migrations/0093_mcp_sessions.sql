-- MCP sessions every node knows (issue 19, decision 0072, replacing decision 0020's memory-only
-- store): a client whose requests move to another API node, or whose node restarted, keeps its
-- session. The id itself is not stored, only its SHA-256.
CREATE TABLE mcp_sessions (
    id_hash          text PRIMARY KEY,
    subject          text NOT NULL,
    protocol_version text NOT NULL,
    log_level        text NOT NULL DEFAULT 'info',
    created_at       bigint NOT NULL,  -- epoch seconds
    last_used_at     bigint NOT NULL
);
CREATE INDEX mcp_sessions_last_used_idx ON mcp_sessions (last_used_at);
