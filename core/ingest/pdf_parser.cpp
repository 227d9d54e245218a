#include "ingest/pdf_parser.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-image.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <poppler/cpp/poppler-page.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "ingest/ocr.h"
#include "ingest/pdf_layout.h"

namespace docintel::ingest {

namespace {

constexpr double kOcrDpi = 300.0;

void silencePoppler() {
    static std::once_flag once;
    std::call_once(
        once, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
}

std::string utf8(const poppler::ustring& s) {
    auto bytes = s.to_utf8();
    return std::string(bytes.begin(), bytes.end());
}

// A word box in the frame where its text runs left to right, top to bottom. poppler's
// rotation is in quarter turns clockwise.
Word upright(const poppler::rectf& r, int rotation, std::string text) {
    switch (rotation) {
        case 1:
            return Word{r.top(), -r.right(), r.bottom(), -r.left(), std::move(text)};
        case 2:
            return Word{-r.right(), -r.bottom(), -r.left(), -r.top(), std::move(text)};
        case 3:
            return Word{-r.bottom(), r.left(), -r.top(), r.right(), std::move(text)};
        default:
            return Word{r.left(), r.top(), r.right(), r.bottom(), std::move(text)};
    }
}

// Renders the page to grayscale and reads it with OCR into `builder`.
Status ocrPage(const poppler::page& page, BlockBuilder& builder) {
    poppler::page_renderer renderer;
    renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
    renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
    renderer.set_image_format(poppler::image::format_gray8);
    poppler::image img = renderer.render_page(&page, kOcrDpi, kOcrDpi);
    if (!img.is_valid() || img.format() != poppler::image::format_gray8) return {};
    GrayImage gray{reinterpret_cast<const std::uint8_t*>(img.const_data()), img.width(),
                   img.height(), img.bytes_per_row(), static_cast<int>(kOcrDpi)};
    auto text = recognizeText(gray);
    if (!text) return text.error();
    // Tesseract separates paragraphs with blank lines.
    const std::string& t = text.value();
    std::size_t pos = 0;
    while (pos < t.size()) {
        auto end = t.find("\n\n", pos);
        if (end == std::string::npos) end = t.size();
        builder.paragraph(t.substr(pos, end - pos));
        pos = end + 2;
    }
    return {};
}

}  // namespace

Status parsePdf(const std::string& path, const PageSink& on_page, std::string* title) {
    try {
        silencePoppler();
        std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(path));
        if (!doc) return unreadableError("the PDF is damaged and cannot be recovered");
        if (doc->is_locked() && !doc->unlock("", "")) {
            return encryptedError("the PDF is protected by a password");
        }
        if (doc->is_locked()) return encryptedError("the PDF is protected by a password");
        if (title != nullptr) *title = collapseWhitespace(utf8(doc->info_key("Title")));
        int count = doc->pages();
        if (count <= 0) return unreadableError("the PDF has no readable pages");
        BlockBuilder builder;
        for (int i = 0; i < count; ++i) {
            std::unique_ptr<poppler::page> page(doc->create_page(i));
            Page out;
            out.number = i + 1;
            if (page) {
                // Words by text direction, turned upright; the main direction is read first,
                // then rotated text (sidebars, labels) after it.
                std::array<std::vector<Word>, 4> by_rotation;
                for (const auto& box : page->text_list()) {
                    int rot = std::clamp(box.rotation(), 0, 3);
                    by_rotation[static_cast<std::size_t>(rot)].push_back(
                        upright(box.bbox(), rot, utf8(box.text())));
                }
                std::array<std::size_t, 4> order{0, 1, 2, 3};
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                    return by_rotation[a].size() > by_rotation[b].size();
                });
                for (std::size_t rot : order) layoutWords(std::move(by_rotation[rot]), builder);
                if (builder.empty()) {
                    auto st = ocrPage(*page, builder);
                    if (!st) return st;
                    out.ocr = true;
                }
            }
            out.blocks = builder.take();
            if (auto st = on_page(std::move(out)); !st) return st;
        }
        return {};
    } catch (const std::bad_alloc&) {
        return unreadableError("the PDF is too large to read");
    } catch (const std::exception&) {
        return unreadableError("the PDF cannot be read");
    }
}

}  // namespace docintel::ingest
