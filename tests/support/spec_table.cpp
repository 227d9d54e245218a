#include "support/spec_table.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/test_server.h"

namespace docintel::test {
namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    const auto b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

}  // namespace

std::vector<SpecOperation> specOperations() {
    std::ifstream in(sharedDir() + "/spec/service-spec.md");
    if (!in) throw std::runtime_error("cannot read ../shared/spec/service-spec.md");
    std::vector<SpecOperation> ops;
    std::string line;
    bool in_table = false;
    while (std::getline(in, line)) {
        if (line.rfind("| Method | Path | Operation id |", 0) == 0) {
            in_table = true;
            continue;
        }
        if (!in_table) continue;
        if (line.empty() || line[0] != '|') {
            if (!ops.empty()) break;
            continue;
        }
        std::vector<std::string> cells;
        std::stringstream ss(line.substr(1));
        std::string cell;
        while (std::getline(ss, cell, '|')) cells.push_back(trim(cell));
        if (cells.size() < 6 || cells[0].rfind("---", 0) == 0) continue;
        SpecOperation op{cells[0], cells[1], cells[2], cells[3], cells[4], {}};
        std::stringstream rs(cells[5]);
        std::string code;
        while (std::getline(rs, code, ',')) op.responses.push_back(std::stoi(trim(code)));
        ops.push_back(op);
    }
    return ops;
}

}  // namespace docintel::test
