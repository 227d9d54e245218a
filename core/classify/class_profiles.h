#pragma once

#include <string_view>
#include <vector>

#include "classify/doc_class.h"

namespace docintel::classify {

/// A word or phrase that speaks for a class, and how strongly. Phrases are lower case and
/// matched on word boundaries; a trailing '*' matches any ending ("indemnif*").
struct Cue {
    std::string_view phrase;
    double weight;
};

/// What the classifier knows of a class: short descriptions the encoder compares a document
/// with, and cue words counted in its first chunks.
struct ClassProfile {
    DocClass type;
    std::vector<std::string_view> descriptions;
    std::vector<Cue> cues;
};

/// One profile per named class (every class but kOther), in kNamedClasses order.
const std::vector<ClassProfile>& classProfiles();

}  // namespace docintel::classify
