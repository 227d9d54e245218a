#pragma once

#include "plugin_api/plugin.h"

namespace docintel::healthcare {

/// The steps of `healthcare_clinical`, registered under `healthcare.healthcare_clinical.<id>`:
/// extract_clinical (patient, visit, problems, medications, allergies, vitals, labs with values,
/// units and flags, preventive care items, each with its source) and assess (care gaps, risk
/// and safety flags, PHI notes).
void registerClinicalSteps(plugin::Registrar& registrar, plugin::HostServices& host);

}  // namespace docintel::healthcare
