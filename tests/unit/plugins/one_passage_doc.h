#pragma once

// A document of one passage, the input the plugin extractors' unit tests give them.

#include <string>

#include "shared/doc_text.h"

namespace docintel::plugins::test {

/// `text` as a document of one passage (document "d1", chunk "c1") on `page`.
inline DocText onePassageDoc(const std::string& text, int page = 1) {
    DocText doc;
    doc.document_id = "d1";
    plugin::Passage p;
    p.document_id = "d1";
    p.chunk_id = "c1";
    p.page = page;
    p.text = text;
    doc.passages.push_back(p);
    doc.starts.push_back(0);
    doc.text = text;
    return doc;
}

}  // namespace docintel::plugins::test
