#include "learning/generation_llm.h"

#include <regex>
#include <set>

#include "learning/generation_scope.h"
#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

/// The passages the prompt carries, by index into `passages`: in order, within the limits.
std::vector<std::size_t> promptPassages(const std::vector<Passage>& passages) {
    std::vector<std::size_t> out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < passages.size() && out.size() < kMaxLlmPassages; ++i) {
        const std::size_t n = passages[i].text.size();
        if (n == 0 || chars + n > kMaxLlmPromptChars) continue;
        chars += n;
        out.push_back(i);
    }
    return out;
}

std::size_t defaultCount(ArtifactType type) {
    switch (type) {
        case ArtifactType::kSummary:
            return 6;
        case ArtifactType::kStudyGuide:
            return 10;
        case ArtifactType::kKeyConcepts:
            return 8;
        default:
            return 10;
    }
}

bool pairs(ArtifactType type) {
    return type == ArtifactType::kKeyConcepts || type == ArtifactType::kFlashcards;
}

/// The sentence of passage `passage` sharing most content words with `statement`; npos when
/// the passage has no quotable sentence or shares none.
std::size_t closestSentence(const ScopeText& scope, std::size_t passage,
                            const std::string& statement) {
    const auto words = contentWordSet(statement);
    std::size_t best = std::string::npos;
    double best_score = 0;
    for (std::size_t s = 0; s < scope.sentences.size(); ++s) {
        if (scope.sentences[s].passage != passage) continue;
        const auto theirs = contentWordSet(scope.sentences[s].text);
        std::size_t shared = 0;
        for (const auto& w : words) shared += theirs.count(w);
        const double score = static_cast<double>(shared) /
                             static_cast<double>(words.size() + theirs.size() - shared + 1);
        if (shared > 0 && score > best_score) {
            best_score = score;
            best = s;
        }
    }
    return best;
}

struct LlmItem {
    std::string first;   ///< the sentence, the term or the card's front
    std::string second;  ///< the definition or the card's back (pairs only)
    std::size_t sentence = 0;
};

}  // namespace

bool llmWrites(ArtifactType type) { return type != ArtifactType::kPracticeQuestions; }

json llmMessages(const std::vector<Passage>& passages, const GenerationRequest& request) {
    const std::size_t n = wanted(request, defaultCount(request.type));
    std::string task;
    switch (request.type) {
        case ArtifactType::kSummary:
            task = "Write a summary of at most " + std::to_string(n) +
                   " sentences, one sentence per line.";
            break;
        case ArtifactType::kStudyGuide:
            task = "Write a study guide of at most " + std::to_string(n) +
                   " key points a student must know, one point per line.";
            break;
        case ArtifactType::kKeyConcepts:
            task = "List at most " + std::to_string(n) +
                   " key concepts, one per line, written as: concept :: definition [n]";
            break;
        default:
            task = "Write at most " + std::to_string(n) +
                   " flashcards, one per line, written as: question :: answer [n]";
            break;
    }
    std::string sources;
    const auto chosen = promptPassages(passages);
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        sources += "[" + std::to_string(k + 1) + "] " + passages[chosen[k]].text + "\n\n";
    }
    std::string user = "Sources:\n\n" + sources + task;
    if (!request.custom_instruction.empty()) user += "\nFocus on: " + request.custom_instruction;
    return json::array(
        {{{"role", "system"},
          {"content",
           "You write study material for a course from the numbered sources only. Write one item "
           "per line and nothing else. End every line with the number of the source it comes "
           "from in square brackets, like [2]. Never state anything the sources do not say."}},
         {{"role", "user"}, {"content", user}}});
}

plugin::Result<GeneratedArtifact> artifactFromLlm(const std::string& reply,
                                                  const std::vector<Passage>& passages,
                                                  const GenerationRequest& request,
                                                  const GenerationTools& tools) {
    const ScopeText scope = readScope(passages, request.custom_instruction, tools.split);
    const auto chosen = promptPassages(passages);
    static const std::regex kLine(R"(^\s*(?:[-*]|\d+[.)])?\s*(.*?)\s*\[(\d+)\]\s*\.?\s*$)");
    const std::size_t limit = wanted(request, defaultCount(request.type));

    GeneratedArtifact out;
    std::vector<LlmItem> items;
    std::vector<std::pair<std::string, std::size_t>> claims;
    std::set<std::string> seen;
    std::size_t from = 0;
    while (from <= reply.size() && items.size() < limit) {
        auto to = reply.find('\n', from);
        if (to == std::string::npos) to = reply.size();
        const std::string line = reply.substr(from, to - from);
        from = to + 1;
        std::smatch m;
        if (!std::regex_match(line, m, kLine)) continue;
        const std::string body = trim(m[1].str());
        const std::size_t n = std::stoul(m[2].str().substr(0, 6));
        if (body.empty() || n == 0 || n > chosen.size()) {
            if (!body.empty()) ++out.dropped;  // a source the prompt did not have
            continue;
        }
        LlmItem item;
        if (pairs(request.type)) {
            const auto sep = body.find("::");
            if (sep == std::string::npos) continue;
            item.first = trim(body.substr(0, sep));
            item.second = trim(body.substr(sep + 2));
            if (item.first.empty() || item.second.empty()) continue;
        } else {
            item.first = body;
        }
        if (!seen.insert(item.first).second) continue;
        const std::string statement = pairs(request.type) ? item.second : item.first;
        item.sentence = closestSentence(scope, chosen[n - 1], item.first + " " + item.second);
        if (item.sentence == std::string::npos) {
            ++out.dropped;
            continue;
        }
        claims.emplace_back(statement, item.sentence);
        items.push_back(std::move(item));
    }

    SourceList sources;
    std::string text;
    for (const auto i : supportedItems(scope, tools, claims, out.dropped)) {
        const LlmItem& item = items[i];
        const json citation = citationJson(scope, scope.sentences[item.sentence]);
        const std::string mark = cite(sources, scope, item.sentence);
        addSources(out, scope, item.sentence);
        switch (request.type) {
            case ArtifactType::kSummary:
                text += (text.empty() ? "" : " ") + item.first + mark;
                out.items.push_back({{"text", item.first}, {"citation", citation}});
                break;
            case ArtifactType::kStudyGuide:
                text += "- " + item.first + mark + "\n";
                out.items.push_back({{"text", item.first}, {"citation", citation}});
                break;
            case ArtifactType::kKeyConcepts:
                text += "- **" + item.first + "**: " + item.second + mark + "\n";
                out.items.push_back(
                    {{"term", item.first}, {"definition", item.second}, {"citation", citation}});
                break;
            default:
                text += "Q: " + item.first + "\nA: " + item.second + mark + "\n\n";
                out.items.push_back(
                    {{"front", item.first}, {"back", item.second}, {"citation", citation}});
                break;
        }
    }
    if (out.items.empty()) {
        return plugin::Error::unprocessable(
            "insufficient_content",
            "the LLM wrote nothing the scope's documents support for " + toString(request.type));
    }
    if (request.type == ArtifactType::kStudyGuide) text = "## Key points\n" + text;
    out.content = text + sources.render();
    out.type = request.type;
    out.title =
        request.title.empty() ? defaultTitle(request.type, request.scope_label) : request.title;
    return out;
}

}  // namespace docintel::learning
