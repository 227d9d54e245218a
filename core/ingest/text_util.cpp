#include "ingest/text_util.h"

#include <unicode/ucnv.h>

#include <algorithm>
#include <fstream>
#include <memory>

#include "common/utf8.h"
#include "ingest/parser.h"

namespace docintel::ingest {

plugin::Result<std::string> readFileBounded(const std::string& path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return unreadableError("the file cannot be opened");
    std::string data;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        data.append(buf, static_cast<std::size_t>(in.gcount()));
        if (data.size() > max_bytes) return unreadableError("the file is too large to read");
    }
    return data;
}

std::string toUtf8(const std::string& bytes, const std::string& charset) {
    if (bytes.empty()) return {};
    std::string cs = toLower(charset);
    if ((cs == "utf-8" || cs == "utf8" || cs == "us-ascii" || cs == "ascii") &&
        common::isValidUtf8(bytes)) {
        return bytes;
    }
    UErrorCode status = U_ZERO_ERROR;
    UConverter* probe = ucnv_open(charset.c_str(), &status);
    std::string from = charset;
    if (U_FAILURE(status) || probe == nullptr) from = "windows-1252";
    if (probe != nullptr) ucnv_close(probe);
    std::string out(bytes.size() * 4 + 16, '\0');
    status = U_ZERO_ERROR;
    int32_t n = ucnv_convert("UTF-8", from.c_str(), out.data(), static_cast<int32_t>(out.size()),
                             bytes.data(), static_cast<int32_t>(bytes.size()), &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
        out.resize(static_cast<std::size_t>(n) + 1);
        status = U_ZERO_ERROR;
        n = ucnv_convert("UTF-8", from.c_str(), out.data(), static_cast<int32_t>(out.size()),
                         bytes.data(), static_cast<int32_t>(bytes.size()), &status);
    }
    if (U_FAILURE(status)) return {};
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::string decodeText(const std::string& bytes) {
    auto starts = [&](const char* bom, std::size_t n) { return bytes.compare(0, n, bom, n) == 0; };
    if (bytes.size() >= 3 && starts("\xEF\xBB\xBF", 3)) return decodeText(bytes.substr(3));
    if (bytes.size() >= 2 && starts("\xFF\xFE", 2)) return toUtf8(bytes.substr(2), "UTF-16LE");
    if (bytes.size() >= 2 && starts("\xFE\xFF", 2)) return toUtf8(bytes.substr(2), "UTF-16BE");
    if (common::isValidUtf8(bytes)) return bytes;
    return toUtf8(bytes, "windows-1252");
}

std::string firstHeading(const std::vector<Block>& blocks) {
    for (const auto& b : blocks) {
        if (b.kind == Block::Kind::kHeading) return b.text;
    }
    return {};
}

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string collapseWhitespace(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool space = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xA0) {
            ws = true;
            ++i;
        }
        if (ws || c == 0) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += static_cast<char>(c);
    }
    return out;
}

std::string toLower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

void BlockBuilder::add(Block::Kind kind, const std::string& text, int level) {
    std::string clean = collapseWhitespace(text);
    if (clean.empty()) return;
    Block block;
    block.kind = kind;
    block.text = std::move(clean);
    block.level = level;
    for (const auto& [lvl, name] : path_) block.section_path.push_back(name);
    blocks_.push_back(std::move(block));
}

void BlockBuilder::heading(int level, const std::string& text) {
    std::string clean = collapseWhitespace(text);
    if (clean.empty()) return;
    level = std::clamp(level, 1, 9);
    endTable();
    while (!path_.empty() && path_.back().first >= level) path_.pop_back();
    add(Block::Kind::kHeading, clean, level);
    path_.emplace_back(level, clean);
}

void BlockBuilder::paragraph(const std::string& text) {
    endTable();
    add(Block::Kind::kParagraph, text, 0);
}

void BlockBuilder::listItem(const std::string& text) {
    endTable();
    add(Block::Kind::kListItem, text, 0);
}

bool readsAsHeaderRow(const std::vector<std::string>& cells) {
    // A lone cell is a caption; a row with a purely numeric cell (line numbers, figures) is data,
    // and so is one with a label and its value, in one cell ("DOB: 1990-01-02") or a label's
    // cell before its value's ("Case reference:" | "UM-2611-0042", a form's first row).
    int filled = 0;
    bool label_before = false;  // the last filled cell was a label ("Member ID:")
    for (const auto& c : cells) {
        const std::string clean = collapseWhitespace(c);
        if (clean.empty()) continue;
        if (clean.find_first_not_of("0123456789.,-+% ") == std::string::npos) return false;
        if (clean.find(": ") != std::string::npos) return false;
        if (label_before && clean.back() != ':') return false;
        label_before = clean.back() == ':';
        ++filled;
    }
    return filled > 1;
}

void BlockBuilder::tableRow(const std::vector<std::string>& cells) {
    if (!header_.empty()) {
        labelledRow(cells, header_);
        return;
    }
    // The first row that reads as a header is the header; it is itself written bare.
    if (readsAsHeaderRow(cells)) {
        for (const auto& c : cells) header_.push_back(collapseWhitespace(c));
    }
    labelledRow(cells, {});
}

void BlockBuilder::labelledRow(const std::vector<std::string>& cells,
                               const std::vector<std::string>& labels) {
    std::string text;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string cell = collapseWhitespace(cells[i]);
        if (cell.empty()) continue;
        if (!text.empty()) text += " | ";
        std::string label = i < labels.size() ? collapseWhitespace(labels[i]) : "";
        if (!label.empty() && label.back() == ':') label.pop_back();  // "Name, address:"
        if (!label.empty() && label != cell) text += label + ": ";
        text += cell;
    }
    if (!text.empty()) add(Block::Kind::kTableRow, text, 0);
}

std::vector<Block> BlockBuilder::take() {
    std::vector<Block> out;
    out.swap(blocks_);
    return out;
}

}  // namespace docintel::ingest
