#include "ingest/ocr.h"

#include <tesseract/baseapi.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "ingest/ocr_text.h"
#include "ingest/parser.h"

namespace docintel::ingest {

namespace {

std::string tessdataDir() {
    if (const char* env = std::getenv("TESSDATA_PREFIX"); env != nullptr && *env != '\0') {
        return env;
    }
    for (const char* dir :
         {"/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
          "/usr/share/tessdata", "/usr/local/share/tessdata"}) {
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::path(dir) / "eng.traineddata", ec)) return dir;
    }
    return {};
}

}  // namespace

plugin::Result<std::string> recognizeText(const GrayImage& image) {
    if (image.data == nullptr || image.width <= 0 || image.height <= 0) return std::string();
    auto api = std::make_unique<tesseract::TessBaseAPI>();
    std::string dir = tessdataDir();
    if (api->Init(dir.empty() ? nullptr : dir.c_str(), "eng", tesseract::OEM_LSTM_ONLY) != 0) {
        return Error{"ocr_unavailable", "OCR is not available on this server", 503};
    }
    api->SetPageSegMode(tesseract::PSM_AUTO);
    api->SetImage(image.data, image.width, image.height, 1, image.stride);
    api->SetSourceResolution(image.dpi);
    std::unique_ptr<char[]> text(api->GetUTF8Text());
    api->End();
    return text ? correctedOcrText(text.get()) : std::string();
}

}  // namespace docintel::ingest
