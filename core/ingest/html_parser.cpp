#include "ingest/html_parser.h"

#include <gumbo.h>

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
    void table(const GumboNode* node, int depth) {
        if (depth > 400) return;
        const GumboVector& kids = node->v.element.children;
        for (unsigned i = 0; i < kids.length; ++i) {
            auto* kid = static_cast<const GumboNode*>(kids.data[i]);
            if (kid->type != GUMBO_NODE_ELEMENT) continue;
            GumboTag tag = kid->v.element.tag;
            if (tag == GUMBO_TAG_TR) {
                std::vector<std::string> cells;
                const GumboVector& tds = kid->v.element.children;
                for (unsigned j = 0; j < tds.length; ++j) {
                    auto* td = static_cast<const GumboNode*>(tds.data[j]);
                    if (td->type != GUMBO_NODE_ELEMENT) continue;
                    if (td->v.element.tag != GUMBO_TAG_TD && td->v.element.tag != GUMBO_TAG_TH) {
                        continue;
                    }
                    std::string text;
                    plainText(td, text, depth + 2);
                    cells.push_back(text);
                }
                out_.tableRow(cells);
            } else if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
                table(kid, depth + 1);
            } else if (tag == GUMBO_TAG_CAPTION) {
                std::string text;
                plainText(kid, text, depth + 1);
                out_.paragraph(text);
            }
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
