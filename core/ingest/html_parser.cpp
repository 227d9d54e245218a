#include "ingest/html_parser.h"

#include <gumbo.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>

#include "common/utf8.h"
#include "ingest/text_util.h"

namespace docintel::ingest {

namespace {

std::string metaCharset(const std::string& bytes) {
    std::string head = toLower(bytes.substr(0, 4096));
    static const std::regex charset_re(R"(<meta[^>]*charset\s*=\s*["']?\s*([a-z0-9_:.\-]+))");
    std::smatch m;
    if (std::regex_search(head, m, charset_re)) return m[1].str();
    return {};
}

std::string decodeHtml(const std::string& bytes, const std::string& declared) {
    if (bytes.compare(0, 3, "\xEF\xBB\xBF", 3) == 0 || bytes.compare(0, 2, "\xFF\xFE", 2) == 0 ||
        bytes.compare(0, 2, "\xFE\xFF", 2) == 0) {
        return decodeText(bytes);
    }
    std::string charset = metaCharset(bytes);
    if (charset.empty()) charset = declared;
    if (!charset.empty()) {
        std::string cs = toLower(charset);
        // Browsers read latin-1 and ascii labels as windows-1252.
        if (cs == "iso-8859-1" || cs == "latin1" || cs == "us-ascii" || cs == "ascii") {
            charset = "windows-1252";
        }
        if ((cs == "utf-8" || cs == "utf8") && !common::isValidUtf8(bytes))
            charset = "windows-1252";
        return toUtf8(bytes, charset);
    }
    return decodeText(bytes);
}

bool isBlock(GumboTag tag) {
    switch (tag) {
        case GUMBO_TAG_P:
        case GUMBO_TAG_DIV:
        case GUMBO_TAG_SECTION:
        case GUMBO_TAG_ARTICLE:
        case GUMBO_TAG_HEADER:
        case GUMBO_TAG_FOOTER:
        case GUMBO_TAG_NAV:
        case GUMBO_TAG_ASIDE:
        case GUMBO_TAG_MAIN:
        case GUMBO_TAG_BLOCKQUOTE:
        case GUMBO_TAG_PRE:
        case GUMBO_TAG_UL:
        case GUMBO_TAG_OL:
        case GUMBO_TAG_DL:
        case GUMBO_TAG_DT:
        case GUMBO_TAG_DD:
        case GUMBO_TAG_FORM:
        case GUMBO_TAG_FIELDSET:
        case GUMBO_TAG_FIGURE:
        case GUMBO_TAG_FIGCAPTION:
        case GUMBO_TAG_ADDRESS:
        case GUMBO_TAG_HR:
        case GUMBO_TAG_BODY:
        case GUMBO_TAG_CENTER:
        case GUMBO_TAG_CAPTION:
            return true;
        default:
            return false;
    }
}

int headingLevel(GumboTag tag) {
    switch (tag) {
        case GUMBO_TAG_H1:
            return 1;
        case GUMBO_TAG_H2:
            return 2;
        case GUMBO_TAG_H3:
            return 3;
        case GUMBO_TAG_H4:
            return 4;
        case GUMBO_TAG_H5:
            return 5;
        case GUMBO_TAG_H6:
            return 6;
        default:
            return 0;
    }
}

bool skipped(GumboTag tag) {
    return tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE || tag == GUMBO_TAG_NOSCRIPT ||
           tag == GUMBO_TAG_TEMPLATE || tag == GUMBO_TAG_HEAD || tag == GUMBO_TAG_IFRAME ||
           tag == GUMBO_TAG_OBJECT || tag == GUMBO_TAG_SVG;
}

// All text under `node`, blocks separated by spaces (table cells, headings).
void plainText(const GumboNode* node, std::string& out, int depth) {
    if (depth > 400) return;
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_CDATA ||
        node->type == GUMBO_NODE_WHITESPACE) {
        out += node->v.text.text;
        return;
    }
    if (node->type != GUMBO_NODE_ELEMENT || skipped(node->v.element.tag)) return;
    const GumboVector& kids = node->v.element.children;
    bool spaced = node->v.element.tag == GUMBO_TAG_BR || isBlock(node->v.element.tag) ||
                  node->v.element.tag == GUMBO_TAG_TD || node->v.element.tag == GUMBO_TAG_TH ||
                  node->v.element.tag == GUMBO_TAG_LI;
    if (spaced) out += ' ';
    for (unsigned i = 0; i < kids.length; ++i) {
        plainText(static_cast<const GumboNode*>(kids.data[i]), out, depth + 1);
    }
    if (spaced) out += ' ';
}

class Walker {
  public:
    explicit Walker(BlockBuilder& out) : out_(out) {}

