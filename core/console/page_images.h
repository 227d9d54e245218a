#pragma once

#include <string>
#include <vector>

#include "console/page_highlight.h"
#include "plugin_api/result.h"

namespace docintel::console {

/// Pages of PDF documents as PNG images for the console's evidence view, rendered by
/// poppler-cpp (the library the PDF parser uses) and cached on disk under `cache_dir`, named
/// by document id and page (a document's bytes never change, so the cache is never stale).
/// A render writes a temporary file and renames it into place, so concurrent requests for
/// one page are safe. Callers check the reader's access first. Thread-safe.
class PageImages {
  public:
    static constexpr int kDpi = 110;

    explicit PageImages(std::string cache_dir) : cache_dir_(std::move(cache_dir)) {}

    /// The PNG file of page `page` (1-based) of the PDF at `pdf_path`. Errors: `page_not_found`
    /// (404) for a page the document does not have or a file that is not a readable PDF.
    plugin::Result<std::string> png(const std::string& document_id, const std::string& pdf_path,
                                    int page) const;
    /// The words of page `page` with their boxes in percent of the page (upright pages only;
    /// a rotated page has none, so nothing is highlighted on it).
    plugin::Result<std::vector<PageWord>> words(const std::string& pdf_path, int page) const;

  private:
    std::string cache_dir_;
};

}  // namespace docintel::console
