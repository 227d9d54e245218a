#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "knowledge/summarizer.h"

namespace docintel::knowledge {

struct ComparisonOptions {
    /// Sections pair up (one to one, best first) when their similarity reaches this: the
    /// cosine of their centroids, blended with their headings' when both have one.
    double section_match = 0.55;
    /// Two sentences of aligned sections are the same passage when their cosine reaches this
    /// (text equal: unchanged; text different: changed).
    double sentence_match = 0.78;
};

/// The numbers, amounts, percentages and dates written in `text`, as written ("$4,500",
/// "5%", "March 1, 2025", "2025-03-01"), in order.
std::vector<std::string> extractValues(const std::string& text);

/// Compares two documents (compare_documents): aligns their sections by encoder similarity,
/// lists the sections and passages only one of them has, and the aligned passages whose text
/// differs with the numbers and dates that differ; every item cites the passages of both
/// documents ([n] into one numbering of sources). Thread-safe.
class DocumentComparer {
  public:
    explicit DocumentComparer(const Summarizer& summarizer, ComparisonOptions options = {})
        : summarizer_(summarizer), options_(options) {}

    /// Both documents must be visible to the caller (404) and chunked (409).
    plugin::Result<nlohmann::json> compare(const plugin::Principal& caller,
                                           const std::string& document_id_1,
                                           const std::string& document_id_2, bool redact_pii,
                                           const std::string& trace_id) const;

  private:
    const Summarizer& summarizer_;
    const ComparisonOptions options_;
};

}  // namespace docintel::knowledge
