#include "ingest/parser.h"

#include "ingest/email_parser.h"
#include "ingest/html_parser.h"
#include "ingest/ooxml_parser.h"
#include "ingest/pdf_parser.h"
#include "ingest/rtf_parser.h"
#include "ingest/text_parser.h"

namespace docintel::ingest {

Error encryptedError(const std::string& what) { return Error{kEncryptedDocument, what, 422}; }
Error unreadableError(const std::string& what) { return Error{kUnreadableDocument, what, 422}; }
Error unsupportedError(const std::string& what) { return Error{kUnsupportedType, what, 415}; }

namespace {

Result<ParsedDocument> parseWhole(const std::string& path, DocumentType type) {
    switch (type) {
        case DocumentType::kDocx:
            return parseDocx(path);
        case DocumentType::kOdt:
            return parseOdt(path);
        case DocumentType::kHtml:
            return parseHtml(path);
        case DocumentType::kEml:
            return parseEmail(path);
        case DocumentType::kTxt:
        case DocumentType::kMd:
        case DocumentType::kCsv:
            return parseText(path, type);
        case DocumentType::kRtf:
            return parseRtf(path);
        case DocumentType::kEncryptedOffice:
            return encryptedError("the Office document is protected by a password");
        case DocumentType::kLegacyOffice:
            return unsupportedError(
                "legacy Office files (.doc, .xls, .ppt, .msg) are not supported");
        default:
            return unsupportedError("this file type is not supported");
    }
}

Status streamed(const std::string& path, DocumentType type, const PageSink& on_page,
                std::string* title) {
    switch (type) {
        case DocumentType::kPdf:
            return parsePdf(path, on_page, title);
        case DocumentType::kPptx:
            return parsePptx(path, on_page);
        case DocumentType::kXlsx:
            return parseXlsx(path, on_page);
        default:
            break;
    }
    auto doc = parseWhole(path, type);
    if (!doc) return doc.error();
    if (title != nullptr) *title = doc.value().title;
    for (auto& page : doc.value().pages) {
        if (auto st = on_page(std::move(page)); !st) return st;
    }
    return {};
}

}  // namespace

Status parseFilePages(const std::string& path, DocumentType type, const PageSink& on_page,
                      std::string* title) {
    try {
        return streamed(path, type, on_page, title);
    } catch (const std::exception&) {
        return unreadableError("the document cannot be read");
    }
}

Result<ParsedDocument> parseFile(const std::string& path, DocumentType type) {
    ParsedDocument doc;
    doc.doc_type_hint = toString(type);
    auto st = parseFilePages(
        path, type,
        [&](Page&& page) -> Status {
            doc.pages.push_back(std::move(page));
            return {};
        },
        &doc.title);
    if (!st) return st.error();
    if (doc.pages.empty()) doc.pages.push_back(Page{});
    if (doc.title.empty()) {
        for (const auto& page : doc.pages) {
            for (const auto& b : page.blocks) {
                if (b.kind == Block::Kind::kHeading && doc.title.empty()) doc.title = b.text;
            }
        }
    }
    return doc;
}

}  // namespace docintel::ingest
