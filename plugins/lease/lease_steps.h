#pragma once

#include "plugin_api/plugin.h"

namespace docintel::lease {

/// The steps of `lease_intelligence`, registered under `lease.lease_intelligence.<id>`:
/// abstract (the key terms of the lease with citations), dates_and_risks (critical dates,
/// clause and risk flags, tenant obligations) and amendment (what an amendment changes).
void registerLeaseSteps(plugin::Registrar& registrar, plugin::HostServices& host);

}  // namespace docintel::lease
