#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::engine {

/// Turns a packet template and its data into a PDF: mustache → HTML → wkhtmltopdf (the Debian
/// CLI, run as a subprocess with QT_QPA_PLATFORM=offscreen, so no X server is needed). The
/// HTML goes in on stdin with local file access and JavaScript off, so packet content cannot
/// make the renderer read files. Errors: template_error (422), renderer_unavailable (503) when
/// wkhtmltopdf is missing, render_failed (500) when it fails or runs past the timeout.
/// Thread-safe (each call has its own temporary directory).
class PacketRenderer {
  public:
    explicit PacketRenderer(std::string work_dir, std::string binary = "wkhtmltopdf",
                            int timeout_seconds = 60)
        : work_dir_(std::move(work_dir)),
          binary_(std::move(binary)),
          timeout_seconds_(timeout_seconds) {}

    plugin::Result<std::string> html(const std::string& tmpl, const nlohmann::json& data) const;
    /// The PDF bytes of `html`.
    plugin::Result<std::string> pdf(const std::string& html) const;

  private:
    const std::string work_dir_;
    const std::string binary_;
    const int timeout_seconds_;
};

}  // namespace docintel::engine
