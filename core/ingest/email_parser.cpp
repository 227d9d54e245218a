#include "ingest/email_parser.h"

#include <Poco/Base64Decoder.h>
#include <Poco/Net/MessageHeader.h>
#include <Poco/Net/MultipartReader.h>
#include <Poco/Net/NameValueCollection.h>
#include <Poco/Net/QuotedPrintableDecoder.h>

#include <sstream>

#include "ingest/html_parser.h"
#include "ingest/text_parser.h"
#include "ingest/text_util.h"

namespace docintel::ingest {

namespace {

constexpr int kMaxDepth = 20;
constexpr int kMaxParts = 1000;  // per message; a missing closing boundary must not loop

struct Part {
    std::string media_type;  // lower case, e.g. "text/plain"
    std::string charset;
    std::string filename;
    bool attachment = false;
    std::string body;  // transfer-decoded bytes (leaves only)
    std::vector<Part> children;
};

std::string readAll(std::istream& in) {
    std::string data;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        data.append(buf, static_cast<std::size_t>(in.gcount()));
        if (data.size() > kMaxInMemoryBytes) throw std::length_error("mail part too large");
    }
    return data;
}

Part readPart(const Poco::Net::MessageHeader& header, std::istream& body, int depth, int& budget) {
    Part part;
    std::string type;
    Poco::Net::NameValueCollection params;
    Poco::Net::MessageHeader::splitParameters(header.get("Content-Type", "text/plain"), type,
                                              params);
    part.media_type = toLower(collapseWhitespace(type));
    part.charset = params.get("charset", "");
    std::string disposition;
    Poco::Net::NameValueCollection dparams;
    Poco::Net::MessageHeader::splitParameters(header.get("Content-Disposition", ""), disposition,
                                              dparams);
    part.filename = dparams.get("filename", params.get("name", ""));
    part.attachment = toLower(disposition) == "attachment" || !part.filename.empty();
    if (part.media_type.rfind("multipart/", 0) == 0 && depth < kMaxDepth) {
        std::string boundary = params.get("boundary", "");
        if (boundary.empty()) return part;
        Poco::Net::MultipartReader reader(body, boundary);
        while (budget > 0 && reader.hasNextPart()) {
            --budget;
            Poco::Net::MessageHeader child_header;
            reader.nextPart(child_header);
            std::string data = readAll(reader.stream());
            // Without a closing boundary Poco hands back its end-of-file marker as a byte (0xFF,
            // which no text part ends with in practice).
            if (!data.empty() && data.back() == '\xFF') data.pop_back();
            std::istringstream child_body(std::move(data));
            part.children.push_back(readPart(child_header, child_body, depth + 1, budget));
            if (body.eof()) break;  // no closing boundary
        }
        return part;
    }
    std::string encoding = toLower(header.get("Content-Transfer-Encoding", ""));
    if (encoding == "base64") {
        Poco::Base64Decoder decoder(body);
        part.body = readAll(decoder);
    } else if (encoding == "quoted-printable") {
        Poco::Net::QuotedPrintableDecoder decoder(body);
        part.body = readAll(decoder);
    } else {
        part.body = readAll(body);
    }
    return part;
}

bool isText(const Part& p) { return p.media_type.rfind("text/", 0) == 0 || p.media_type.empty(); }

void appendBlocks(const ParsedDocument& doc, const std::vector<std::string>& section,
                  std::vector<Block>& out) {
    for (const auto& page : doc.pages) {
        for (Block b : page.blocks) {
            b.section_path.insert(b.section_path.begin(), section.begin(), section.end());
            out.push_back(std::move(b));
        }
    }
}

ParsedDocument leafDocument(const Part& p) {
    if (p.media_type == "text/html") return parseHtmlString(p.body, p.charset);
    std::string text = p.charset.empty() ? p.body : toUtf8(p.body, p.charset);
    DocumentType type = p.media_type == "text/csv"        ? DocumentType::kCsv
                        : p.media_type == "text/markdown" ? DocumentType::kMd
                                                          : DocumentType::kTxt;
    return parseTextString(text, type);
}

/// A plain-text body with its reply quoting taken off: a line's leading "> " markers ("> >",
/// ">>") are removed, and where the quoting depth changes a paragraph ends, so the quoted
/// earlier message reads as the prose it was ("> Wexcombe, at 5:15 a.m." was one sentence
/// broken by markers) and the "On …, X wrote:" line stands before it.
std::string unquoted(const std::string& text) {
    std::string out;
    std::istringstream lines(text);
    std::string line;
    int previous_depth = 0;
    bool previous_blank = true;
    while (std::getline(lines, line)) {
        int depth = 0;
        std::size_t at = 0;
        while (at < line.size() &&
               (line[at] == '>' ||
                (line[at] == ' ' && depth > 0 && at + 1 < line.size() && line[at + 1] == '>'))) {
            if (line[at] == '>') ++depth;
            ++at;
        }
        if (depth > 0 && at < line.size() && line[at] == ' ') ++at;
        std::string rest = line.substr(at);
        const bool blank = rest.find_first_not_of(" \t\r") == std::string::npos;
        if (!blank && !previous_blank && depth != previous_depth) out += "\n";
        out += rest + "\n";
        previous_depth = depth;
        previous_blank = blank;
    }
    return out;
}

void render(const Part& p, std::vector<Block>& body, std::vector<Block>& attachments) {
    if (!p.children.empty() || p.media_type.rfind("multipart/", 0) == 0) {
        if (p.media_type == "multipart/alternative") {
            const Part* best = nullptr;
            for (const auto& c : p.children) {
                if (c.media_type == "text/plain" && !c.attachment) best = &c;
            }
            for (const auto& c : p.children) {
                if (best == nullptr && c.media_type == "text/html" && !c.attachment) best = &c;
            }
            if (best == nullptr && !p.children.empty()) best = &p.children.front();
            if (best != nullptr) render(*best, body, attachments);
            return;
        }
        for (const auto& c : p.children) render(c, body, attachments);
        return;
    }
    if (!isText(p)) return;
    if (p.attachment) {
        std::string heading = "Attachment: " + (p.filename.empty() ? p.media_type : p.filename);
        attachments.push_back(Block{Block::Kind::kHeading, heading, 1, {}});
        appendBlocks(leafDocument(p), {heading}, attachments);
    } else if (p.media_type == "text/plain" || p.media_type.empty()) {
        Part plain = p;
        plain.body = unquoted(p.charset.empty() ? p.body : toUtf8(p.body, p.charset));
        plain.charset.clear();
        appendBlocks(leafDocument(plain), {}, body);
    } else {
        appendBlocks(leafDocument(p), {}, body);
    }
}

}  // namespace

