#include <algorithm>
#include <map>

#include "ingest/ooxml_parser.h"
#include "ingest/text_util.h"
#include "ingest/xml_dom.h"
#include "ingest/zip_reader.h"

namespace docintel::ingest {

namespace {

using Poco::XML::Element;
using Poco::XML::Node;

constexpr int kMaxNesting = 64;

// Relationship id → package path, resolving targets relative to `base_dir` ("ppt/").
std::map<std::string, std::string> relTargets(const ZipReader& zip, const std::string& rels_path,
                                              const std::string& base_dir) {
    std::map<std::string, std::string> out;
    if (!zip.has(rels_path)) return out;
    auto xml = zip.read(rels_path);
    if (!xml) return out;
    auto doc = parseXml(xml.value());
    if (!doc) return out;
    for (auto* rel : childElements(doc.value()->documentElement())) {
        std::string target = attr(rel, "Target");
        if (target.empty()) continue;
        out[attr(rel, "Id")] = target[0] == '/' ? target.substr(1) : base_dir + target;
    }
    return out;
}

// Part paths listed by `list_name`/`item_name` in the main part, in their declared order; when
// that fails, every part under `dir` sorted by its number.
std::vector<std::pair<std::string, std::string>> orderedParts(
    const ZipReader& zip, const std::string& main_part, const std::string& rels,
    const std::string& base_dir, const std::string& list_name, const std::string& item_name,
    const std::string& dir) {
    std::vector<std::pair<std::string, std::string>> parts;  // (name, path)
    auto targets = relTargets(zip, rels, base_dir);
    if (auto xml = zip.read(main_part)) {
        if (auto doc = parseXml(xml.value())) {
            for (auto* item : childElements(child(doc.value()->documentElement(), list_name))) {
                if (item->localName() != item_name) continue;
                // sldId has a plain "id" too; the relationship is the prefixed one.
                std::string rid = attr(item, "r:id");
                auto it = targets.find(rid.empty() ? attr(item, "id") : rid);
                if (it != targets.end() && zip.has(it->second)) {
                    parts.emplace_back(attr(item, "name"), it->second);
                }
            }
        }
    }
    if (!parts.empty()) return parts;
    std::vector<std::pair<int, std::string>> numbered;
    for (const auto& n : zip.entryNames()) {
        if (n.rfind(dir, 0) != 0 || n.find('/', dir.size()) != std::string::npos) continue;
        std::string digits;
        for (char c : n.substr(dir.size())) {
            if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
        }
        numbered.emplace_back(digits.empty() ? 0 : std::atoi(digits.substr(0, 9).c_str()), n);
    }
    std::sort(numbered.begin(), numbered.end());
    for (const auto& [num, n] : numbered) parts.emplace_back("", n);
    return parts;
}

class SlideReader {
  public:
    explicit SlideReader(BlockBuilder& out) : out_(out) {}

    void shapes(const Node* tree, int depth) {
        if (depth > kMaxNesting) return;
        for (auto* e : childElements(tree)) {
            const std::string& name = e->localName();
            if (name == "sp") {
                shape(e);
            } else if (name == "grpSp") {
                shapes(e, depth + 1);
            } else if (name == "graphicFrame") {
                if (auto* tbl = descendant(e, "tbl")) table(tbl);
            }
        }
    }

  private:
    void shape(const Element* sp) {
        std::string ph = attr(descendant(child(sp, "nvSpPr"), "ph"), "type");
        bool title = ph == "title" || ph == "ctrTitle";
        const Element* body = child(sp, "txBody");
        if (body == nullptr) return;
        std::string title_text;
        for (auto* p : childElements(body)) {
            if (p->localName() != "p") continue;
            std::string text = textOf(p, "t");
            if (title) {
                title_text += text + " ";
                continue;
            }
            const Element* ppr = child(p, "pPr");
            bool bullet = child(ppr, "buChar") != nullptr || child(ppr, "buAutoNum") != nullptr ||
                          !attr(ppr, "lvl").empty() || ph == "body" ||
                          (ph.empty() && descendant(child(sp, "nvSpPr"), "ph") != nullptr);
            if (child(ppr, "buNone") != nullptr) bullet = false;
            bullet ? out_.listItem(text) : out_.paragraph(text);
        }
        if (title) out_.heading(ph == "ctrTitle" ? 1 : 2, title_text);
    }

    void table(const Element* tbl) {
        out_.endTable();
        for (auto* tr : childElements(tbl)) {
            if (tr->localName() != "tr") continue;
            std::vector<std::string> cells;
            for (auto* tc : childElements(tr)) {
                if (tc->localName() == "tc") cells.push_back(textOf(tc, "t"));
            }
            out_.tableRow(cells);
        }
        out_.endTable();
    }

