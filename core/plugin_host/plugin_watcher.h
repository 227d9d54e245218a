#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "plugin_host/plugin_loader.h"

namespace docintel::plugin_host {

/// Loads plugins dropped into a directory while the server runs.
///
/// A background thread lists `dir` every `poll_interval_ms` (the first listing happens at
/// once). A `*.so` file (names starting with '.' are skipped) is handed to the loader once
/// its size and mtime are the same in two consecutive polls, so a file still being copied is
/// not opened. Each file version (path, mtime, size) is attempted at most once, counting
/// attempts made directly through the loader (e.g. `loadDirectory` at start-up); a changed
/// file is a new version and is attempted again (the loader refuses it when its name is
/// already loaded or the path was opened before). A missing directory is not an error: it is
/// watched until it appears.
///
/// Thread-safety: `start`, `stop` and the destructor may be called from any thread but not
/// concurrently with each other. The loader must outlive the watcher.
class PluginWatcher {
  public:
    PluginWatcher(PluginLoader& loader, std::string dir, int poll_interval_ms = 1000);
    ~PluginWatcher();

    PluginWatcher(const PluginWatcher&) = delete;
    PluginWatcher& operator=(const PluginWatcher&) = delete;

    /// Starts the polling thread; does nothing when it already runs.
    void start();

    /// Stops and joins the polling thread promptly (it wakes from its wait at once); does
    /// nothing when it is not running.
    void stop();

    /// Number of completed directory listings; lets a caller wait for the watcher to have
    /// seen a change without sleeping blindly.
    std::uint64_t polls() const;

  private:
    struct Candidate {
        PluginFileIdentity identity;
        int stable_polls = 0;
    };

    void run();
    void pollOnce();

    PluginLoader& loader_;
    const std::string dir_;
    const int poll_interval_ms_;

    std::thread thread_;
    mutable std::mutex mutex_;  // guards stopping_ and polls_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::uint64_t polls_ = 0;

    // Touched only by the polling thread.
    std::map<std::string, Candidate> candidates_;  // by absolute path
    bool dir_missing_logged_ = false;
};

}  // namespace docintel::plugin_host
