#include "classify/llm_classifier.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace docintel::classify {
namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n\"'`.");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t\r\n\"'`.");
    return s.substr(a, b - a + 1);
}

/// Cuts `text` to at most `bytes` without splitting a UTF-8 sequence.
std::string cut(const std::string& text, std::size_t bytes) {
    if (text.size() <= bytes) return text;
    std::size_t end = bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return text.substr(0, end);
}

std::string labelList() {
    std::string out;
    for (std::size_t i = 0; i < kDocClassCount; ++i) {
        out += (out.empty() ? "" : ", ") + toString(static_cast<DocClass>(i));
    }
    return out;
}

}  // namespace

std::optional<std::pair<DocClass, std::optional<double>>> LlmClassifier::parseReply(
    const std::string& reply) {
    std::string label;
    std::optional<double> confidence;
    const auto open = reply.find('{');
    const auto close = reply.rfind('}');
    if (open != std::string::npos && close != std::string::npos && close > open) {
        const auto j = nlohmann::json::parse(reply.substr(open, close - open + 1), nullptr, false);
        if (!j.is_object() || !j.contains("doc_type") || !j["doc_type"].is_string()) {
            return std::nullopt;
        }
        label = j["doc_type"].get<std::string>();
        if (j.contains("confidence") && j["confidence"].is_number()) {
            const double c = j["confidence"].get<double>();
            if (c >= 0 && c <= 1) confidence = c;
        }
    } else {
        label = reply;
    }
    label = trim(label);
    std::transform(label.begin(), label.end(), label.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto parsed = parseDocClass(label);
    if (!parsed) return std::nullopt;
    return std::make_pair(*parsed, confidence);
}

SourcedClassification LlmClassifier::classify(const ClassifierInput& input) const {
    SourcedClassification out;
    out.classification = local_.classify(input);
    std::string text;
    for (const auto& t : input.texts) {
        text += (text.empty() ? "" : "\n\n") + t;
        if (text.size() >= kTextBytes) break;
    }
    text = cut(text, kTextBytes);
    const std::string system =
        "You classify documents. Choose exactly one label from this list: " + labelList() +
        ". Use \"other\" when none fits. Reply with only a JSON object, for example: "
        "{\"doc_type\": \"invoice\", \"confidence\": 0.9} — confidence between 0 and 1.";
    std::string user = "The beginning of the document";
    if (!input.detected_type.empty()) user += " (file type " + input.detected_type + ")";
    user += ":\n\n" + text;
    const nlohmann::json messages = nlohmann::json::array(
        {{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", user}}});
    auto completion = llm_.complete(messages, [](const std::string&) { return true; });
    if (!completion) {
        out.rejected = completion.error().code;
        return out;
    }
    out.llm_model = completion->model;
    out.llm_answer = completion->text.substr(0, 200);
    const auto parsed = parseReply(completion->text);
    if (!parsed) {
        out.rejected = "not_a_label";
        return out;
    }
    Classification c = out.classification;
    c.type = parsed->first;
    c.confidence = parsed->second.value_or(kLlmDefaultConfidence);
    out.classification = c;
    out.source = "llm";
    return out;
}

}  // namespace docintel::classify
