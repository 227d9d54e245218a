-- Confidence of the classifier's doc_type (0..1); NULL until a document has been classified.
ALTER TABLE documents ADD COLUMN doc_type_confidence real NULL
    CHECK (doc_type_confidence IS NULL OR (doc_type_confidence >= 0 AND doc_type_confidence <= 1));
