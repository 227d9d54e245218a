#pragma once

// Learning uses the shared text machinery (plugins/shared/study_text.h) under its own names.

#include "shared/study_text.h"

namespace docintel::learning {
using study::centrality;
using study::contentWords;
using study::contentWordSet;
using study::coverage;
using study::jaccard;
using study::Passage;
using study::pickDiverse;
using study::quotableSentences;
using study::Sentence;
using study::SentenceSplitter;
using study::splitSentences;
}  // namespace docintel::learning
