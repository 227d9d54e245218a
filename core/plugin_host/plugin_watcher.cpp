#include "plugin_host/plugin_watcher.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <set>
#include <utility>
#include <vector>

#include "common/log.h"

namespace docintel::plugin_host {

using common::LogLevel;

PluginWatcher::PluginWatcher(PluginLoader& loader, std::string dir, int poll_interval_ms)
    : loader_(loader), dir_(std::move(dir)), poll_interval_ms_(std::max(poll_interval_ms, 10)) {}

PluginWatcher::~PluginWatcher() { stop(); }

void PluginWatcher::start() {
    if (thread_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = false;
    }
    thread_ = std::thread([this] { run(); });
    common::log(LogLevel::kInfo, "plugin_watcher_started",
                {{"path", dir_}, {"poll_interval_ms", std::to_string(poll_interval_ms_)}});
}

void PluginWatcher::stop() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t PluginWatcher::polls() const {
    std::lock_guard lock(mutex_);
    return polls_;
}

void PluginWatcher::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        // The thread must survive anything one poll does; the loader itself never throws.
        try {
            pollOnce();
        } catch (const std::exception& e) {
            common::log(LogLevel::kError, "plugin_watcher_poll_failed", {{"reason", e.what()}});
        } catch (...) {
            common::log(LogLevel::kError, "plugin_watcher_poll_failed", {{"reason", "unknown"}});
        }
        lock.lock();
        ++polls_;
        wake_.wait_for(lock, std::chrono::milliseconds(poll_interval_ms_),
                       [this] { return stopping_; });
    }
}

void PluginWatcher::pollOnce() {
    std::error_code ec;
    std::vector<std::string> files;
    for (std::filesystem::directory_iterator it(dir_, ec), end; !ec && it != end;
         it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.empty() || name[0] == '.' || it->path().extension() != ".so") continue;
        files.push_back(it->path().string());
    }
    if (ec) {
        if (!dir_missing_logged_) {
            common::log(LogLevel::kWarning, "plugin_dir_unreadable",
                        {{"path", dir_}, {"reason", ec.message()}});
            dir_missing_logged_ = true;
        }
        candidates_.clear();
        return;
    }
    dir_missing_logged_ = false;
    std::sort(files.begin(), files.end());

    std::set<std::string> present;
    for (const auto& file : files) {
        const auto identity = identifyPluginFile(file);
        if (!identity) continue;
        present.insert(identity->path);
        if (loader_.attempted(*identity)) {
            candidates_.erase(identity->path);
            continue;
        }
        auto& candidate = candidates_[identity->path];
        if (candidate.identity == *identity) {
            ++candidate.stable_polls;
        } else {
            candidate = {*identity, 1};
        }
        if (candidate.stable_polls >= 2) {
            candidates_.erase(identity->path);
            common::log(LogLevel::kInfo, "plugin_detected", {{"path", identity->path}});
            (void)loader_.loadFile(identity->path);  // refusals are logged and recorded
        }
    }
    std::erase_if(candidates_, [&](const auto& entry) { return !present.count(entry.first); });
}

}  // namespace docintel::plugin_host
