#pragma once

#include <memory>
#include <string>

#include "support/child_process.h"

namespace docintel::test {

/// A real S3 server for a test: SeaweedFS (`weed mini`: master, volume, filer and S3 in one
/// process) built by server/scripts/fetch-seaweedfs.sh (`make e2e-deps`) and linked at
/// var/seaweedfs/weed. Listens on 127.0.0.1 only, every port chosen free and set explicitly,
/// telemetry off, with one S3 identity (kAccessKey/kSecretKey) so any other key is refused.
/// Waits until the S3 port answers; stopped when the object goes (and by the kernel if the
/// test dies). Throws std::runtime_error when it is not installed or does not start: a test
/// that needs it fails, never skips.
///
/// Not thread-safe; one owner.
class SeaweedServer {
  public:
    static constexpr const char* kAccessKey = "docintel-test";
    static constexpr const char* kSecretKey = "docintel-test-secret";
    static constexpr const char* kRegion = "us-east-1";

    SeaweedServer();
    ~SeaweedServer();
    SeaweedServer(const SeaweedServer&) = delete;
    SeaweedServer& operator=(const SeaweedServer&) = delete;

    /// The S3 endpoint, http://127.0.0.1:<port>.
    const std::string& endpoint() const { return endpoint_; }
    std::string logTail(std::size_t bytes = 4000) const { return process_->logTail(bytes); }

  private:
    std::string dir_;
    std::string endpoint_;
    std::unique_ptr<ChildProcess> process_;
};

}  // namespace docintel::test
