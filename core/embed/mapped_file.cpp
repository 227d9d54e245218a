#include "embed/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace docintel::embed {

plugin::Error weightsUnreadable(const std::string& path, const std::string& why) {
    return {"model_unreadable", "cannot read model weights " + path + ": " + why, 500};
}

plugin::Result<MappedFile> MappedFile::open(const std::string& path, std::size_t min_size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return weightsUnreadable(path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int error = errno;
        ::close(fd);
        return weightsUnreadable(path, std::strerror(error));
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size < min_size) {
        ::close(fd);
        return weightsUnreadable(path, "file too short");
    }
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int error = errno;
    ::close(fd);
    if (map == MAP_FAILED) return weightsUnreadable(path, std::strerror(error));
    MappedFile file;
    file.map_ = map;
    file.size_ = size;
    return file;
}

MappedFile::~MappedFile() {
    if (map_ != nullptr) ::munmap(map_, size_);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : map_(std::exchange(other.map_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        if (map_ != nullptr) ::munmap(map_, size_);
        map_ = std::exchange(other.map_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void MappedFile::release(const void* from, std::size_t bytes) const {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto start = reinterpret_cast<std::uintptr_t>(from);
    const auto begin = (start + page - 1) / page * page;
    const auto end = (start + bytes) / page * page;
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace docintel::embed
