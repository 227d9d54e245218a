#pragma once

#include <string>
#include <vector>

#include "knowledge/evaluation_service.h"
#include "plugin_api/result.h"

namespace docintel::knowledge {

/// A sentence of an LLM's text: its words without the citation markers, and the source
/// numbers it cites (in the order first cited).
struct DraftedSentence {
    std::string claim;
    std::vector<int> cited;
};

/// The sentences of `text` (ICU boundaries) with their `[n]` / `[n, m]` markers read; markers
/// that open a sentence (`… rent. [1] The deposit …`) belong to the one before.
std::vector<DraftedSentence> draftedSentences(const std::string& text);

/// Where a source supports a sentence: one sentence of that source's text.
struct SupportSpan {
    int source_number = 0;
    int start = 0;  ///< bytes in the source's text
    int end = 0;
    double lexical = 0;
    double cosine = 0;
};

/// A drafted sentence after the check.
struct CheckedSentence {
    DraftedSentence drafted;
    bool supported = false;
    SupportSpan best;  ///< the best supporting sentence (when supported)
    /// One per cited source that supports the sentence (its best sentence), by source number.
    std::vector<SupportSpan> supporting;
};

/// The check of LLM mode (docs/knowledge.md "LLM mode", decision 0045), shared by answers and
/// summaries: each sentence is judged by `checker` (the groundedness evaluation's
/// SupportChecker) against every sentence (ICU) of every source it cites; `sources[n - 1]` is
/// the text of source n as the LLM saw it. A sentence citing nothing, or only numbers with no
/// source, is unsupported.
plugin::Result<std::vector<CheckedSentence>> checkCitedSentences(
    const SupportChecker& checker, const std::vector<DraftedSentence>& drafted,
    const std::vector<std::string>& sources);

}  // namespace docintel::knowledge
