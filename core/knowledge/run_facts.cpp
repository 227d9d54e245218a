#include "knowledge/run_facts.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "knowledge/extractive_answerer.h"

namespace docintel::knowledge {
namespace {

/// Letters two words must share to count as the same word in a label match.
constexpr std::size_t kStemBytes = 5;
/// Longest value shown in a fact's sentence (bytes); longer values are cut at a word.
constexpr std::size_t kMaxValueBytes = 400;

/// Members that name an array item or a field ("event": "Commencement", "term": "base_rent").
constexpr const char* kDescriptors[] = {
    "label",       "name", "title", "term",        "event", "type", "criterion",
    "requirement", "code", "item",  "description", "test",  "drug", "medication"};

/// Question words that ask about the workflows' results themselves.
const std::set<std::string>& runWords() {
    static const std::set<std::string> words = {"workflow", "extracted", "extraction"};
    return words;
}

std::string humanize(const std::string& segment) {
    std::string out = segment;
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

bool isField(const nlohmann::json& node) {
    return node.is_object() && node.contains("value") && node.contains("confidence");
}

/// A short descriptor of an object (an array item or a field): its first descriptive string.
std::string descriptor(const nlohmann::json& node) {
    if (!node.is_object()) return {};
    for (const char* key : kDescriptors) {
        const auto it = node.find(key);
        if (it != node.end() && it->is_string() && !it->get<std::string>().empty()) {
            std::string d = humanize(it->get<std::string>());
            if (d.size() > 80) d = d.substr(0, 80);
            return d;
        }
    }
    return {};
}

/// A path segment's words; `item` = an array item's (its descriptor or position).
struct Segment {
    std::string words;
    bool item = false;
};

void walk(const nlohmann::json& node, const std::string& path, std::vector<Segment>& segments,
          std::vector<RunFact>& out) {
    if (isField(node)) {
        const auto& value = node["value"];
        if (value.is_null()) return;
        RunFact f;
        f.field = path;
        // The field's own words: its key, or for an array item its array's words and its own
        // descriptor (else position); a field inside a named item is prefixed by the item's
        // name ("base rent original"). The segments above make the section.
        std::size_t own_from = segments.empty() ? 0 : segments.size() - 1;
        std::string label = segments.empty() ? std::string() : segments.back().words;
        if (!segments.empty() && segments.back().item) {
            const std::string own = descriptor(node);
            if (!own.empty()) label = own;
            if (own_from > 0) {
                --own_from;
                label = segments[own_from].words + " " + label;
            }
        } else if (own_from > 0 && segments[own_from - 1].item) {
            --own_from;
            label = segments[own_from].words + " " + label;
        }
        std::string section;
        for (std::size_t i = 0; i < own_from; ++i) {
            if (segments[i].item) continue;  // positions and names of outer items: noise
            section += (section.empty() ? "" : " ") + segments[i].words;
        }
        f.label = label;
        f.section = section;
        f.value = value;
        f.confidence = node["confidence"].is_number() ? node["confidence"].get<double>() : 0.0;
        const auto& source = node.contains("source") ? node["source"] : nlohmann::json();
        if (source.is_object()) {
            f.document_id = source.contains("document_id") && source["document_id"].is_string()
                                ? source["document_id"].get<std::string>()
                                : "";
            f.page = source.contains("page") && source["page"].is_number_integer()
                         ? source["page"].get<int>()
                         : 1;
            f.chunk_id = source.contains("chunk_id") && source["chunk_id"].is_string()
                             ? source["chunk_id"].get<std::string>()
                             : "";
            f.excerpt = source.contains("excerpt") && source["excerpt"].is_string()
                            ? source["excerpt"].get<std::string>()
                            : "";
        }
        out.push_back(std::move(f));
        return;
    }
    if (node.is_object()) {
        for (const auto& [key, child] : node.items()) {
            segments.push_back({humanize(key), false});
            walk(child, (nlohmann::json::json_pointer(path) / key).to_string(), segments, out);
            segments.pop_back();
        }
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i) {
            const std::string d = isField(node[i]) ? "" : descriptor(node[i]);
            segments.push_back({d.empty() ? std::to_string(i + 1) : d, true});
            walk(node[i], path + "/" + std::to_string(i), segments, out);
            segments.pop_back();
        }
    }
}

std::string valueText(const nlohmann::json& value) {
    std::string text;
    if (value.is_string()) {
        text = value.get<std::string>();
    } else if (value.is_array()) {
        for (const auto& v : value) {
            if (!text.empty()) text += ", ";
            text += v.is_string() ? v.get<std::string>() : v.dump();
        }
    } else {
        text = value.dump();
    }
    if (text.size() > kMaxValueBytes) {
        std::size_t cut = text.rfind(' ', kMaxValueBytes);
        if (cut == std::string::npos || cut < kMaxValueBytes / 2) cut = kMaxValueBytes;
        text = text.substr(0, cut) + " …";
    }
    return text;
}

/// Whether `words` hold `word`, or (both five letters or longer) a word sharing its first
/// five letters: a light stem ("expire" / "expiration", "escalate" / "escalations").
bool mentions(const std::set<std::string>& words, const std::string& word) {
    if (words.count(word)) return true;
    if (word.size() < kStemBytes) return false;
    const auto from = words.lower_bound(word.substr(0, kStemBytes));
    return from != words.end() && from->compare(0, kStemBytes, word, 0, kStemBytes) == 0;
}

}  // namespace

std::vector<RunFact> packetFacts(const nlohmann::json& packet) {
    std::vector<RunFact> out;
    std::vector<Segment> segments;
    walk(packet, "", segments, out);
    return out;
}

std::string runFactText(const RunFact& fact) {
    std::string label = fact.label.empty() ? fact.field : fact.label;
    label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    std::string text = label + " (" + fact.workflow + " run";
    if (!fact.section.empty()) text += ", " + fact.section;
    text += ", " + humanize(fact.status) + "): " + valueText(fact.value);
    if (text.back() != '.') text += '.';
    return text;
}

double labelMatch(const QuestionAnalysis& question, const RunFact& fact) {
    const auto& q = question.word_set;
    double best = 0;
    for (const std::string& label : {fact.label, fact.section + " " + fact.label}) {
        const auto words = contentWordSet(label);
        if (words.empty()) continue;
        std::size_t shared = 0;
        for (const auto& w : words) shared += mentions(q, w) ? 1 : 0;
        best = std::max(best, static_cast<double>(shared) / static_cast<double>(words.size()));
    }
    return best;
}

std::vector<std::size_t> chooseRunFacts(const std::string& mode, const QuestionAnalysis& question,
                                        const std::vector<RunFact>& facts, std::size_t max) {
    if (mode != "auto" && mode != "force") return {};
    const auto& q = question.word_set;
    const bool about_runs =
        std::any_of(q.begin(), q.end(), [](const std::string& w) { return runWords().count(w); });
    std::vector<double> label(facts.size()), text(facts.size());
    for (std::size_t i = 0; i < facts.size(); ++i) {
        label[i] = labelMatch(question, facts[i]);
        text[i] = coverage(q, contentWordSet(runFactText(facts[i])));
    }
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < facts.size(); ++i) {
        if (mode == "force" || about_runs || label[i] >= kAutoLabelMatch) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return label[a] + 0.5 * text[a] > label[b] + 0.5 * text[b];
    });
    if (order.size() > max) order.resize(max);
    return order;
}

}  // namespace docintel::knowledge
