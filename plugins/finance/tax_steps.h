#pragma once

#include "plugin_api/plugin.h"

namespace docintel::finance {

/// The steps of `finance_tax_readiness`, registered under
/// `finance.finance_tax_readiness.<id>`: classify_forms (each document's form type, payer and
/// box amounts), organize (the tax organizer and the missing-document checklist) and compare
/// (prior-year comparison and the CPA review summary).
void registerTaxSteps(plugin::Registrar& registrar, plugin::HostServices& host);

}  // namespace docintel::finance
