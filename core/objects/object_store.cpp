#include "objects/object_store.h"

#include <openssl/evp.h>

#include <array>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/digest.h"
#include "common/id.h"

namespace docintel::objects {
namespace {

namespace fs = std::filesystem;

}  // namespace

plugin::Result<ObjectInfo> stageStream(std::istream& in, std::int64_t expected_size,
                                       const std::string& path, const std::string& content_type) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return plugin::Error::internal("cannot write object");
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    std::array<char, 1 << 16> buf{};
    std::int64_t total = 0;
    while (in && total <= expected_size) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const auto n = in.gcount();
        if (n <= 0) break;
        total += n;
        if (total > expected_size) break;
        EVP_DigestUpdate(ctx, buf.data(), static_cast<std::size_t>(n));
        out.write(buf.data(), n);
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_len = 0;
    EVP_DigestFinal_ex(ctx, digest, &digest_len);
    EVP_MD_CTX_free(ctx);
    out.close();
    if (total != expected_size || !out) {
        std::error_code ec;
        fs::remove(path, ec);
        return plugin::Error::badRequest(
            "size_mismatch", "the body has " +
                                 std::string(total > expected_size ? "more" : "fewer") +
                                 " bytes than the signed size " + std::to_string(expected_size));
    }
    return ObjectInfo{
        total, common::toHex(std::string_view(reinterpret_cast<const char*>(digest), digest_len)),
        content_type};
}

LocalObjectStore::LocalObjectStore(std::string root) : root_(std::move(root)) {
    fs::create_directories(root_);
}

bool LocalObjectStore::validKey(const std::string& key) {
    if (key.empty() || key.size() > 1024 || key.front() == '/' ||
        key.find('\0') != std::string::npos || key.find('\\') != std::string::npos) {
        return false;
    }
    for (const auto& part : fs::path(key)) {
        if (part == ".." || part == "." || part.empty()) return false;
    }
    return true;
}

std::string LocalObjectStore::localPath(const std::string& key) const {
    if (!validKey(key)) return {};
    const fs::path p = fs::path(root_) / key;
    return fs::exists(p) ? p.string() : std::string();
}

plugin::Result<ObjectInfo> LocalObjectStore::put(const std::string& key, std::istream& in,
                                                 std::int64_t expected_size,
                                                 const std::string& content_type) {
    if (!validKey(key)) return plugin::Error::badRequest("invalid_key", "invalid object key");
    const fs::path target = fs::path(root_) / key;
    fs::create_directories(target.parent_path());
    const fs::path tmp = target.string() + ".upload-" + common::randomToken(6);
    auto staged = stageStream(in, expected_size, tmp.string(), content_type);
    if (!staged) return staged.error();
    const ObjectInfo info = *staged;
    std::ofstream meta(target.string() + ".meta", std::ios::trunc);
    meta << nlohmann::json{{"size", info.size},
                           {"sha256", info.sha256},
                           {"content_type", info.content_type}}
                .dump();
    meta.close();
    fs::rename(tmp, target);
    return info;
}

std::optional<ObjectInfo> LocalObjectStore::stat(const std::string& key) const {
    if (!validKey(key)) return std::nullopt;
    const fs::path target = fs::path(root_) / key;
    std::ifstream meta(target.string() + ".meta");
    if (!meta || !fs::exists(target)) return std::nullopt;
    try {
        const auto j = nlohmann::json::parse(meta);
        ObjectInfo info{j.at("size").get<std::int64_t>(), j.at("sha256").get<std::string>(),
                        j.value("content_type", "")};
        if (static_cast<std::int64_t>(fs::file_size(target)) != info.size) return std::nullopt;
        return info;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool LocalObjectStore::remove(const std::string& key) {
    if (!validKey(key)) return false;
    const fs::path target = fs::path(root_) / key;
    std::error_code ec;
    const bool removed = fs::remove(target, ec);
    fs::remove(target.string() + ".meta", ec);
    // Drop the per-document folder when it is empty.
    fs::remove(target.parent_path(), ec);
    return removed;
}

std::size_t LocalObjectStore::removePrefix(const std::string& prefix) {
    if (prefix.empty() || prefix.back() != '/' || !validKey(prefix.substr(0, prefix.size() - 1))) {
        return 0;
    }
    const fs::path folder = fs::path(root_) / prefix.substr(0, prefix.size() - 1);
    std::error_code ec;
    std::size_t objects = 0;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() != ".meta") ++objects;
    }
    fs::remove_all(folder, ec);
    return objects;
}

}  // namespace docintel::objects
