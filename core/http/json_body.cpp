#include "http/json_body.h"

#include <string>

namespace docintel::http {
namespace {

constexpr std::size_t kMaxIssues = 20;
constexpr int kNumberOutOfRange = 406;  // nlohmann's out_of_range id for 1e400

/// A SAX consumer that builds nothing: it follows the path of each value to name it in an
/// issue, and refuses what parseJsonBody documents.
class BodyChecker {
  public:
    using json = nlohmann::json;

    BodyChecker(const JsonBodyLimits& limits, const json& loc_prefix,
                std::vector<ValidationIssue>& issues)
        : limits_(limits), prefix_(loc_prefix), issues_(issues) {}

    bool null() { return scalar(); }
    bool boolean(bool /*value*/) { return scalar(); }
    bool number_integer(json::number_integer_t /*value*/) { return scalar(); }
    bool number_unsigned(json::number_unsigned_t /*value*/) { return scalar(); }
    bool number_float(json::number_float_t /*value*/, const json::string_t& /*text*/) {
        return scalar();
    }
    bool string(json::string_t& value) {
        if (value.find('\0') != std::string::npos) {
            add(loc(), "String should not contain the NUL character", "string_nul");
        }
        return scalar();
    }
    bool binary(json::binary_t& /*value*/) { return scalar(); }
    bool key(json::string_t& name) {
        frames_.back().key = name;
        if (name.find('\0') != std::string::npos) {
            add(loc(), "Field names should not contain the NUL character", "string_nul");
        }
        return issues_.size() < kMaxIssues;
    }
    bool start_object(std::size_t /*size*/) { return open(false); }
    bool end_object() { return close(); }
    bool start_array(std::size_t /*size*/) { return open(true); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t position, const std::string& /*last_token*/,
                     const json::exception& error) {
        if (error.id == kNumberOutOfRange) {
            add(loc(), "Input should be a finite number", "finite_number");
        } else {
            json at = prefix_;
            at.push_back(position);
            add(at, "JSON decode error", "json_invalid");
        }
        return false;
    }

  private:
    struct Frame {
        bool array = false;
        std::size_t index = 0;
        std::string key;
    };

    json loc() const {
        json at = prefix_;
        for (const auto& f : frames_) {
            if (f.array) {
                at.push_back(f.index);
            } else {
                at.push_back(f.key);
            }
        }
        return at;
    }

    void add(json at, std::string msg, std::string type) {
        issues_.push_back({std::move(at), std::move(msg), std::move(type)});
    }

    bool counted() {
        if (++values_ <= limits_.max_values) return true;
        add(prefix_, "JSON body has more than " + std::to_string(limits_.max_values) + " values",
            "json_too_large");
        return false;
    }

    void done() {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    }

    bool scalar() {
        if (!counted()) return false;
        done();
        return issues_.size() < kMaxIssues;
    }

    bool open(bool array) {
        if (!counted()) return false;
        if (static_cast<int>(frames_.size()) >= limits_.max_depth) {
            add(prefix_,
                "JSON body is nested deeper than " + std::to_string(limits_.max_depth) + " levels",
                "json_too_deep");
            return false;
        }
        frames_.push_back({array, 0, {}});
        return true;
    }

    bool close() {
        frames_.pop_back();
        done();
        return issues_.size() < kMaxIssues;
    }

    const JsonBodyLimits& limits_;
    const json& prefix_;
    std::vector<ValidationIssue>& issues_;
    std::vector<Frame> frames_;
    std::size_t values_ = 0;
};

}  // namespace

std::optional<nlohmann::json> parseJsonBody(std::string_view text, const JsonBodyLimits& limits,
                                            const nlohmann::json& loc_prefix,
                                            std::vector<ValidationIssue>& issues) {
    const std::size_t before = issues.size();
    BodyChecker checker(limits, loc_prefix, issues);
    const bool read = nlohmann::json::sax_parse(text, &checker);
    if (!read || issues.size() > before) return std::nullopt;
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        // The SAX pass read the same text with the same parser; this cannot fail.
        issues.push_back({loc_prefix, "JSON decode error", "json_invalid"});
        return std::nullopt;
    }
}

}  // namespace docintel::http
