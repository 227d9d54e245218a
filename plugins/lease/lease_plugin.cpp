// The lease vertical: lease_intelligence, its step implementations and its run routes under
// /api/v1/verticals/lease/.
#include <map>
#include <string_view>

#include "lease_steps.h"
#include "plugin_api/plugin.h"
#include "shared/vertical_routes.h"

namespace docintel::lease_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace {

class LeasePlugin final : public docintel::plugin::Plugin {
  public:
    void registerWith(docintel::plugin::Registrar& registrar,
                      docintel::plugin::HostServices& host) override {
        docintel::lease::registerLeaseSteps(registrar, host);
        std::vector<std::string> names;
        for (const auto& [file, text] : docintel::lease_files::embeddedFiles()) {
            const auto definition = nlohmann::json::parse(text);
            names.push_back(definition.at("name").get<std::string>());
            registrar.addWorkflow(definition);
        }
        docintel::plugins::addVerticalRunRoutes(registrar, host, "lease", names);
        host.log("lease", "info", "registered");
    }
};

}  // namespace

DOCINTEL_PLUGIN(LeasePlugin, "lease", "1.0.0")