    void walk(const GumboNode* node, int depth) {
        if (depth > 400) return;
        if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_CDATA ||
            node->type == GUMBO_NODE_WHITESPACE) {
            inline_ += node->v.text.text;
            return;
        }
        if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_DOCUMENT &&
            node->type != GUMBO_NODE_TEMPLATE) {
            return;
        }
        const GumboVector* kids = node->type == GUMBO_NODE_DOCUMENT ? &node->v.document.children
                                                                    : &node->v.element.children;
        GumboTag tag = node->type == GUMBO_NODE_ELEMENT ? node->v.element.tag : GUMBO_TAG_HTML;
        if (skipped(tag)) return;
        if (int level = headingLevel(tag); level > 0) {
            flush();
            std::string text;
            plainText(node, text, depth);
            out_.heading(level, text);
            return;
        }
        if (tag == GUMBO_TAG_TABLE) {
            flush();
            table(node, depth);
            out_.endTable();
            return;
        }
        if (tag == GUMBO_TAG_BR) {
            inline_ += '\n';
            return;
        }
        bool li = tag == GUMBO_TAG_LI;
        bool block = li || isBlock(tag);
        if (block) flush();
        for (unsigned i = 0; i < kids->length; ++i) {
            walk(static_cast<const GumboNode*>(kids->data[i]), depth + 1);
        }
        if (li) {
            out_.listItem(inline_);
            inline_.clear();
        } else if (block) {
            flush();
        }
    }

    void flush() {
        out_.paragraph(inline_);
        inline_.clear();
    }

  private:
    /// A table cell as written: its text, its spans and whether it is a header cell (th).
    struct Cell {
        std::string text;
        int colspan = 1;
        int rowspan = 1;
        bool header = false;
    };
    struct Row {
        std::vector<Cell> cells;
        bool in_head = false;  // under <thead>
    };

    static int span(const GumboNode* cell, const char* name) {
        const GumboAttribute* a = gumbo_get_attribute(&cell->v.element.attributes, name);
        // A span of 0 ("to the end of the group") or nonsense counts as 1; a huge one is capped
        // so a hostile page cannot make the grid large.
        return a == nullptr ? 1 : std::clamp(std::atoi(a->value), 1, 64);
    }

