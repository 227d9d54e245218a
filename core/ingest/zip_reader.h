#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "plugin_api/result.h"

namespace Poco::Zip {  // NOLINT(readability-identifier-naming)
class ZipArchive;
}

namespace docintel::ingest {

/// Largest package part (inflated) a parser reads into memory.
inline constexpr std::size_t kMaxXmlPartBytes = std::size_t{64} * 1024 * 1024;

/// Read-only view of a ZIP package (OOXML, ODF) that inflates one entry at a time with a size
/// cap. Owns the open file. Not thread-safe.
class ZipReader {
  public:
    /// unreadable_document when the file is not a readable ZIP.
    static plugin::Result<std::unique_ptr<ZipReader>> open(const std::string& path);
    ~ZipReader();

    std::vector<std::string> entryNames() const;
    bool has(const std::string& name) const;
    /// The inflated entry; unreadable_document when it is missing, damaged or larger than
    /// `max_bytes` (the default suits parts parsed into a DOM, which takes several times more).
    plugin::Result<std::string> read(const std::string& name,
                                     std::size_t max_bytes = kMaxXmlPartBytes) const;

  private:
    ZipReader() = default;
    std::string path_;
    std::unique_ptr<Poco::Zip::ZipArchive> archive_;
};

}  // namespace docintel::ingest
