#include "common/secret_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/id.h"

namespace docintel::common {

std::string readOrCreateSecret(const std::string& path, const std::function<std::string()>& make) {
    namespace fs = std::filesystem;
    if (!fs::exists(path)) {
        fs::create_directories(fs::path(path).parent_path());
        // Written whole under a name of its own, then linked into place: link() fails when
        // another process got there first, and then its secret is the one everybody reads.
        const std::string tmp = path + ".tmp." + randomToken(8);
        {
            const mode_t old_mask = ::umask(077);
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            ::umask(old_mask);
            out << make();
            if (!out) throw std::runtime_error("cannot write " + tmp);
        }
        const int linked = ::link(tmp.c_str(), path.c_str());
        const int error = errno;
        fs::remove(tmp);
        if (linked != 0 && error != EEXIST) throw std::runtime_error("cannot create " + path);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

}  // namespace docintel::common
