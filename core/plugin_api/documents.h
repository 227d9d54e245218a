#pragma once

#include <cstdint>
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

/// A media document's direct upload (ABI minor 4): the document's row and a signed PUT URL,
/// as POST /uploads gives, for bytes a feature plugin processes itself (a video). Its `doc_type`
/// is set from the start; completing the upload checks the container and leaves the document
/// `uploaded` for the plugin (no parsing).
struct MediaUpload {
    std::string workspace_id;  ///< empty = the caller's personal scope
    std::string filename;
    std::string content_type;
    std::int64_t size = 0;
    std::string doc_type;        ///< e.g. "video"
    std::int64_t max_bytes = 0;  ///< larger → file_too_large (413)
};

/// A chunk a plugin made of a media document (ABI minor 4): text and the time span it covers.
struct TimedChunk {
    std::string text;
    double start_seconds = 0;
    double end_seconds = 0;
    std::vector<std::string> section_path;  ///< e.g. {"00:00 – 01:00"}
    bool timed = true;  ///< false: the chunk has no time span (ABI minor 5; a typed transcript)
};

/// A document whose text a feature plugin writes itself (ABI minor 5): a conversation's
/// transcript. It exists (listed, access-checked, deletable) from the start, waits `uploaded`
/// with no bytes and no chunks — so nothing of it is searchable — until the plugin writes its
/// text (writeDocumentText) and chunks (storeDocumentChunks, embedDocument).
struct PluginDocument {
    std::string workspace_id;  ///< empty = the caller's personal scope
    std::string filename;
    std::string content_type = "text/plain";
    std::string doc_type;  ///< e.g. "conversation_transcript"
    bool redact_pii = false;
};

/// An 8-bit gray image, row-major, `stride` bytes a row (ABI minor 4), for recognizeText.
struct GrayImage {
    const std::uint8_t* data = nullptr;
    int width = 0;
    int height = 0;
    int stride = 0;
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
