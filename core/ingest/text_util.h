#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ingest/parsed_document.h"
#include "plugin_api/result.h"

namespace docintel::ingest {

/// Largest file or archive entry a parser reads into memory at once (zip bombs, huge text).
inline constexpr std::size_t kMaxInMemoryBytes = std::size_t{256} * 1024 * 1024;

/// Reads at most `max_bytes` of the file; unreadable_document if it cannot be opened or is larger.
plugin::Result<std::string> readFileBounded(const std::string& path,
                                            std::size_t max_bytes = kMaxInMemoryBytes);

/// Converts `bytes` in `charset` (any ICU converter name) to UTF-8; invalid sequences become
/// U+FFFD. An unknown charset is read as windows-1252.
std::string toUtf8(const std::string& bytes, const std::string& charset);
/// Text bytes of unknown encoding to UTF-8: BOM (UTF-8/16LE/16BE) first, then valid UTF-8 as
/// is, else windows-1252.
std::string decodeText(const std::string& bytes);
/// Trims and collapses every run of whitespace (including U+00A0) to one space.
std::string collapseWhitespace(const std::string& text);
/// `text` without the spaces, tabs and line breaks around it (inner white space kept).
std::string trimmed(const std::string& text);
std::string toLower(std::string text);
/// The text of the first heading among `blocks` (a document's title), or "".
std::string firstHeading(const std::vector<Block>& blocks);

/// Whether a table row reads as a header: more than one filled cell, none purely numeric and
/// none a label with its value.
bool readsAsHeaderRow(const std::vector<std::string>& cells);

/// Collects blocks for one page while tracking the heading path and the current table's header
/// row, so every format builds blocks the same way. Not thread-safe; one per parse.
class BlockBuilder {
  public:
    void heading(int level, const std::string& text);
    void paragraph(const std::string& text);
    void listItem(const std::string& text);
    /// A table row; the first row of a table becomes the header that prefixes later rows.
    void tableRow(const std::vector<std::string>& cells);
    /// A table row whose cells' column labels the caller found itself (a PDF's header words
    /// above the cell): "label: cell | ..."; an empty label leaves the cell bare. The header row
    /// of tableRow() is neither read nor changed.
    void labelledRow(const std::vector<std::string>& cells, const std::vector<std::string>& labels);
    /// Ends the current table so the next row starts a new one.
    void endTable() { header_.clear(); }
    /// Moves the collected blocks out (the heading path stays for the next page).
    std::vector<Block> take();
    bool empty() const { return blocks_.empty(); }

  private:
    void add(Block::Kind kind, const std::string& text, int level);

    std::vector<Block> blocks_;
    std::vector<std::pair<int, std::string>> path_;  // (level, heading)
    std::vector<std::string> header_;
};

}  // namespace docintel::ingest
