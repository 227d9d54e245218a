#pragma once

#include <string>

#include "ingest/parser.h"

namespace docintel::ingest {

/// Reads a PDF with poppler one page at a time and hands each page to `on_page`; only one
/// page's text is held at once. Pages without a text layer are rendered at 300 dpi and read
/// with OCR (Page::ocr). Errors: encrypted_document when the file needs a user password,
/// unreadable_document when poppler cannot open or recover it. Never throws.
Status parsePdf(const std::string& path, const PageSink& on_page, std::string* title = nullptr);

}  // namespace docintel::ingest
