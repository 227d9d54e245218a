#include "ingest/rtf_parser.h"

#include <set>
#include <vector>

#include "common/utf8.h"
#include "ingest/text_util.h"

namespace docintel::ingest {

namespace {

// Destinations whose text is not document text.
bool isSkippedDestination(const std::string& word) {
    static const std::set<std::string> skipped = {
        "fonttbl",      "colortbl",  "stylesheet",        "info",
        "pict",         "object",    "themedata",         "datastore",
        "latentstyles", "listtable", "listoverridetable", "rsidtbl",
        "generator",    "xmlnstbl",  "mmathPr",           "header",
        "footer",       "headerl",   "headerr",           "footerl",
        "footerr",      "fldinst",   "filetbl",           "revtbl",
        "pgdsctbl",     "bkmkstart", "bkmkend",           "colorschememapping"};
    return skipped.count(word) != 0;
}

class RtfReader {
  public:
    explicit RtfReader(const std::string& src) : src_(src) {}

    ParsedDocument run() {
        struct State {
            bool skip = false;
            int uc = 1;
        };
        std::vector<State> stack{State{}};
        std::size_t i = 0;
        int pending_skip = 0;  // fallback characters to drop after \uN
        while (i < src_.size()) {
            char c = src_[i];
            State& st = stack.back();
            if (c == '{') {
                flushBytes();
                if (stack.size() > 10000) break;  // hostile nesting
                stack.push_back(st);
                ++i;
                continue;
            }
            if (c == '}') {
                flushBytes();
                if (stack.size() > 1) stack.pop_back();
                ++i;
                continue;
            }
            if (c == '\\') {
                ++i;
                if (i >= src_.size()) break;
                char n = src_[i];
                if (n == '\'' && i + 2 < src_.size()) {
                    if (pending_skip > 0) {
                        --pending_skip;
                    } else if (!st.skip) {
                        bytes_ += static_cast<char>(std::stoi(src_.substr(i + 1, 2), nullptr, 16));
                    }
                    i += 3;
                    continue;
                }
                if (!std::isalpha(static_cast<unsigned char>(n))) {
                    ++i;
                    if (n == '*') {
                        st.skip = true;
                    } else if (!st.skip && (n == '\\' || n == '{' || n == '}')) {
                        text(std::string(1, n));
                    } else if (!st.skip && n == '~') {
                        text(" ");
                    } else if (!st.skip && (n == '\n' || n == '\r')) {
                        breakParagraph();
                    }
                    continue;
                }
                std::size_t start = i;
                while (i < src_.size() && std::isalpha(static_cast<unsigned char>(src_[i]))) ++i;
                std::string word = src_.substr(start, i - start);
                bool has_num = false;
                long num = 0;
                std::size_t ns = i;
                if (i < src_.size() &&
                    (src_[i] == '-' || std::isdigit(static_cast<unsigned char>(src_[i])))) {
                    ++i;
                    while (i < src_.size() && std::isdigit(static_cast<unsigned char>(src_[i])) &&
                           i - ns < 10)
                        ++i;
                    has_num = i - ns > (src_[ns] == '-' ? 1u : 0u);
                    if (has_num) num = std::stol(src_.substr(ns, i - ns));
                }
                if (i < src_.size() && src_[i] == ' ') ++i;
                control(word, has_num, num, st.skip, st.uc, pending_skip);
                if (isSkippedDestination(word)) st.skip = true;
                continue;
            }
            ++i;
            if (c == '\n' || c == '\r') continue;
            if (pending_skip > 0) {
                --pending_skip;
                continue;
            }
            if (!st.skip) bytes_ += c;
        }
        flushBytes();
        breakParagraph();
        ParsedDocument doc;
        doc.doc_type_hint = "rtf";
        Page page;
        page.blocks = out_.take();
        doc.pages.push_back(std::move(page));
        return doc;
    }

  private:
    void control(const std::string& w, bool has_num, long num, bool skip, int& uc,
                 int& pending_skip) {
        if (w == "ansicpg" && has_num) codepage_ = "windows-" + std::to_string(num);
        if (w == "uc" && has_num) uc = static_cast<int>(num);
        if (skip) return;
        if (w == "u" && has_num) {
            flushBytes();
            std::string s;
            common::appendUtf8(s, static_cast<char32_t>(num < 0 ? num + 65536 : num));
            text(s);
            pending_skip = uc;
        } else if (w == "par" || w == "line" || w == "sect" || w == "page") {
            breakParagraph();
        } else if (w == "pard") {
            flushBytes();
            outline_ = -1;
            in_table_ = false;
        } else if (w == "outlinelevel" && has_num) {
            outline_ = static_cast<int>(num);
        } else if (w == "intbl") {
            in_table_ = true;
        } else if (w == "cell") {
            flushBytes();
            cells_.push_back(para_);
            para_.clear();
        } else if (w == "row") {
            flushBytes();
            if (!para_.empty()) cells_.push_back(para_);
            para_.clear();
            out_.tableRow(cells_);
            cells_.clear();
        } else if (w == "tab" || w == "emspace" || w == "enspace") {
            text(" ");
        } else if (w == "emdash") {
            text("\u2014");
        } else if (w == "endash") {
            text("\u2013");
        } else if (w == "bullet") {
            text("\u2022");
        } else if (w == "lquote" || w == "rquote") {
            text("'");
        } else if (w == "ldblquote" || w == "rdblquote") {
            text("\"");
        }
    }

    void text(const std::string& utf8) {
        flushBytes();
        para_ += utf8;
    }

    void flushBytes() {
        if (bytes_.empty()) return;
        para_ += toUtf8(bytes_, codepage_);
        bytes_.clear();
    }

    void breakParagraph() {
        flushBytes();
        if (in_table_) return;
        if (outline_ >= 0) {
            out_.heading(outline_ + 1, para_);
        } else {
            out_.paragraph(para_);
        }
        para_.clear();
    }

    const std::string& src_;
    std::string codepage_ = "windows-1252";
    std::string bytes_;  // undecoded code-page bytes of the current run
    std::string para_;
    std::vector<std::string> cells_;
    int outline_ = -1;
    bool in_table_ = false;
    BlockBuilder out_;
};

}  // namespace

Result<ParsedDocument> parseRtf(const std::string& path) {
    try {
        auto bytes = readFileBounded(path);
        if (!bytes) return bytes.error();
        if (bytes.value().compare(0, 5, "{\\rtf") != 0) return unreadableError("not an RTF file");
        return RtfReader(bytes.value()).run();
    } catch (const std::exception&) {
        return unreadableError("the RTF file cannot be read");
    }
}

}  // namespace docintel::ingest
