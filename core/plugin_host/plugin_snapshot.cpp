#include "plugin_host/plugin_snapshot.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

namespace docintel::plugin_host {
namespace {

using plugin::Error;

// Copies `from` to the open descriptor `to`; false on any read or write failure.
bool copyInto(const std::string& from, int to) {
    std::ifstream in(from, std::ios::binary);
    if (!in) return false;
    std::vector<char> buffer(1 << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        for (std::size_t written = 0; written < got;) {
            const auto n = ::write(to, buffer.data() + written, got - written);
            if (n <= 0) return false;
            written += static_cast<std::size_t>(n);
        }
    }
    return in.eof();
}

}  // namespace

std::string elfIncompleteness(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "cannot be read";
    const auto size = static_cast<std::uint64_t>(in.tellg());
    Elf64_Ehdr header{};
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(&header), sizeof header) ||
        std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64) {
        return {};
    }
    const auto ends_past = [&](std::uint64_t offset, std::uint64_t length) {
        return offset > size || length > size - offset;
    };
    if (ends_past(header.e_shoff, std::uint64_t{header.e_shnum} * header.e_shentsize)) {
        return "the section header table ends past the file's " + std::to_string(size) + " bytes";
    }
    if (header.e_phentsize != sizeof(Elf64_Phdr) ||
        ends_past(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr))) {
        return "the program headers end past the file's " + std::to_string(size) + " bytes";
    }
    for (int i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment{};
        in.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof segment));
        if (!in.read(reinterpret_cast<char*>(&segment), sizeof segment)) return "cannot be read";
        if (segment.p_type == PT_LOAD && ends_past(segment.p_offset, segment.p_filesz)) {
            return "a loadable segment ends past the file's " + std::to_string(size) + " bytes";
        }
    }
    return {};
}

plugin::Result<PluginSnapshot> PluginSnapshot::take(const PluginFileIdentity& identity) {
    std::error_code ec;
    const auto pattern = (std::filesystem::temp_directory_path(ec) / "docintel-plugin-XXXXXX.so");
    if (ec) return Error::internal("no temp directory for the plugin's copy: " + ec.message());
    std::string path = pattern.string();
    const int fd = ::mkstemps(path.data(), 3);
    if (fd < 0) {
        return Error::internal(std::string("cannot create the plugin's copy: ") +
                               std::strerror(errno));
    }
    PluginSnapshot snapshot(path);
    const bool copied = copyInto(identity.path, fd);
    const bool closed = ::close(fd) == 0;
    if (!copied || !closed) {
        return Error{"file_unreadable", "the plugin file could not be copied", 404};
    }
    const auto after = identifyPluginFile(identity.path);
    if (!after || *after != identity) {
        return Error::conflict("file_changing",
                               "the plugin file changed while it was read; a stable version "
                               "is loaded when the watcher sees it");
    }
    if (const auto why = elfIncompleteness(path); !why.empty()) {
        return Error::unprocessable("incomplete_file",
                                    "the plugin file is incomplete (" + why +
                                        "); drop it whole, e.g. copy under another name and "
                                        "rename");
    }
    return snapshot;
}

PluginSnapshot::PluginSnapshot(PluginSnapshot&& other) noexcept
    : path_(std::exchange(other.path_, {})) {}

PluginSnapshot::~PluginSnapshot() {
    if (!path_.empty()) ::unlink(path_.c_str());
}

}  // namespace docintel::plugin_host
