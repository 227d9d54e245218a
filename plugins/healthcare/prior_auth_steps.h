#pragma once

#include "plugin_api/plugin.h"

namespace docintel::healthcare {

/// The steps of `healthcare_prior_auth`, registered under
/// `healthcare.healthcare_prior_auth.<id>`: extract_request, extract_policy, map_evidence,
/// assess. They read passages through the host's EvidenceFinder only.
void registerPriorAuthSteps(plugin::Registrar& registrar, plugin::HostServices& host);

}  // namespace docintel::healthcare
