-- Version chains: each version points at the one it replaces; at most one successor each.
ALTER TABLE documents ADD COLUMN changed_pages jsonb NOT NULL DEFAULT '[]';
CREATE UNIQUE INDEX documents_one_successor_idx ON documents (previous_document_id)
    WHERE previous_document_id IS NOT NULL;
