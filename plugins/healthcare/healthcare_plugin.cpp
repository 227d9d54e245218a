// The healthcare vertical: the prior authorization and clinical workflows, their step
// implementations and their run routes under /api/v1/verticals/healthcare/.
#include <map>
#include <string_view>

#include "clinical_steps.h"
#include "plugin_api/plugin.h"
#include "prior_auth_steps.h"
#include "shared/vertical_routes.h"

namespace docintel::healthcare_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace {

class HealthcarePlugin final : public docintel::plugin::Plugin {
  public:
    void registerWith(docintel::plugin::Registrar& registrar,
                      docintel::plugin::HostServices& host) override {
        docintel::healthcare::registerPriorAuthSteps(registrar, host);
        docintel::healthcare::registerClinicalSteps(registrar, host);
        std::vector<std::string> names;
        for (const auto& [file, text] : docintel::healthcare_files::embeddedFiles()) {
            const auto definition = nlohmann::json::parse(text);
            names.push_back(definition.at("name").get<std::string>());
            registrar.addWorkflow(definition);
        }
        docintel::plugins::addVerticalRunRoutes(registrar, host, "healthcare", names);
        host.log("healthcare", "info", "registered");
    }
};

}  // namespace

DOCINTEL_PLUGIN(HealthcarePlugin, "healthcare", "1.0.0")
