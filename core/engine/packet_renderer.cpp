#include "engine/packet_renderer.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "common/id.h"
#include "common/log.h"
#include "common/mustache.h"

extern char** environ;

namespace docintel::engine {
namespace {

namespace fs = std::filesystem;

/// Removes a directory tree when it goes out of scope.
struct TempDir {
    fs::path path;
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

}  // namespace

plugin::Result<std::string> PacketRenderer::html(const std::string& tmpl,
                                                 const nlohmann::json& data) const {
    return common::renderMustache(tmpl, data);
}

plugin::Result<std::string> PacketRenderer::pdf(const std::string& html) const {
    TempDir dir{fs::path(work_dir_) / ("render-" + common::newUuid())};
    std::error_code ec;
    fs::create_directories(dir.path, ec);
    if (ec) return plugin::Error::internal("cannot create the render directory");
    fs::permissions(dir.path, fs::perms::owner_all, ec);
    const fs::path in = dir.path / "packet.html";
    const fs::path out = dir.path / "packet.pdf";
    {
        std::ofstream f(in, std::ios::binary);
        f << html;
        if (!f) return plugin::Error::internal("cannot write the packet HTML");
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);

    std::vector<std::string> env_storage;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        if (kv.rfind("DISPLAY=", 0) == 0 || kv.rfind("QT_QPA_PLATFORM=", 0) == 0 ||
            kv.rfind("XDG_RUNTIME_DIR=", 0) == 0) {
            continue;
        }
        env_storage.push_back(kv);
    }
    env_storage.push_back("QT_QPA_PLATFORM=offscreen");
    env_storage.push_back("XDG_RUNTIME_DIR=" + dir.path.string());
    std::vector<char*> envp;
    for (auto& kv : env_storage) envp.push_back(kv.data());
    envp.push_back(nullptr);

    std::vector<std::string> args_storage = {binary_,
                                             "--quiet",
                                             "--encoding",
                                             "utf-8",
                                             "--disable-local-file-access",
                                             "--disable-javascript",
                                             "--page-size",
                                             "Letter",
                                             "-",
                                             out.string()};
    std::vector<char*> argv;
    for (auto& a : args_storage) argv.push_back(a.data());
    argv.push_back(nullptr);

    pid_t pid = 0;
    const int spawned =
        posix_spawnp(&pid, binary_.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        return plugin::Error::unavailable("renderer_unavailable",
                                          "the PDF renderer (wkhtmltopdf) is not installed");
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds_);
    int status = 0;
    while (true) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0) return plugin::Error::internal("lost the PDF renderer process");
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return plugin::Error::internal("the PDF renderer timed out");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        return plugin::Error::unavailable("renderer_unavailable",
                                          "the PDF renderer (wkhtmltopdf) is not installed");
    }
    // wkhtmltopdf exits 1 for warnings about resources it could not load; the PDF decides.
    std::ifstream pdf_in(out, std::ios::binary);
    std::stringstream bytes;
    bytes << pdf_in.rdbuf();
    const std::string pdf = bytes.str();
    if (pdf.size() < 5 || pdf.compare(0, 5, "%PDF-") != 0) {
        common::log(common::LogLevel::kError, "packet_render_failed",
                    {{"exit", std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1)}});
        return plugin::Error::internal("the PDF renderer produced no PDF");
    }
    return pdf;
}

}  // namespace docintel::engine
