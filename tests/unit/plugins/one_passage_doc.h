#pragma once

// Documents of one passage or several, the input the plugin extractors' unit tests give them.

#include <string>
#include <vector>

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

/// A document of `chunks`, each a passage of page 1 that opens on a new line (a parser starts
/// one at each heading block).
inline DocText docOf(const std::vector<std::string>& chunks) {
    DocText doc;
    doc.document_id = "d1";
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        plugin::Passage p;
        p.document_id = "d1";
        p.chunk_id = "c" + std::to_string(i);
        p.page = 1;
        p.text = chunks[i];
        doc.starts.push_back(doc.text.size());
        doc.text += chunks[i] + "\n";
        doc.passages.push_back(p);
    }
    return doc;
}

}  // namespace docintel::plugins::test
