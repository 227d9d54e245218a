#pragma once

// The fixture of the tests that run a vertical plugin end to end: one TestServer per suite with
// the plugin loaded from the build's plugin folder, and one reviewer holding every scope.
// Header-only: DOCINTEL_PLUGIN_OUTPUT_DIR is defined for those tests (docintel_add_plugin_test).

#include <gtest/gtest.h>

#include <string>

#include "support/test_server.h"

namespace docintel::test {

class PluginSuite : public ::testing::Test {
  protected:
    /// Starts the suite's server with `plugin` (healthcare, lease, ...) and the user `email`.
    static void startServer(const std::string& plugin, const std::string& email) {
        TestServer::Options options;
        options.plugins = {std::string(DOCINTEL_PLUGIN_OUTPUT_DIR) + "/" + plugin + ".so"};
        server_ = new TestServer(options);
        user_ = server_->createUser(email);
        token_ = server_->token(user_, TestServer::allScopes());
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    /// Uploads a PDF of the test data through the direct-upload API; returns its id.
    static std::string uploadPdf(const std::string& path, const std::string& token = token_) {
        return server_->uploadDocument(token, path.substr(path.rfind('/') + 1), "application/pdf",
                                       readFile(path));
    }

    /// GETs a run until it has left `running` (pending_review or failed).
    static nlohmann::json waitForRun(const std::string& run_path) {
        return server_->pollStatus(run_path, token_, {"pending_review", "failed"});
    }

    inline static TestServer* server_ = nullptr;
    inline static std::string user_;
    inline static std::string token_;
};

}  // namespace docintel::test
