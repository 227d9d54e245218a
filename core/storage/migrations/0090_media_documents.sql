-- Media documents (issue 17, decision 0068): a video is a document whose bytes a feature plugin
-- processes instead of the parsers. It waits `uploaded` after its upload completes and is
-- `processing` while the plugin works, then is chunked and embedded like any document. Its
-- chunks carry the time span they come from instead of a page.
ALTER TABLE documents DROP CONSTRAINT documents_status_check;
ALTER TABLE documents ADD CONSTRAINT documents_status_check CHECK (status IN
    ('uploading', 'uploaded', 'processing', 'chunking', 'chunked', 'embedding', 'embedded',
     'error'));
ALTER TABLE chunks ADD COLUMN start_seconds double precision NULL,
                   ADD COLUMN end_seconds double precision NULL;
