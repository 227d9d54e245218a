#include "ingest/zip_reader.h"

#include <Poco/Zip/ZipArchive.h>
#include <Poco/Zip/ZipStream.h>

#include <fstream>

#include "ingest/parser.h"
#include "ingest/text_util.h"

namespace docintel::ingest {

ZipReader::~ZipReader() = default;

plugin::Result<std::unique_ptr<ZipReader>> ZipReader::open(const std::string& path) {
    try {
        std::ifstream in(path, std::ios::binary);
        if (!in) return unreadableError("the file cannot be opened");
        std::unique_ptr<ZipReader> reader(new ZipReader());
        reader->path_ = path;
        reader->archive_ = std::make_unique<Poco::Zip::ZipArchive>(in);
        return reader;
    } catch (const std::exception&) {
        return unreadableError("the ZIP package is damaged");
    }
}

std::vector<std::string> ZipReader::entryNames() const {
    std::vector<std::string> names;
    for (auto it = archive_->headerBegin(); it != archive_->headerEnd(); ++it) {
        names.push_back(it->first);
    }
    return names;
}

bool ZipReader::has(const std::string& name) const {
    return archive_->findHeader(name) != archive_->headerEnd();
}

plugin::Result<std::string> ZipReader::read(const std::string& name, std::size_t max_bytes) const {
    try {
        auto it = archive_->findHeader(name);
        if (it == archive_->headerEnd()) return unreadableError("a package part is missing");
        if (it->second.getUncompressedSize() > max_bytes) {
            return unreadableError("a package part is too large");
        }
        std::ifstream in(path_, std::ios::binary);
        Poco::Zip::ZipInputStream zin(in, it->second, true);
        std::string data;
        char buf[65536];
        while (zin.read(buf, sizeof buf) || zin.gcount() > 0) {
            data.append(buf, static_cast<std::size_t>(zin.gcount()));
            if (data.size() > max_bytes) {
                return unreadableError("a package part is too large");
            }
        }
        return data;
    } catch (const std::exception&) {
        return unreadableError("a package part is damaged");
    }
}

}  // namespace docintel::ingest
