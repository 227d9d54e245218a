#include "ingest/chunker.h"

#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace docintel::ingest {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

/// Where a sentence of `text` [start, end) ends before an enumeration marker: "... 2020. (d)
/// Subject ..." or "... unless already done. (g) Installation ...". ICU's rules go on after a
/// full stop when the next letter is lower case, so a list of "(a) … (b) …" clauses, common in
/// rules, contracts and policies, reads as one sentence of thousands of bytes. A footnote
/// marker "a/" or "12/" (statistical tables: "... bookmobiles. b/ Oregon figures are ...") is
/// one too. Returns the offsets at which a new sentence starts.
std::vector<int> enumerationStarts(const std::string& text, int start, int end) {
    std::vector<int> out;
    for (int i = start; i + 1 < end; ++i) {
        if (text[i] != '.' && text[i] != '?' && text[i] != '!') continue;
        int j = i + 1;
        // Closing quotes and brackets after the stop: "’’).", "”."
        while (j < end && (text[j] == ')' || text[j] == '"' || text[j] == '\'' ||
                           static_cast<unsigned char>(text[j]) >= 0x80)) {
            ++j;
        }
        if (j >= end || !isSpace(text[j])) continue;
        while (j < end && isSpace(text[j])) ++j;
        if (j >= end) continue;
        const bool bracketed = text[j] == '(';
        int k = bracketed ? j + 1 : j;
        while (k < end && k - j <= 4 && std::isalnum(static_cast<unsigned char>(text[k]))) ++k;
        const int marker = k - (bracketed ? j + 1 : j);
        if (marker == 0 || (!bracketed && marker > 2) || k >= end ||
            text[k] != (bracketed ? ')' : '/') || k + 1 >= end || !isSpace(text[k + 1])) {
            continue;
        }
        out.push_back(j);
    }
    return out;
}

}  // namespace

std::vector<std::pair<int, int>> boundaries(const std::string& text, bool sentences) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> it(
        sentences ? icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status)
                  : icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    std::vector<std::pair<int, int>> out;
    if (U_FAILURE(status)) {
        out.emplace_back(0, static_cast<int>(text.size()));
        return out;
    }
    const icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
    it->setText(u);
    // Map UTF-16 offsets back to UTF-8 byte offsets by re-encoding prefixes incrementally.
    int prev16 = it->first();
    int prev8 = 0;
    for (int next16 = it->next(); next16 != icu::BreakIterator::DONE; next16 = it->next()) {
        std::string piece;
        u.tempSubStringBetween(prev16, next16).toUTF8String(piece);
        const int end8 = prev8 + static_cast<int>(piece.size());
        int from = prev8;
        if (sentences) {
            for (const int at : enumerationStarts(text, prev8, end8)) {
                out.emplace_back(from, at);
                from = at;
            }
        }
        out.emplace_back(from, end8);
        prev8 = end8;
        prev16 = next16;
    }
    return out;
}

int approximateTokens(std::string_view text) {
    int tokens = 0;
    bool in_word = false;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool alnum = std::isalnum(u) || u >= 0x80;
        if (alnum) {
            if (!in_word) ++tokens;
            in_word = true;
        } else {
            in_word = false;
            if (!isSpace(c)) ++tokens;
        }
    }
    return tokens;
}

Chunker::Chunker(ChunkerOptions options, TokenCounter count_tokens)
    : options_(options), count_(std::move(count_tokens)) {}

void Chunker::addPage(const Page& page) {
    // A chunk never crosses a page, so every chunk's span quotes one page exactly.
    flush(false);
    int offset = 0;
    for (const auto& block : page.blocks) {
        const int block_start = offset;
        offset += static_cast<int>(block.text.size()) + 1;  // blocks joined by "\n"
        if (block.text.empty()) continue;
        if (block.kind == Block::Kind::kHeading) {
            // A heading closes the chunk before it and opens a section: its path is the
            // enclosing headings plus itself.
            flush(false);
            if (!block.section_path.empty()) {
                section_path_ = block.section_path;
            } else {
                const auto level = static_cast<std::size_t>(std::max(1, block.level));
                section_path_.resize(std::min(section_path_.size(), level - 1));
            }
            if (section_path_.empty() || section_path_.back() != block.text) {
                section_path_.push_back(block.text);
            }
        } else if (!block.section_path.empty()) {
            section_path_ = block.section_path;
        }
        const int tokens = count_(block.text);
        if (tokens <= options_.max_tokens) {
            addPiece({block.text, page.number, block_start, tokens});
            continue;
        }
        for (const auto& [a, b] : boundaries(block.text, true)) {
            std::string sentence = block.text.substr(a, b - a);
            const int st = count_(sentence);
            if (st <= options_.max_tokens) {
                addPiece({sentence, page.number, block_start + a, st});
                continue;
            }
            // An over-long sentence: pack words.
            std::string part;
            int part_start = a;
            for (const auto& [wa, wb] : boundaries(sentence, false)) {
                const std::string word = sentence.substr(wa, wb - wa);
                if (!part.empty() && count_(part + word) > options_.max_tokens) {
                    addPiece({part, page.number, block_start + part_start, count_(part)});
                    part.clear();
                    part_start = a + wa;
                }
                part += word;
            }
            if (!part.empty()) {
                addPiece({part, page.number, block_start + part_start, count_(part)});
            }
        }
    }
}

void Chunker::addPiece(Piece piece) {
    if (current_tokens_ + piece.tokens > options_.max_tokens) flush(true);
    current_tokens_ += piece.tokens;
    current_.push_back(std::move(piece));
}

void Chunker::flush(bool keep_overlap) {
    if (current_.empty()) return;
    TextChunk chunk;
    chunk.index = next_index_++;
    chunk.page_start = current_.front().page;
    chunk.page_end = current_.back().page;
    chunk.section_path = section_path_;
    chunk.char_start = current_.front().char_start;
    // Pieces are consecutive spans of the page text; what lies between two of them is the
    // "\n" that joins blocks, so the chunk text is exactly page_text[char_start, char_end).
    for (const auto& piece : current_) {
        const int end = chunk.char_start + static_cast<int>(chunk.text.size());
        chunk.text.append(static_cast<std::size_t>(std::max(0, piece.char_start - end)), '\n');
        chunk.text += piece.text;
    }
    chunk.char_end = chunk.char_start + static_cast<int>(chunk.text.size());
    chunk.token_count = count_(chunk.text);
    chunks_.push_back(std::move(chunk));

    std::vector<Piece> carried;
    int carried_tokens = 0;
    if (keep_overlap) {
        for (auto it = current_.rbegin(); it != current_.rend(); ++it) {
            if (carried_tokens + it->tokens > options_.overlap_tokens) break;
            carried_tokens += it->tokens;
            carried.insert(carried.begin(), *it);
        }
        if (carried.size() == current_.size()) {  // never carry a whole chunk
            carried.clear();
            carried_tokens = 0;
        }
    }
    current_ = std::move(carried);
    current_tokens_ = carried_tokens;
}

std::vector<TextChunk> Chunker::take() {
    std::vector<TextChunk> out;
    out.swap(chunks_);
    return out;
}

std::vector<TextChunk> Chunker::finish() {
    flush(false);
    return take();
}

}  // namespace docintel::ingest