    /// The table's rows in order (through thead, tbody and tfoot); a caption is written as a
    /// paragraph where it stands.
    void collectRows(const GumboNode* node, int depth, bool in_head, std::vector<Row>& rows) {
        if (depth > 400) return;
        const GumboVector& kids = node->v.element.children;
        for (unsigned i = 0; i < kids.length; ++i) {
            auto* kid = static_cast<const GumboNode*>(kids.data[i]);
            if (kid->type != GUMBO_NODE_ELEMENT) continue;
            GumboTag tag = kid->v.element.tag;
            if (tag == GUMBO_TAG_TR) {
                Row row;
                row.in_head = in_head;
                const GumboVector& tds = kid->v.element.children;
                for (unsigned j = 0; j < tds.length; ++j) {
                    auto* td = static_cast<const GumboNode*>(tds.data[j]);
                    if (td->type != GUMBO_NODE_ELEMENT) continue;
                    const GumboTag cell_tag = td->v.element.tag;
                    if (cell_tag != GUMBO_TAG_TD && cell_tag != GUMBO_TAG_TH) continue;
                    Cell cell;
                    plainText(td, cell.text, depth + 2);
                    cell.colspan = span(td, "colspan");
                    cell.rowspan = span(td, "rowspan");
                    cell.header = cell_tag == GUMBO_TAG_TH;
                    row.cells.push_back(std::move(cell));
                }
                rows.push_back(std::move(row));
            } else if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
                collectRows(kid, depth + 1, tag == GUMBO_TAG_THEAD, rows);
            } else if (tag == GUMBO_TAG_CAPTION) {
                std::string text;
                plainText(kid, text, depth + 1);
                out_.paragraph(text);
            }
        }
    }

    /// A table whose header is marked (rows under <thead>, or leading rows of <th> cells) is
    /// laid out on its grid, spans followed, and each column labelled by its header cells from
    /// top to bottom: a financial statement's "Three months ended June 30" over "2026" labels the
    /// column "Three months ended June 30 2026". Any other table is written row by row, the first
    /// row that reads as a header labelling the rest (BlockBuilder::tableRow).
    void table(const GumboNode* node, int depth) {
        std::vector<Row> rows;
        collectRows(node, depth, false, rows);
        std::size_t header_rows = 0;
        while (header_rows < rows.size() && !rows[header_rows].cells.empty() &&
               (rows[header_rows].in_head ||
                std::all_of(rows[header_rows].cells.begin(), rows[header_rows].cells.end(),
                            [](const Cell& c) { return c.header; }))) {
            ++header_rows;
        }
        if (header_rows == 0 || header_rows == rows.size()) {
            for (const auto& row : rows) {
                std::vector<std::string> cells;
                for (const auto& c : row.cells) cells.push_back(c.text);
                out_.tableRow(cells);
            }
            return;
        }
        // The grid: each cell's text in every place its spans cover, and whether the place is
        // where the cell starts in its row (a value spanning columns is written once).
        struct Place {
            std::string text;
            bool start = false;
            bool filled = false;
        };
        std::vector<std::vector<Place>> grid(rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r) {
            std::size_t c = 0;
            for (const auto& cell : rows[r].cells) {
                while (c < grid[r].size() && grid[r][c].filled) ++c;
                const auto last_row =
                    std::min(rows.size(), r + static_cast<std::size_t>(cell.rowspan));
                for (std::size_t rr = r; rr < last_row; ++rr) {
                    for (std::size_t k = 0; k < static_cast<std::size_t>(cell.colspan); ++k) {
                        if (grid[rr].size() <= c + k) grid[rr].resize(c + k + 1);
                        grid[rr][c + k] = Place{collapseWhitespace(cell.text), k == 0, true};
                    }
                }
                c += static_cast<std::size_t>(cell.colspan);
            }
        }
        std::size_t columns = 0;
        for (const auto& row : grid) columns = std::max(columns, row.size());
        std::vector<std::string> labels(columns);
        for (std::size_t c = 0; c < columns; ++c) {
            std::string previous;
            for (std::size_t r = 0; r < header_rows; ++r) {
                const std::string text = c < grid[r].size() ? grid[r][c].text : "";
                if (text.empty() || text == previous) continue;
                labels[c] += (labels[c].empty() ? "" : " ") + text;
                previous = text;
            }
        }
        out_.labelledRow(labels, {});
        for (std::size_t r = header_rows; r < rows.size(); ++r) {
            std::vector<std::string> cells(columns);
            for (std::size_t c = 0; c < grid[r].size(); ++c) {
                if (grid[r][c].start) cells[c] = grid[r][c].text;
            }
            out_.labelledRow(cells, labels);
        }
    }

    BlockBuilder& out_;
    std::string inline_;
};

// gumbo slows down quadratically with element depth; deeper markup than this is read as
// plain text instead. Tags a parser closes implicitly (p, li, td, ...) and void tags don't count.
constexpr int kMaxHtmlDepth = 4000;

