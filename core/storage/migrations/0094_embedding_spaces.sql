-- The embedding model of each scope's vectors (issue 14, decision 0075): a workspace (or an
-- owner's personal scope) keeps all its vectors in one model's space, so a question encoded by
-- that model is compared with vectors it can be compared with. The first document embedded in
-- a scope settles it; a non-English document moves it to the multilingual model.
CREATE TABLE embedding_spaces (
    scope      text PRIMARY KEY,  -- storage::indexScope: 'w:<workspace id>' or 'p:<owner id>'
    model      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
