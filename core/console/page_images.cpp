#include "console/page_images.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-image.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <poppler/cpp/poppler-page.h>

#include <filesystem>
#include <memory>
#include <mutex>

#include "common/id.h"

namespace docintel::console {
namespace {

void silencePoppler() {
    static std::once_flag once;
    std::call_once(
        once, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
}

plugin::Error noPage() { return plugin::Error{"page_not_found", "no such page", 404}; }

struct Opened {
    std::unique_ptr<poppler::document> document;
    std::unique_ptr<poppler::page> page;
};

plugin::Result<Opened> openPage(const std::string& pdf_path, int page) {
    silencePoppler();
    Opened o;
    o.document.reset(poppler::document::load_from_file(pdf_path));
    if (!o.document || o.document->is_locked() || page < 1 || page > o.document->pages()) {
        return noPage();
    }
    o.page.reset(o.document->create_page(page - 1));
    if (!o.page) return noPage();
    return o;
}

}  // namespace

plugin::Result<std::string> PageImages::png(const std::string& document_id,
                                            const std::string& pdf_path, int page) const {
    const std::string target =
        cache_dir_ + "/" + document_id + "-p" + std::to_string(page) + ".png";
    std::error_code ec;
    if (std::filesystem::exists(target, ec)) return target;
    auto opened = openPage(pdf_path, page);
    if (!opened) return opened.error();
    poppler::page_renderer renderer;
    renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
    renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
    renderer.set_image_format(poppler::image::format_rgb24);
    const poppler::image img = renderer.render_page(opened->page.get(), kDpi, kDpi);
    if (!img.is_valid()) return noPage();
    std::filesystem::create_directories(cache_dir_, ec);
    const std::string temp = target + "." + common::randomToken(8) + ".tmp";
    if (!img.save(temp, "png", kDpi)) {
        std::filesystem::remove(temp, ec);
        return plugin::Error::internal("the page image could not be written");
    }
    std::filesystem::rename(temp, target, ec);
    if (ec) return plugin::Error::internal("the page image could not be stored");
    return target;
}

plugin::Result<std::vector<PageWord>> PageImages::words(const std::string& pdf_path,
                                                        int page) const {
    auto opened = openPage(pdf_path, page);
    if (!opened) return opened.error();
    std::vector<PageWord> out;
    if (opened->page->orientation() != poppler::page::portrait) return out;
    const poppler::rectf frame = opened->page->page_rect(poppler::crop_box);
    if (frame.width() <= 0 || frame.height() <= 0) return out;
    for (const auto& box : opened->page->text_list()) {
        const auto bytes = box.text().to_utf8();
        const poppler::rectf r = box.bbox();
        out.push_back({std::string(bytes.begin(), bytes.end()),
                       {100.0 * (r.left() - frame.left()) / frame.width(),
                        100.0 * (r.top() - frame.top()) / frame.height(),
                        100.0 * r.width() / frame.width(), 100.0 * r.height() / frame.height()}});
    }
    return out;
}

}  // namespace docintel::console
