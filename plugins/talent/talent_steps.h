#pragma once

#include "plugin_api/plugin.h"

namespace docintel::talent {

/// The steps of `talent_readiness` and `employee_mobility`, registered under
/// `talent.<workflow>.<id>`: profile (the candidate or employee, skills with levels),
/// requirements (the job description's required and preferred qualifications) and assess (a
/// status per requirement with evidence, the 0-100 match score and a recommendation).
void registerTalentSteps(plugin::Registrar& registrar, plugin::HostServices& host);

}  // namespace docintel::talent
