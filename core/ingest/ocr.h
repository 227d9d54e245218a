#pragma once

#include <cstdint>
#include <string>

#include "plugin_api/result.h"

namespace docintel::ingest {

/// An 8-bit grayscale image, row-major, `stride` bytes a row.
struct GrayImage {
    const std::uint8_t* data = nullptr;
    int width = 0;
    int height = 0;
    int stride = 0;
    int dpi = 300;
};

/// Recognises English text in `image` with Tesseract (LSTM). The language data is looked up in
/// TESSDATA_PREFIX when set, else in the Debian tesseract-ocr data folders. Returns the text
/// with paragraphs separated by blank lines and known misreadings put right (ocr_text.h);
/// unreadable_document if Tesseract cannot start.
/// Thread-safe (one engine a call).
plugin::Result<std::string> recognizeText(const GrayImage& image);

}  // namespace docintel::ingest
