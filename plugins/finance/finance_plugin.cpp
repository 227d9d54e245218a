// The finance vertical: finance_tax_readiness, its step implementations and its run routes under
// /api/v1/verticals/finance/.
#include <map>
#include <string_view>

#include "plugin_api/plugin.h"
#include "shared/vertical_routes.h"
#include "tax_steps.h"

namespace docintel::finance_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace {

class FinancePlugin final : public docintel::plugin::Plugin {
  public:
    void registerWith(docintel::plugin::Registrar& registrar,
                      docintel::plugin::HostServices& host) override {
        docintel::finance::registerTaxSteps(registrar, host);
        std::vector<std::string> names;
        for (const auto& [file, text] : docintel::finance_files::embeddedFiles()) {
            const auto definition = nlohmann::json::parse(text);
            names.push_back(definition.at("name").get<std::string>());
            registrar.addWorkflow(definition);
        }
        docintel::plugins::addVerticalRunRoutes(registrar, host, "finance", names);
        host.log("finance", "info", "registered");
    }
};

}  // namespace

DOCINTEL_PLUGIN(FinancePlugin, "finance", "1.0.0")