    BlockBuilder& out_;
};

int columnIndex(const std::string& ref) {
    int col = 0;
    for (char c : ref) {
        if (!std::isalpha(static_cast<unsigned char>(c))) break;
        col = col * 26 + (std::toupper(static_cast<unsigned char>(c)) - 'A' + 1);
        if (col > 16384) return -1;
    }
    return col - 1;
}

std::vector<std::string> sharedStrings(const ZipReader& zip) {
    std::vector<std::string> out;
    if (!zip.has("xl/sharedStrings.xml")) return out;
    auto xml = zip.read("xl/sharedStrings.xml");
    if (!xml) return out;
    auto doc = parseXml(xml.value());
    if (!doc) return out;
    for (auto* si : childElements(doc.value()->documentElement())) {
        if (si->localName() == "si") out.push_back(textOf(si, "t"));
    }
    return out;
}

void sheetRows(const Element* sheet, const std::vector<std::string>& shared, BlockBuilder& out) {
    for (auto* row : childElements(child(sheet, "sheetData"))) {
        if (row->localName() != "row") continue;
        std::vector<std::string> cells;
        for (auto* c : childElements(row)) {
            if (c->localName() != "c") continue;
            std::string type = attr(c, "t");
            std::string value;
            if (type == "inlineStr") {
                value = textOf(child(c, "is"), "t");
            } else if (auto* v = child(c, "v")) {
                value = v->innerText();
                if (type == "s") {
                    auto idx = static_cast<std::size_t>(std::strtoul(value.c_str(), nullptr, 10));
                    value = idx < shared.size() ? shared[idx] : std::string();
                } else if (type == "b") {
                    value = value == "1" ? "TRUE" : "FALSE";
                } else if (auto dot = value.find('.');
                           dot != std::string::npos &&
                           value.find_first_not_of('0', dot + 1) == std::string::npos) {
                    value.erase(dot);  // a whole number written as "13.0" reads as 13
                }
            }
            int col = columnIndex(attr(c, "r"));
            if (col >= 0 && col < 16384 && static_cast<std::size_t>(col) >= cells.size()) {
                cells.resize(static_cast<std::size_t>(col));
            }
            cells.push_back(value);
        }
        out.tableRow(cells);
    }
}

/// Reads each part as XML and makes it one page (pages numbered from 1): `fill` adds the
/// part's blocks given its name, root element and page number.
template <typename Fill>
Status partsAsPages(ZipReader& zip, const std::vector<std::pair<std::string, std::string>>& parts,
                    const PageSink& on_page, Fill fill) {
    BlockBuilder out;
    int number = 0;
    for (const auto& [name, part] : parts) {
        auto xml = zip.read(part);
        if (!xml) return xml.error();
        auto doc = parseXml(xml.value());
        if (!doc) return doc.error();
        fill(name, doc.value()->documentElement(), number + 1, out);
        Page page;
        page.number = ++number;
        page.blocks = out.take();
        if (auto st = on_page(std::move(page)); !st) return st;
    }
    return {};
}

}  // namespace

Status parsePptx(const std::string& path, const PageSink& on_page) {
    try {
        auto zip = ZipReader::open(path);
        if (!zip) return zip.error();
        auto slides =
            orderedParts(*zip.value(), "ppt/presentation.xml", "ppt/_rels/presentation.xml.rels",
                         "ppt/", "sldIdLst", "sldId", "ppt/slides/");
        return partsAsPages(
            *zip.value(), slides, on_page,
            [](const std::string&, Poco::XML::Element* root, int, BlockBuilder& out) {
                SlideReader reader(out);
                reader.shapes(descendant(root, "spTree"), 0);
            });
    } catch (const std::exception&) {
        return unreadableError("the PPTX file cannot be read");
    }
}

Status parseXlsx(const std::string& path, const PageSink& on_page) {
    try {
        auto zip = ZipReader::open(path);
        if (!zip) return zip.error();
        auto shared = sharedStrings(*zip.value());
        auto sheets = orderedParts(*zip.value(), "xl/workbook.xml", "xl/_rels/workbook.xml.rels",
                                   "xl/", "sheets", "sheet", "xl/worksheets/");
        return partsAsPages(*zip.value(), sheets, on_page,
                            [&shared](const std::string& name, Poco::XML::Element* root, int number,
                                      BlockBuilder& out) {
                                out.heading(
                                    1, name.empty() ? "Sheet " + std::to_string(number) : name);
                                sheetRows(root, shared, out);
                            });
    } catch (const std::exception&) {
        return unreadableError("the XLSX file cannot be read");
    }
}

}  // namespace docintel::ingest
