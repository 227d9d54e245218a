#pragma once

// The conversations rules use the shared text helpers (plugins/shared/study_text.h) under their
// own names.

#include "shared/study_text.h"

namespace docintel::conversations {
using study::trim;
using study::utf8Length;
}  // namespace docintel::conversations
