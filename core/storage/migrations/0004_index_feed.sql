-- The change feed the per-node search indexes (Xapian BM25, vectors) follow. A row names a
-- document whose indexable state changed (its status moved, or it was deleted — also by
-- cascade). `xid` is the writing transaction: a node consumes rows whose transactions are all
-- finished (xid below the snapshot's xmin), so it never applies what Postgres might still roll
-- back, and re-reads the document's current state, so the order of rows does not matter.
CREATE TABLE index_changes (
    id          bigserial PRIMARY KEY,
    xid         xid8 NOT NULL DEFAULT pg_current_xact_id(),
    document_id uuid NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX index_changes_xid_idx ON index_changes (xid);

CREATE FUNCTION note_index_change() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO index_changes (document_id) VALUES (OLD.id);
        RETURN OLD;
    END IF;
    INSERT INTO index_changes (document_id) VALUES (NEW.id);
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER documents_index_status AFTER UPDATE OF status ON documents
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION note_index_change();
CREATE TRIGGER documents_index_delete AFTER DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION note_index_change();
