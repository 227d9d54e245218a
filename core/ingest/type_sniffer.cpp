#include "ingest/type_sniffer.h"

#include <algorithm>
#include <fstream>

#include "common/utf8.h"
#include "ingest/text_util.h"
#include "ingest/zip_reader.h"

namespace docintel::ingest {

namespace {

constexpr std::size_t kHeadBytes = 8192;

std::string extensionOf(const std::string& filename) {
    auto slash = filename.find_last_of("/\\");
    std::string base = slash == std::string::npos ? filename : filename.substr(slash + 1);
    auto dot = base.rfind('.');
    return dot == std::string::npos ? std::string() : toLower(base.substr(dot + 1));
}

bool startsWithNoCase(const std::string& s, std::size_t pos, const std::string& prefix) {
    if (s.size() < pos + prefix.size()) return false;
    return toLower(s.substr(pos, prefix.size())) == prefix;
}

DocumentType zipType(const std::string& path, const std::string& ext) {
    auto reader = ZipReader::open(path);
    if (!reader) {
        // A damaged package still gets its parser, which reports it unreadable.
        if (ext == "docx" || ext == "docm") return DocumentType::kDocx;
        if (ext == "pptx") return DocumentType::kPptx;
        if (ext == "xlsx" || ext == "xlsm") return DocumentType::kXlsx;
        if (ext == "odt") return DocumentType::kOdt;
        return DocumentType::kUnknown;
    }
    const auto& zip = *reader.value();
    if (zip.has("word/document.xml")) return DocumentType::kDocx;
    if (zip.has("ppt/presentation.xml")) return DocumentType::kPptx;
    if (zip.has("xl/workbook.xml")) return DocumentType::kXlsx;
    if (zip.has("mimetype") && zip.has("content.xml")) {
        auto mime = zip.read("mimetype");
        if (mime && mime.value().find("opendocument.text") != std::string::npos) {
            return DocumentType::kOdt;
        }
    }
    return DocumentType::kUnknown;
}

DocumentType ole2Type(const std::string& path) {
    // Directory entry names are UTF-16LE; an encrypted OOXML package is stored as the stream
    // "EncryptedPackage" next to "EncryptionInfo".
    static const std::string encrypted_name = [] {
        std::string n;
        for (char c : std::string("EncryptedPackage")) {
            n += c;
            n += '\0';
        }
        return n;
    }();
    auto bytes = readFileBounded(path, std::size_t{64} * 1024 * 1024);
    if (bytes && bytes.value().find(encrypted_name) != std::string::npos) {
        return DocumentType::kEncryptedOffice;
    }
    return DocumentType::kLegacyOffice;
}

bool looksLikeMail(const std::string& text) {
    static const char* mail_headers[] = {
        "from:",         "to:",       "subject:",     "date:", "message-id:",
        "mime-version:", "received:", "return-path:", "cc:",   "reply-to:"};
    int known = 0;
    std::size_t pos = 0;
    for (int line = 0; line < 40 && pos < text.size(); ++line) {
        auto end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string l = text.substr(pos, end - pos);
        if (!l.empty() && l.back() == '\r') l.pop_back();
        pos = end + 1;
        if (l.empty()) break;
        if (l[0] == ' ' || l[0] == '\t') continue;  // folded header line
        auto colon = l.find(':');
        if (colon == std::string::npos || colon == 0 || l.find(' ') < colon) return false;
        for (const char* h : mail_headers) {
            if (startsWithNoCase(l, 0, h)) ++known;
        }
    }
    return known >= 2;
}

bool looksLikeHtml(const std::string& text) {
    std::size_t i = text.find_first_not_of(" \t\r\n");
    if (i == std::string::npos) return false;
    for (const char* tag : {"<!doctype html", "<html", "<head", "<body", "<!--"}) {
        if (startsWithNoCase(text, i, tag)) {
            return std::string(tag) != "<!--" || toLower(text).find("<html") != std::string::npos;
        }
    }
    return false;
}

bool looksLikeText(const std::string& head) {
    if (head.find('\0') != std::string::npos) return false;
    // A multi-byte sequence may be cut at the end of the sniffed head.
    std::string trimmed = head.size() > 4 ? head.substr(0, head.size() - 4) : head;
    if (common::isValidUtf8(trimmed)) return true;
    auto control = std::count_if(head.begin(), head.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return u < 0x20 && u != '\n' && u != '\r' && u != '\t' && u != '\f';
    });
    return control * 100 < static_cast<long>(head.size());
}

DocumentType textType(const std::string& text, const std::string& ext, const std::string& ct) {
    if (text.compare(0, 5, "{\\rtf") == 0) return DocumentType::kRtf;
    if (ext == "eml" || ct == "message/rfc822" || looksLikeMail(text)) {
        if (looksLikeMail(text)) return DocumentType::kEml;
    }
    if (ext == "html" || ext == "htm" || ext == "xhtml" || ct == "text/html" ||
        looksLikeHtml(text)) {
        if (looksLikeHtml(text) || ext == "html" || ext == "htm") return DocumentType::kHtml;
    }
    if (ext == "csv" || ct == "text/csv") return DocumentType::kCsv;
    if (ext == "md" || ext == "markdown" || ct == "text/markdown") return DocumentType::kMd;
    return DocumentType::kTxt;
}

}  // namespace

DocumentType sniff(const std::string& path, const std::string& declared_content_type,
                   const std::string& filename) {
    try {
        std::string ext = extensionOf(filename.empty() ? path : filename);
        std::string ct = toLower(declared_content_type.substr(0, declared_content_type.find(';')));
        std::ifstream in(path, std::ios::binary);
        std::string head(kHeadBytes, '\0');
        if (in) in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(in ? head.size()
                       : static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
        if (head.find("%PDF-") < 1024) return DocumentType::kPdf;
        if (head.empty() || ext == "pdf" || ct == "application/pdf") {
            // Empty or damaged PDFs go to the PDF parser, which reports them unreadable.
            if (ext == "pdf" || ct == "application/pdf") return DocumentType::kPdf;
        }
        if (head.compare(0, 4, "PK\x03\x04", 4) == 0) return zipType(path, ext);
        if (head.compare(0, 8, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) == 0) return ole2Type(path);
        if (head.compare(0, 2, "\xFF\xFE", 2) == 0 || head.compare(0, 2, "\xFE\xFF", 2) == 0) {
            return textType(decodeText(head.substr(0, head.size() & ~std::size_t{1})), ext, ct);
        }
        std::string body = head.compare(0, 3, "\xEF\xBB\xBF", 3) == 0 ? head.substr(3) : head;
        if (body.compare(0, 5, "{\\rtf") == 0) return DocumentType::kRtf;
        if (!looksLikeText(body)) return DocumentType::kUnknown;
        return textType(body, ext, ct);
    } catch (const std::exception&) {
        return DocumentType::kUnknown;
    }
}

}  // namespace docintel::ingest
