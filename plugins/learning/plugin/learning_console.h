#pragma once

#include "learning/plugin/learning_service.h"
#include "plugin_api/registrar.h"

namespace docintel::learning {

/// The learning plugin's console pages (`/console/plugins/learning/courses` and
/// `.../courses/{course_id}`), read through `service` as the signed-in user. `service` must
/// outlive the registrar's pages (the plugin owns both).
void addConsolePages(plugin::Registrar& registrar, LearningService& service);

}  // namespace docintel::learning
