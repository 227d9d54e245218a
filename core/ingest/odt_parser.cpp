#include <algorithm>

#include "ingest/ooxml_parser.h"
#include "ingest/text_util.h"
#include "ingest/xml_dom.h"
#include "ingest/zip_reader.h"

namespace docintel::ingest {

namespace {

using Poco::XML::Element;
using Poco::XML::Node;

constexpr int kMaxNesting = 64;

// ODF text of a paragraph: text nodes plus text:s (spaces), text:tab and text:line-break.
void odfText(const Node* node, std::string& out, int depth) {
    if (depth > kMaxNesting) return;
    for (auto* n = node->firstChild(); n != nullptr; n = n->nextSibling()) {
        if (n->nodeType() == Node::TEXT_NODE) {
            out += n->nodeValue();
        } else if (n->nodeType() == Node::ELEMENT_NODE) {
            const std::string& name = n->localName();
            if (name == "s" || name == "tab") {
                out += ' ';
            } else if (name == "line-break") {
                out += '\n';
            } else if (name != "note" && name != "annotation") {
                odfText(n, out, depth + 1);
            }
        }
    }
}

class OdtReader {
  public:
    explicit OdtReader(BlockBuilder& out) : out_(out) {}

    void content(const Node* node, int depth) {
        if (depth > kMaxNesting) return;
        for (auto* e : childElements(node)) {
            const std::string& name = e->localName();
            std::string text;
            if (name == "h") {
                odfText(e, text, depth);
                int level = std::atoi(attr(e, "outline-level").c_str());
                out_.heading(level > 0 ? level : 1, text);
            } else if (name == "p") {
                odfText(e, text, depth);
                out_.paragraph(text);
            } else if (name == "list") {
                list(e, depth + 1);
            } else if (name == "table") {
                table(e, depth + 1);
            } else if (name == "section" || name == "text" || name == "body") {
                content(e, depth + 1);
            }
        }
    }

  private:
    void list(const Element* list_el, int depth) {
        if (depth > kMaxNesting) return;
        for (auto* item : childElements(list_el)) {
            if (item->localName() != "list-item" && item->localName() != "list-header") continue;
            for (auto* e : childElements(item)) {
                if (e->localName() == "list") {
                    list(e, depth + 1);
                } else {
                    std::string text;
                    odfText(e, text, depth);
                    out_.listItem(text);
                }
            }
        }
    }

    void rows(const Element* parent, int depth) {
        if (depth > kMaxNesting) return;
        for (auto* row : childElements(parent)) {
            const std::string& name = row->localName();
            if (name == "table-header-rows" || name == "table-rows" || name == "table-row-group") {
                rows(row, depth + 1);
                continue;
            }
            if (name != "table-row") continue;
            std::vector<std::string> cells;
            for (auto* cell : childElements(row)) {
                if (cell->localName() != "table-cell") continue;
                std::string text;
                odfText(cell, text, depth);
                cells.push_back(text);
            }
            out_.tableRow(cells);
        }
    }

    void table(const Element* t, int depth) {
        out_.endTable();
        rows(t, depth);
        out_.endTable();
    }

    BlockBuilder& out_;
};

}  // namespace

Result<ParsedDocument> parseOdt(const std::string& path) {
    try {
        auto zip = ZipReader::open(path);
        if (!zip) return zip.error();
        // ODF encrypts parts in place and says so in the manifest.
        if (zip.value()->has("META-INF/manifest.xml")) {
            auto manifest = zip.value()->read("META-INF/manifest.xml");
            if (manifest && manifest.value().find("encryption-data") != std::string::npos) {
                return encryptedError("the ODT document is protected by a password");
            }
        }
        auto xml = zip.value()->read("content.xml");
        if (!xml) return xml.error();
        auto dom = parseXml(xml.value());
        if (!dom) return dom.error();
        ParsedDocument doc;
        doc.doc_type_hint = "odt";
        BlockBuilder out;
        OdtReader reader(out);
        reader.content(dom.value()->documentElement(), 0);
        Page page;
        page.blocks = out.take();
        doc.title = firstHeading(page.blocks);
        doc.pages.push_back(std::move(page));
        return doc;
    } catch (const std::exception&) {
        return unreadableError("the ODT file cannot be read");
    }
}

}  // namespace docintel::ingest
