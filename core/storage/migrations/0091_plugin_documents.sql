-- Plugin documents (issue 18, decision 0069): a document whose text a feature plugin writes
-- (a conversation's transcript) exists before it has bytes, so nothing was declared about its
-- size: 0 for those, and only for those.
ALTER TABLE documents DROP CONSTRAINT documents_declared_size_check;
ALTER TABLE documents ADD CONSTRAINT documents_declared_size_check
    CHECK (declared_size > 0 OR (declared_size = 0 AND detected_type = 'plugin_text'));
