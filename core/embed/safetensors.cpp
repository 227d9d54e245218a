#include "embed/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

namespace docintel::embed {

namespace {

plugin::Error unreadable(const std::string& path, const std::string& why) {
    return {"model_unreadable", "cannot read model weights " + path + ": " + why, 500};
}

}  // namespace

plugin::Result<std::unique_ptr<SafetensorsFile>> SafetensorsFile::open(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return unreadable(path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return unreadable(path, std::strerror(errno));
    }
    auto size = static_cast<size_t>(st.st_size);
    if (size < 8) {
        ::close(fd);
        return unreadable(path, "file too short");
    }
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return unreadable(path, std::strerror(errno));

    std::unique_ptr<SafetensorsFile> file(new SafetensorsFile());
    file->path_ = path;
    file->map_ = map;
    file->size_ = size;
    const auto* bytes = static_cast<const uint8_t*>(map);
    uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | bytes[i];
    if (header_len > size - 8) return unreadable(path, "header length beyond end of file");
    file->data_ = bytes + 8 + header_len;
    file->data_size_ = size - 8 - header_len;

    nlohmann::json header = nlohmann::json::parse(reinterpret_cast<const char*>(bytes + 8),
                                                  reinterpret_cast<const char*>(file->data_),
                                                  nullptr, /*allow_exceptions=*/false);
    if (!header.is_object()) return unreadable(path, "header is not a JSON object");
    for (const auto& [name, info] : header.items()) {
        if (name == "__metadata__") continue;
        if (!info.is_object() || !info.contains("dtype") || !info.contains("shape") ||
            !info.contains("data_offsets") || !info["data_offsets"].is_array() ||
            info["data_offsets"].size() != 2) {
            return unreadable(path, "bad header entry for " + name);
        }
        Entry e;
        e.dtype = info["dtype"].get<std::string>();
        e.shape = info["shape"].get<std::vector<int64_t>>();
        e.begin = info["data_offsets"][0].get<size_t>();
        e.end = info["data_offsets"][1].get<size_t>();
        if (e.begin > e.end || e.end > file->data_size_) {
            return unreadable(path, "data range out of bounds for " + name);
        }
        file->entries_.emplace(name, std::move(e));
    }
    return file;
}

SafetensorsFile::~SafetensorsFile() {
    if (map_ != nullptr) ::munmap(map_, size_);
}

plugin::Result<TensorView> SafetensorsFile::tensor(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
        return plugin::Error{"model_tensor_missing", path_ + " has no tensor " + name, 500};
    }
    const Entry& e = it->second;
    if (e.dtype != "F32") {
        return plugin::Error{"model_dtype_unsupported",
                             "tensor " + name + " in " + path_ + " is " + e.dtype +
                                 "; only F32 weights are supported",
                             500};
    }
    TensorView view;
    view.shape = e.shape;
    if (view.elements() * sizeof(float) != e.end - e.begin) {
        return unreadable(path_, "size of " + name + " does not match its shape");
    }
    if (reinterpret_cast<uintptr_t>(data_ + e.begin) % alignof(float) != 0) {
        return unreadable(path_, "tensor " + name + " is not 4-byte aligned");
    }
    view.data = reinterpret_cast<const float*>(data_ + e.begin);
    return view;
}

void SafetensorsFile::release(const float* data, size_t count) const {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
    const auto end = reinterpret_cast<uintptr_t>(data + count) / page * page;
    if (end > begin) {
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
    }
}

}  // namespace docintel::embed
