#pragma once

// The typed extractor run with a workflow's own field descriptors over a test document, the
// helpers the form tests share.

#include <fstream>
#include <string>
#include <vector>

#include "one_passage_doc.h"

#include "shared/field_extractor.h"

namespace docintel::plugins::test {

inline const std::string kLease = "lease/lease_intelligence.workflow.json";
inline const std::string kPriorAuth = "healthcare/healthcare_prior_auth.workflow.json";
inline const std::string kClinical = "healthcare/healthcare_clinical.workflow.json";

/// The `fields` of a workflow file under workflows/.
inline nlohmann::json fieldsOf(const std::string& workflow_file) {
    std::ifstream in(DOCINTEL_SOURCE_DIR "/workflows/" + workflow_file);
    return nlohmann::json::parse(in)["fields"];
}

/// Every field of the workflow extracted from a document of `chunks` (docOf), by path; a list
/// field as {"value": [...]}.
inline nlohmann::json extract(const std::string& workflow_file,
                              const std::vector<std::string>& chunks) {
    const DocText doc = docOf(chunks);
    const auto units = fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fieldsOf(workflow_file))) {
        out[spec.path] = spec.type == "list" ? nlohmann::json{{"value", extractList(spec, doc)}}
                                             : extractField(spec, doc, units, {});
    }
    return out;
}

/// The values of typed finds, as strings.
inline std::vector<std::string> values(const std::vector<typed::Found>& found) {
    std::vector<std::string> out;
    for (const auto& f : found) out.push_back(f.value.get<std::string>());
    return out;
}

}  // namespace docintel::plugins::test