Result<ParsedDocument> parseEmail(const std::string& path) {
    try {
        auto raw = readFileBounded(path);
        if (!raw) return raw.error();
        std::string bytes = std::move(raw).value();
        if (bytes.compare(0, 2, "\xFF\xFE", 2) == 0 || bytes.compare(0, 2, "\xFE\xFF", 2) == 0) {
            bytes = decodeText(bytes);
        }
        std::istringstream in(bytes);
        Poco::Net::MessageHeader header;
        header.setFieldLimit(1000);
        header.read(in);
        int budget = kMaxParts;
        Part root = readPart(header, in, 0, budget);

        ParsedDocument doc;
        doc.doc_type_hint = "eml";
        doc.title = collapseWhitespace(header.get("Subject", ""));
        Page page;
        // The header is one record, written as a labelled table row: who sent what to whom
        // when stays one unit, so "who sent the message with the attachment?" meets the sender
        // and the subject together.
        std::string summary;
        for (const char* name : {"From", "To", "Cc", "Subject", "Date"}) {
            std::string value = collapseWhitespace(header.get(name, ""));
            if (value.empty()) continue;
            if (!summary.empty()) summary += " | ";
            summary += std::string(name) + ": " + value;
        }
        if (!summary.empty()) {
            page.blocks.push_back(Block{Block::Kind::kTableRow, summary, 0, {}});
        }
        std::vector<Block> attachments;
        render(root, page.blocks, attachments);
        for (auto& b : attachments) page.blocks.push_back(std::move(b));
        doc.pages.push_back(std::move(page));
        return doc;
    } catch (const std::exception&) {
        return unreadableError("the email cannot be read");
    }
}

}  // namespace docintel::ingest
