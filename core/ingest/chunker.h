#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/parsed_document.h"

namespace docintel::ingest {

/// A passage of a document small enough for the encoder, with where it came from: its page,
/// section path, and its character span in that page's text (blocks of a page are joined by
/// "\n"): `text` is exactly page_text[char_start, char_end), so a citation of any part of a
/// chunk names the right page and quotes the exact span. A chunk never crosses a page
/// (page_end == page_start; both stay for the stored shape).
struct TextChunk {
    int index = 0;
    std::string text;
    int page_start = 1;
    int page_end = 1;
    std::vector<std::string> section_path;
    int char_start = 0;
    int char_end = 0;
    int token_count = 0;
};

struct ChunkerOptions {
    int max_tokens = 256;     ///< the encoder's limit, less room for special tokens
    int overlap_tokens = 32;  ///< carried from the end of one chunk into the next
};

/// Counts the encoder's tokens in a text (the WordPiece tokenizer when a model is loaded).
using TokenCounter = std::function<int(std::string_view)>;

/// Splits `text` at ICU sentence (or word) boundaries; returns [start, end) byte ranges into
/// the UTF-8 text that together cover it. Sentences also end before an enumeration marker that
/// follows a full stop ("… 2020. (d) Subject …"), where ICU's rules run on.
std::vector<std::pair<int, int>> boundaries(const std::string& text, bool sentences);

/// A rough counter for when no tokenizer is at hand: words and punctuation marks.
int approximateTokens(std::string_view text);

/// Structure-aware chunking: a heading or a new page starts a new chunk, a heading sets the
/// section path; table rows are kept whole where they fit; text is split at sentence boundaries
/// (ICU) and, for over-long sentences, at word boundaries. Feed pages in order; thread-compatible
/// (one instance per document).
class Chunker {
  public:
    Chunker(ChunkerOptions options, TokenCounter count_tokens);

    void addPage(const Page& page);
    /// Hands over the chunks completed so far (those of earlier pages: a chunk never crosses a
    /// page), so that a caller storing them as it goes holds about one page's chunks at a time.
    std::vector<TextChunk> take();
    /// Flushes the last chunk and returns the chunks not taken yet.
    std::vector<TextChunk> finish();

  private:
    struct Piece {
        std::string text;
        int page = 1;
        int char_start = 0;
        int tokens = 0;
    };
    void addPiece(Piece piece);
    void flush(bool keep_overlap);

    const ChunkerOptions options_;
    const TokenCounter count_;
    std::vector<std::string> section_path_;
    std::vector<Piece> current_;
    int current_tokens_ = 0;
    std::vector<TextChunk> chunks_;
    int next_index_ = 0;
};

}  // namespace docintel::ingest
