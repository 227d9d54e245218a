#pragma once

#include "plugin_api/host_services.h"
#include "plugin_api/registrar.h"
#include "video/plugin/video_service.h"

namespace docintel::video {

/// The video plugin's console pages (`/console/plugins/video/videos` and
/// `.../videos/{document_id}`: frames, timeline and the transcript with time links), read
/// through `service` as the signed-in user. `service` and `host` must outlive the pages (the
/// plugin owns them).
void addConsolePages(plugin::Registrar& registrar, VideoService& service,
                     plugin::HostServices& host);

}  // namespace docintel::video
