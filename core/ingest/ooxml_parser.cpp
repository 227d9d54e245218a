#include "ingest/ooxml_parser.h"

#include <algorithm>
#include <map>

#include "ingest/text_util.h"
#include "ingest/xml_dom.h"
#include "ingest/zip_reader.h"

namespace docintel::ingest {

namespace {

using Poco::XML::Element;
using Poco::XML::Node;

constexpr int kMaxNesting = 64;

// Heading level per paragraph style id, from styles.xml ("heading 2" or an outline level).
std::map<std::string, int> headingStyles(const ZipReader& zip) {
    std::map<std::string, int> levels;
    if (!zip.has("word/styles.xml")) return levels;
    auto xml = zip.read("word/styles.xml");
    if (!xml) return levels;
    auto doc = parseXml(xml.value());
    if (!doc) return levels;
    for (auto* style : childElements(doc.value()->documentElement())) {
        if (style->localName() != "style") continue;
        std::string id = attr(style, "styleId");
        std::string name = toLower(attr(child(style, "name"), "val"));
        int level = 0;
        if (name == "title") level = 1;
        if (name.rfind("heading ", 0) == 0) level = std::atoi(name.c_str() + 8);
        if (auto* outline = child(child(style, "pPr"), "outlineLvl"); outline && level == 0) {
            level = std::atoi(attr(outline, "val").c_str()) + 1;
        }
        if (level > 0 && level <= 9) levels[id] = level;
    }
    return levels;
}

class DocxReader {
  public:
    DocxReader(std::map<std::string, int> styles, BlockBuilder& out)
        : styles_(std::move(styles)), out_(out) {}

    void body(const Node* container, int depth) {
        if (depth > kMaxNesting) return;
        for (auto* e : childElements(container)) {
            const std::string& name = e->localName();
            if (name == "p") {
                paragraph(e);
            } else if (name == "tbl") {
                table(e, depth);
            } else if (name == "sdt") {
                body(child(e, "sdtContent"), depth + 1);
            } else if (name == "customXml" || name == "ins" || name == "smartTag") {
                body(e, depth + 1);
            }
        }
    }

  private:
    void paragraph(const Element* p) {
        std::string text = textOf(p, "t");
        const Element* ppr = child(p, "pPr");
        std::string style = attr(child(ppr, "pStyle"), "val");
        int level = 0;
        if (auto it = styles_.find(style); it != styles_.end()) level = it->second;
        if (auto* outline = child(ppr, "outlineLvl")) {
            level = std::atoi(attr(outline, "val").c_str()) + 1;
        }
        if (level > 0 && level <= 9) {
            out_.heading(level, text);
        } else if (child(ppr, "numPr") != nullptr ||
                   toLower(style).find("list") != std::string::npos) {
            out_.listItem(text);
        } else {
            out_.paragraph(text);
        }
    }

    // Text of a cell: its paragraphs and any nested table, space separated.
    std::string cellText(const Node* cell, int depth) {
        std::string text;
        if (depth > kMaxNesting) return text;
        for (auto* e : childElements(cell)) {
            if (e->localName() == "p") {
                text += textOf(e, "t") + " ";
            } else if (e->localName() == "tbl") {
                for (auto* tr : childElements(e)) {
                    if (tr->localName() != "tr") continue;
                    for (auto* tc : childElements(tr)) {
                        if (tc->localName() == "tc") text += cellText(tc, depth + 1) + " ";
                    }
                }
            } else if (e->localName() == "sdt") {
                text += cellText(child(e, "sdtContent"), depth + 1);
            }
        }
        return text;
    }

    void table(const Element* tbl, int depth) {
        out_.endTable();
        std::vector<std::string> above;  // previous row, to fill vertically merged cells
        for (auto* tr : childElements(tbl)) {
            if (tr->localName() != "tr") continue;
            std::vector<std::string> cells;
            for (auto* tc : childElements(tr)) {
                if (tc->localName() != "tc") continue;
                const Element* tcpr = child(tc, "tcPr");
                auto* vmerge = child(tcpr, "vMerge");
                std::string text = cellText(tc, depth + 1);
                if (vmerge != nullptr && attr(vmerge, "val") != "restart" &&
                    collapseWhitespace(text).empty() && cells.size() < above.size()) {
                    text = above[cells.size()];
                }
                int span = std::max(1, std::atoi(attr(child(tcpr, "gridSpan"), "val").c_str()));
                cells.push_back(text);
                for (int s = 1; s < span && s < 64; ++s) cells.emplace_back();
            }
            out_.tableRow(cells);
            above = cells;
        }
        out_.endTable();
    }

    std::map<std::string, int> styles_;
    BlockBuilder& out_;
};

// Header or footer parts in name order, without repeats of identical text.
void headerFooterParts(const ZipReader& zip, const std::string& prefix, BlockBuilder& out) {
    std::vector<std::string> names;
    for (const auto& n : zip.entryNames()) {
        if (n.rfind("word/" + prefix, 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".xml") {
            names.push_back(n);
        }
    }
    std::sort(names.begin(), names.end());
    DocxReader reader({}, out);
    for (const auto& n : names) {
        auto xml = zip.read(n);
        if (!xml) continue;
        auto doc = parseXml(xml.value());
        if (doc) reader.body(doc.value()->documentElement(), 0);
    }
}

std::vector<Block> dedup(std::vector<Block> blocks) {
    std::vector<Block> out;
    for (auto& b : blocks) {
        bool seen =
            std::any_of(out.begin(), out.end(), [&](const Block& o) { return o.text == b.text; });
        if (!seen) out.push_back(std::move(b));
    }
    return out;
}

std::string coreTitle(const ZipReader& zip) {
    if (!zip.has("docProps/core.xml")) return {};
    auto xml = zip.read("docProps/core.xml");
    if (!xml) return {};
    auto doc = parseXml(xml.value());
    if (!doc) return {};
    return collapseWhitespace(textOf(doc.value(), "title"));
}

}  // namespace

Result<ParsedDocument> parseDocx(const std::string& path) {
    try {
        auto zip = ZipReader::open(path);
        if (!zip) return zip.error();
        auto xml = zip.value()->read("word/document.xml");
        if (!xml) return xml.error();
        auto dom = parseXml(xml.value());
        if (!dom) return dom.error();
        xml.value().clear();

        ParsedDocument doc;
        doc.doc_type_hint = "docx";
        doc.title = coreTitle(*zip.value());
        Page page;
        BlockBuilder headers;
        headerFooterParts(*zip.value(), "header", headers);
        page.blocks = dedup(headers.take());

        BlockBuilder body;
        DocxReader reader(headingStyles(*zip.value()), body);
        reader.body(child(dom.value()->documentElement(), "body"), 0);
        for (auto& b : body.take()) page.blocks.push_back(std::move(b));

        BlockBuilder footers;
        headerFooterParts(*zip.value(), "footer", footers);
        for (auto& b : dedup(footers.take())) page.blocks.push_back(std::move(b));
        if (doc.title.empty()) doc.title = firstHeading(page.blocks);
        doc.pages.push_back(std::move(page));
        return doc;
    } catch (const std::exception&) {
        return unreadableError("the DOCX file cannot be read");
    }
}

}  // namespace docintel::ingest
