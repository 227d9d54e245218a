#pragma once

#include <string>
#include <utility>

#include "plugin_api/result.h"
#include "plugin_host/plugin_loader.h"

namespace docintel::plugin_host {

/// A private copy of a plugin file, opened by the dynamic loader instead of the dropped file.
///
/// The dynamic loader maps a library's file: a dropped file still being written (a copy stalled
/// under load) or later overwritten in place (`cp` onto a loaded plugin truncates it) would leave
/// pages past the file's end mapped, and touching them kills the process with SIGBUS. The copy
/// is taken only from a whole file (every loadable segment and the section header table inside
/// it: a linker writes the section headers last) that did not change while it was copied, and
/// nothing else writes to it. The copy is removed when this object goes; a library opened from
/// it keeps its mapping (and so its inode, which a later copy cannot reuse).
class PluginSnapshot {
  public:
    /// Copies the file `identity` names into the temp directory. Errors: file_unreadable,
    /// file_changing (it changed while copied: a later, stable version is loaded),
    /// incomplete_file (it ends before its own headers say; 422), internal_error (no copy could be
    /// made).
    static plugin::Result<PluginSnapshot> take(const PluginFileIdentity& identity);

    PluginSnapshot(PluginSnapshot&& other) noexcept;
    PluginSnapshot& operator=(PluginSnapshot&&) = delete;
    PluginSnapshot(const PluginSnapshot&) = delete;
    PluginSnapshot& operator=(const PluginSnapshot&) = delete;
    ~PluginSnapshot();

    const std::string& path() const { return path_; }

  private:
    explicit PluginSnapshot(std::string path) : path_(std::move(path)) {}
    std::string path_;
};

/// Empty when the ELF file at `path` holds everything its header points at (every PT_LOAD
/// segment's file bytes and the section header table); otherwise why not. Files that are not
/// 64-bit ELF pass: the dynamic loader refuses them with its own message.
std::string elfIncompleteness(const std::string& path);

}  // namespace docintel::plugin_host
