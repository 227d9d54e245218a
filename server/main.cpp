// docintel-server: REST (and later MCP) API, OAuth and job workers in one process, or split
// across processes with --role api|worker|all.

#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/ServerApplication.h>

#include <iostream>

#include "common/log.h"
#include "server/app.h"

namespace {

class ServerMain final : public Poco::Util::ServerApplication {
  protected:
    void defineOptions(Poco::Util::OptionSet& options) override {
        ServerApplication::defineOptions(options);
        options.addOption(
            Poco::Util::Option("role", "", "api | worker | all (default all)")
                .required(false)
                .argument("ROLE")
                .callback(Poco::Util::OptionCallback<ServerMain>(this, &ServerMain::setRole)));
        options.addOption(
            Poco::Util::Option("help", "h", "show options")
                .required(false)
                .callback(Poco::Util::OptionCallback<ServerMain>(this, &ServerMain::showHelp)));
    }

    int main(const std::vector<std::string>&) override {
        if (help_) return Application::EXIT_OK;
        using docintel::common::log;
        using docintel::common::LogLevel;
        docintel::server::Config config;
        try {
            config = docintel::server::Config::fromEnvironment();
        } catch (const std::exception& e) {
            log(LogLevel::kError, "bad_configuration", {{"what", e.what()}});
            return Application::EXIT_CONFIG;
        }
        docintel::common::setLogLevel(
            docintel::common::parseLogLevel(config.log_level).value_or(LogLevel::kInfo));
        if (role_ != "api" && role_ != "worker" && role_ != "all") {
            log(LogLevel::kError, "bad_configuration",
                {{"what", "--role must be api, worker or all"}});
            return Application::EXIT_USAGE;
        }
        config.role = role_;
        docintel::server::App app(config);
        try {
            app.start();
        } catch (const std::exception& e) {
            log(LogLevel::kError, "start_failed", {{"what", e.what()}});
            return Application::EXIT_SOFTWARE;
        }
        waitForTerminationRequest();
        log(LogLevel::kInfo, "server_stopping");
        app.stop();
        log(LogLevel::kInfo, "server_stopped");
        return Application::EXIT_OK;
    }

  private:
    void setRole(const std::string&, const std::string& value) { role_ = value; }
    void showHelp(const std::string&, const std::string&) {
        Poco::Util::HelpFormatter formatter(options());
        formatter.setCommand(commandName());
        formatter.setUsage("[--role=api|worker|all]");
        formatter.format(std::cout);
        help_ = true;
        stopOptionsProcessing();
    }

    std::string role_ = "all";
    bool help_ = false;
};

}  // namespace

POCO_SERVER_MAIN(ServerMain)