bool nestedTooDeeply(const std::string& html) {
    static const char* not_counted[] = {
        "p",     "li",     "td",    "th",   "tr",    "option", "dt",   "dd",   "br",
        "img",   "hr",     "meta",  "link", "input", "area",   "base", "col",  "embed",
        "param", "source", "track", "wbr",  "tbody", "thead",  "html", "head", "body"};
    int depth = 0;
    for (std::size_t i = 0; i + 1 < html.size(); ++i) {
        if (html[i] != '<') continue;
        bool closing = html[i + 1] == '/';
        std::size_t b = i + (closing ? 2 : 1), e = b;
        while (e < html.size() && std::isalnum(static_cast<unsigned char>(html[e]))) ++e;
        if (e == b) continue;
        std::string name = toLower(html.substr(b, e - b));
        bool counted = true;
        for (const char* n : not_counted) counted = counted && name != n;
        if (!counted) continue;
        auto end = html.find('>', e);
        if (end == std::string::npos) break;
        if (html[end - 1] == '/') continue;
        depth += closing ? -1 : 1;
        if (depth > kMaxHtmlDepth) return true;
        i = end;
    }
    return false;
}

// Text of markup without a tree: tags dropped, common entities decoded, one paragraph a line.
void plainTextFallback(const std::string& html, BlockBuilder& out) {
    std::string text;
    bool in_tag = false;
    for (std::size_t i = 0; i < html.size(); ++i) {
        char c = html[i];
        if (in_tag) {
            in_tag = c != '>';
        } else if (c == '<') {
            in_tag = true;
            text += ' ';
        } else if (c == '&') {
            static const std::pair<const char*, const char*> entities[] = {
                {"&amp;", "&"},   {"&lt;", "<"},  {"&gt;", ">"},
                {"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", " "}};
            bool done = false;
            for (const auto& [name, value] : entities) {
                if (html.compare(i, std::strlen(name), name) == 0) {
                    text += value;
                    i += std::strlen(name) - 1;
                    done = true;
                    break;
                }
            }
            if (!done) text += c;
        } else {
            text += c;
        }
        if (c == '\n') {
            out.paragraph(text);
            text.clear();
        }
    }
    out.paragraph(text);
}

const GumboNode* findTitle(const GumboNode* node, int depth) {
    if (depth > 50 || node->type != GUMBO_NODE_ELEMENT) return nullptr;
    if (node->v.element.tag == GUMBO_TAG_TITLE) return node;
    const GumboVector& kids = node->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
        if (auto* t = findTitle(static_cast<const GumboNode*>(kids.data[i]), depth + 1)) return t;
    }
    return nullptr;
}

}  // namespace

ParsedDocument parseHtmlString(const std::string& bytes, const std::string& declared_charset) {
    std::string html = decodeHtml(bytes, declared_charset);
    if (nestedTooDeeply(html)) {
        ParsedDocument doc;
        doc.doc_type_hint = "html";
        BlockBuilder out;
        plainTextFallback(html, out);
        Page page;
        page.blocks = out.take();
        doc.pages.push_back(std::move(page));
        return doc;
    }
    // Misnested markup makes gumbo record an error per tag; cap that list (memory).
    static const GumboOptions options = [] {
        GumboOptions o = kGumboDefaultOptions;
        o.max_errors = 100;
        return o;
    }();
    std::unique_ptr<GumboOutput, void (*)(GumboOutput*)> output(
        gumbo_parse_with_options(&options, html.data(), html.size()),
        [](GumboOutput* o) { gumbo_destroy_output(&options, o); });
    ParsedDocument doc;
    doc.doc_type_hint = "html";
    BlockBuilder out;
    if (output) {
        Walker walker(out);
        walker.walk(output->document, 0);
        walker.flush();
        if (const GumboNode* title = findTitle(output->root, 0)) {
            std::string text;
            plainText(title, text, 0);
            doc.title = collapseWhitespace(text);
        }
    }
    Page page;
    page.blocks = out.take();
    doc.pages.push_back(std::move(page));
    return doc;
}

Result<ParsedDocument> parseHtml(const std::string& path) {
    try {
        auto bytes = readFileBounded(path);
        if (!bytes) return bytes.error();
        return parseHtmlString(bytes.value());
    } catch (const std::exception&) {
        return unreadableError("the HTML file cannot be read");
    }
}

}  // namespace docintel::ingest
