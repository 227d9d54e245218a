#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace docintel::plugin {

/// A document a plugin creates (ABI minor 3): its bytes go through the same ingestion as an
/// upload (type sniffing, parsing, chunking, embedding). `workspace_id` empty = the caller's
/// personal scope.
struct NewDocument {
    std::string workspace_id;
    std::string filename;
    std::string content_type;  ///< e.g. text/plain, application/pdf
    std::string bytes;
    bool redact_pii = false;
};

/// A question grounded in a fixed set of documents (ABI minor 3). The host answers only from
/// `document_ids` — never the wider workspace — and only when the caller may see every one of
/// them (else `not_found`, 404, nothing about them told).
struct GroundedQuestion {
    std::string question;
    std::vector<std::string> document_ids;  ///< required, 1..50
    std::string workspace_id;               ///< the scope the documents are in ("" = personal)
    /// Earlier turns, `[{"role": "user"|"assistant", "content": "..."}]` (the ChatRequest's).
    nlohmann::json history = nlohmann::json::array();
    std::string response_language;  ///< en, es, bn, hi, ar; empty = the question's
    bool redact_pii = false;
    std::string trace_id;
};

/// A generated sentence and the source texts that may support it.
struct SupportClaim {
    std::string sentence;
    std::vector<std::string> texts;
};

/// How well a claim is supported: the best of its texts (`best_text` = its index, -1 = none).
struct SupportVerdict {
    bool supported = false;
    int best_text = -1;
    double lexical = 0;  ///< share of the sentence's content words in the best text
    double cosine = 0;   ///< encoder cosine with the best text (0 without an encoder)
};

}  // namespace docintel::plugin
