#pragma once

#include <string>
#include <vector>

namespace docintel::test {

/// One row of the REST table of ../shared/spec/service-spec.md §4.1.
struct SpecOperation {
    std::string method;
    std::string path;
    std::string operation_id;
    std::string params;
    std::string body;  ///< schema name, "-", "no schema listed" or "free JSON object"
    std::vector<int> responses;
};

/// Parses the spec's REST table (read from disk, never retyped). Throws when absent.
std::vector<SpecOperation> specOperations();

}  // namespace docintel::test
