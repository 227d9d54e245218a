// The talent vertical: talent_readiness and employee_mobility, their step implementations and
// their run routes under /api/v1/verticals/talent/.
#include <map>
#include <string_view>

#include "plugin_api/plugin.h"
#include "shared/vertical_routes.h"
#include "talent_steps.h"

namespace docintel::talent_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace {

class TalentPlugin final : public docintel::plugin::Plugin {
  public:
    void registerWith(docintel::plugin::Registrar& registrar,
                      docintel::plugin::HostServices& host) override {
        docintel::talent::registerTalentSteps(registrar, host);
        std::vector<std::string> names;
        for (const auto& [file, text] : docintel::talent_files::embeddedFiles()) {
            const auto definition = nlohmann::json::parse(text);
            names.push_back(definition.at("name").get<std::string>());
            registrar.addWorkflow(definition);
        }
        docintel::plugins::addVerticalRunRoutes(registrar, host, "talent", names);
        host.log("talent", "info", "registered");
    }
};

}  // namespace

DOCINTEL_PLUGIN(TalentPlugin, "talent", "1.0.0")
