-- Answer traces (one per answer of KnowledgeService, under the trace id `done` returns), their
-- evaluations, and chat sessions with their turns (docs/knowledge.md).

CREATE TABLE answer_traces (
    id              uuid PRIMARY KEY,
    trace_id        text NOT NULL,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id    uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    session_id      uuid NULL,
    question        text NOT NULL,
    retrieval_query text NOT NULL,
    document_ids    jsonb NOT NULL DEFAULT '[]',
    candidates      jsonb NOT NULL DEFAULT '[]',  -- [{document_id, chunk_index, similarity, bm25, fused, rerank_score, match_type, rank}]
    sources         jsonb NOT NULL DEFAULT '[]',  -- the chosen, numbered sources as shown
    answer          text NOT NULL,
    sentences       jsonb NOT NULL DEFAULT '[]',  -- [{text, source_number, page, char_start, char_end, span_start, span_end, support}]
    refused         boolean NOT NULL DEFAULT false,
    redacted        boolean NOT NULL DEFAULT false,
    timings         jsonb NOT NULL DEFAULT '{}',
    models          jsonb NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX answer_traces_trace_id_idx ON answer_traces (trace_id);
CREATE INDEX answer_traces_user_idx ON answer_traces (user_id, created_at);

CREATE TABLE answer_evaluations (
    id              uuid PRIMARY KEY,
    trace_row_id    uuid NOT NULL REFERENCES answer_traces (id) ON DELETE CASCADE,
    trace_id        text NOT NULL,
    evaluation_type text NOT NULL,
    score           double precision NULL,
    metrics         jsonb NOT NULL,
    details         jsonb NOT NULL DEFAULT '{}',
    created_by      uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX answer_evaluations_trace_idx ON answer_evaluations (trace_row_id);

CREATE TABLE chat_sessions (
    id            uuid PRIMARY KEY,
    owner_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    workspace_id  uuid NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    title         text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    document_ids  jsonb NOT NULL DEFAULT '[]',
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_sessions_owner_idx ON chat_sessions (owner_id, workspace_id, updated_at);

CREATE TABLE chat_turns (
    id          bigserial PRIMARY KEY,
    session_id  uuid NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
    role        text NOT NULL CHECK (role IN ('user', 'assistant')),
    content     text NOT NULL,
    citations   jsonb NOT NULL DEFAULT '[]',
    trace_id    text NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_turns_session_idx ON chat_turns (session_id, id);
