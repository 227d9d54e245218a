// Practice questions without an LLM: each blanks a typed fact (date, year, amount, percentage,
// count, ordinal, name) of a central sentence of the scope; the correct option is the fact as
// written, the distractors are facts of the same type (and, when there are enough, the same
// kind) stated elsewhere in the scope. docs/learning.md "Practice questions" has the rules.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "learning/facts.h"
#include "learning/generation.h"
#include "learning/generation_scope.h"
#include "learning/quiz.h"
#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

constexpr const char* kBlank = "_____";
constexpr std::size_t kDistractors = 3;
/// Distractor candidates checked per question (the best three that pass are kept).
constexpr std::size_t kCandidatesChecked = 6;
/// A sentence sharing less of a distractor statement's words cannot support it lexically (the
/// check wants half), so it is not sent to the check.
constexpr double kNeighbourShare = 0.4;
constexpr std::size_t kNotAsked = static_cast<std::size_t>(-1);

struct ScopeFact {
    Fact fact;
    std::size_t sentence = 0;
    std::set<std::string> words;  ///< content words of a name (for sameThing)
};

struct Draft {
    std::size_t sentence = 0;
    Fact answer;
    std::vector<const ScopeFact*> candidates;  ///< distractors, best first
    double score = 0;
};

double typeWeight(const Fact& f) {
    switch (f.type) {
        case FactType::kDate:
        case FactType::kYear:
            return 5;
        case FactType::kPercent:
        case FactType::kMoney:
            return 4;
        case FactType::kNumber:
        case FactType::kOrdinal:
            return 3;
        case FactType::kName:
            return f.text.find(' ') != std::string::npos ? 2.5 : 2;
    }
    return 0;
}

std::string hintOf(FactType t) {
    switch (t) {
        case FactType::kDate:
            return "date";
        case FactType::kYear:
            return "year";
        case FactType::kMoney:
            return "amount";
        case FactType::kPercent:
            return "percentage";
        case FactType::kNumber:
            return "number";
        case FactType::kOrdinal:
            return "option";
        case FactType::kName:
            return "name";
    }
    return "option";
}

/// The leading number of a value ("1066" → 1066, "3.5 million" → 3.5e6); NaN when none.
double magnitude(const std::string& value) {
    try {
        std::size_t used = 0;
        double v = std::stod(value, &used);
        if (value.find("million") != std::string::npos) v *= 1e6;
        if (value.find("billion") != std::string::npos) v *= 1e9;
        if (value.find("thousand") != std::string::npos) v *= 1e3;
        return v;
    } catch (...) {
        return std::nan("");
    }
}

/// Whether two facts could name the same thing: equal values, one inside the other, or (names)
/// a shared content word.
bool sameThing(const ScopeFact& a, const ScopeFact& b) {
    if (a.fact.value == b.fact.value) return true;
    if (a.fact.value.find(b.fact.value) != std::string::npos ||
        b.fact.value.find(a.fact.value) != std::string::npos) {
        return true;
    }
    for (const auto& w : b.words) {
        if (a.words.count(w)) return true;
    }
    return false;
}

/// Ranks the scope's facts as distractors for `answer` in sentence `s`.
std::vector<const ScopeFact*> distractors(const ScopeText& scope,
                                          const std::vector<ScopeFact>& pool,
                                          const std::vector<std::set<std::string>>& words,
                                          const ScopeFact& answer_fact) {
    const std::size_t s = answer_fact.sentence;
    const Fact& answer = answer_fact.fact;
    const std::string sentence = lowered(scope.sentences[s].text);
    std::map<std::string, int> frequency;
    for (const auto& f : pool) {
        if (f.fact.type == answer.type) ++frequency[f.fact.value];
    }
    std::vector<std::pair<double, const ScopeFact*>> ranked;
    std::set<std::string> values;
    for (const auto& f : pool) {
        const Fact& g = f.fact;
        if (g.type != answer.type || f.sentence == s) continue;
        if (answer.type == FactType::kOrdinal && g.kind != answer.kind) continue;
        if (sameThing(f, answer_fact) || sentence.find(lowered(g.text)) != std::string::npos)
            continue;
        // A sentence much like the question's may state the same fact with this value.
        if (jaccard(words[s], words[f.sentence]) >= 0.35) continue;
        if (!values.insert(g.value).second) continue;
        // The scope's ubiquitous names (its subject) fit most blanks: the more sentences state a
        // value, the likelier it is also correct, so frequency counts against a distractor.
        double score = -0.25 * frequency[g.value];
        if (!answer.kind.empty() && g.kind == answer.kind) score += 3;
        if (!answer.before.empty() && g.before == answer.before) score += 1;
        if (answer.type == FactType::kName &&
            std::count(answer.text.begin(), answer.text.end(), ' ') ==
                std::count(g.text.begin(), g.text.end(), ' ')) {
            score += 1;
        }
        // Nearby passages tend to be about related things: the nearer, the likelier the
        // distractor is of the same sort as the answer.
        const double a_at = static_cast<double>(scope.sentences[s].passage);
        const double g_at = static_cast<double>(scope.sentences[f.sentence].passage);
        score += 1.0 / (1.0 + std::fabs(a_at - g_at));
        const double a = magnitude(answer.value), b = magnitude(g.value);
        if (!std::isnan(a) && !std::isnan(b) && a > 0 && b > 0) {
            score += 1.0 / (1.0 + std::fabs(std::log10(a / b)));
        }
        ranked.emplace_back(score, &f);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first > y.first;
        return x.second->fact.value < y.second->fact.value;
    });
    // Distractors differ from each other as from the answer ("Huguenot" and "Huguenots" are one).
    std::vector<const ScopeFact*> out;
    for (const auto& [score, f] : ranked) {
        if (out.size() >= kCandidatesChecked) break;
        const bool twin = std::any_of(out.begin(), out.end(),
                                      [&](const ScopeFact* o) { return sameThing(*o, *f); });
        if (!twin) out.push_back(f);
    }
    return out;
}

/// The best fact of sentence `s` to blank, with its distractors; none when no fact leaves a
/// meaningful statement or has three distractors.
std::optional<Draft> draftFor(const ScopeText& scope, const std::vector<ScopeFact>& pool,
                              const std::vector<std::set<std::string>>& words, std::size_t s,
                              const std::vector<const ScopeFact*>& facts_of_s) {
    std::optional<Draft> best;
    for (const ScopeFact* sf : facts_of_s) {
        const Fact& f = sf->fact;
        if (f.type == FactType::kOrdinal && f.kind.empty()) continue;
        const std::string& text = scope.sentences[s].text;
        const std::string rest = text.substr(0, f.pos) + " " + text.substr(f.pos + f.len);
        if (contentWords(rest).size() < 4) continue;
        // The answer must not be given away by the statement itself.
        if (lowered(rest).find(lowered(f.text)) != std::string::npos) continue;
        auto candidates = distractors(scope, pool, words, *sf);
        if (candidates.size() < kDistractors) continue;
        const double score = typeWeight(f) + (candidates.size() >= kCandidatesChecked ? 0.5 : 0);
        if (!best || score > best->score) {
            best = Draft{s, f, std::move(candidates), score};
        }
    }
    return best;
}

std::string fill(const std::string& sentence, const Fact& blanked, const std::string& with) {
    return sentence.substr(0, blanked.pos) + with + sentence.substr(blanked.pos + blanked.len);
}

std::uint32_t fnv(const std::string& s) {
    std::uint32_t h = 2166136261u;
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h;
}

}  // namespace

plugin::Result<GeneratedArtifact> generatePracticeQuestions(const ScopeText& scope,
                                                            const GenerationRequest& request,
                                                            const GenerationTools& tools) {
    const std::size_t wanted = std::min<std::size_t>(
        request.max_items > 0 ? static_cast<std::size_t>(request.max_items) : 10,
        kMaxQuizQuestions);
    std::vector<ScopeFact> pool;
    std::vector<std::set<std::string>> words;
    for (std::size_t s = 0; s < scope.sentences.size(); ++s) {
        words.push_back(contentWordSet(scope.sentences[s].text));
        for (auto& f : findFacts(scope.sentences[s].text, scope.common_words)) {
            auto fact_words =
                f.type == FactType::kName ? contentWordSet(f.text) : std::set<std::string>{};
            pool.push_back({std::move(f), s, std::move(fact_words)});
        }
    }
    std::vector<std::vector<const ScopeFact*>> facts_of(scope.sentences.size());
    for (const auto& f : pool) facts_of[f.sentence].push_back(&f);

    // Sentences by centrality, spread over the passages: a first round takes at most one
    // question a passage, the next two, and so on; twice the questions wanted are drafted so
    // that the support check may drop some.
    std::vector<std::size_t> order(scope.sentences.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return scope.centrality[a] > scope.centrality[b];
    });
    std::vector<Draft> drafts;
    std::vector<bool> drafted(scope.sentences.size(), false), tried(scope.sentences.size(), false);
    std::map<std::size_t, std::size_t> per_passage;
    for (std::size_t round = 1; drafts.size() < 2 * wanted && round <= 2 * wanted; ++round) {
        bool progressed = false;
        for (const std::size_t s : order) {
            if (drafts.size() >= 2 * wanted) break;
            if (tried[s] || per_passage[scope.sentences[s].passage] >= round) continue;
            const bool repeats = std::any_of(drafts.begin(), drafts.end(), [&](const Draft& d) {
                return jaccard(words[d.sentence], words[s]) >= 0.5;
            });
            if (repeats) continue;
            tried[s] = true;
            auto draft = draftFor(scope, pool, words, s, facts_of[s]);
            if (!draft) continue;
            ++per_passage[scope.sentences[s].passage];
            drafts.push_back(std::move(*draft));
            progressed = true;
        }
        if (!progressed && round > 1) break;
    }

    // The support check, in one batch: each answer's statement must be supported by its
    // sentence; a distractor's statement must not be supported by any other sentence of the
    // scope that shares words with it (that sentence would make it a correct answer too).
    std::vector<SupportClaim> claims;
    std::vector<std::vector<std::size_t>> claim_of(drafts.size());
    for (std::size_t d = 0; d < drafts.size(); ++d) {
        const Draft& draft = drafts[d];
        const std::string& text = scope.sentences[draft.sentence].text;
        claim_of[d].push_back(claims.size());
        claims.push_back({fill(text, draft.answer, draft.answer.text), {text}});
        for (const ScopeFact* c : draft.candidates) {
            const std::string statement = fill(text, draft.answer, c->fact.text);
            const auto statement_words = contentWordSet(statement);
            SupportClaim claim{statement, {}};
            for (std::size_t t = 0; t < scope.sentences.size(); ++t) {
                if (t != draft.sentence && coverage(statement_words, words[t]) >= kNeighbourShare) {
                    claim.texts.push_back(scope.sentences[t].text);
                }
            }
            // No sentence shares its words: nothing can support it, the check is not asked.
            if (claim.texts.empty() || !tools.support) {
                claim_of[d].push_back(kNotAsked);
                continue;
            }
            claim_of[d].push_back(claims.size());
            claims.push_back(std::move(claim));
        }
    }
    const std::vector<bool> judged = checkSupport(tools, claims);
    const auto supported = [&](std::size_t claim) { return claim != kNotAsked && judged[claim]; };

    GeneratedArtifact out;
    Quiz quiz;
    quiz.instructions =
        "Choose the option that completes each statement. Every statement is quoted from the "
        "course materials, which the explanation cites.";
    for (std::size_t d = 0; d < drafts.size() && quiz.questions.size() < wanted; ++d) {
        const Draft& draft = drafts[d];
        std::vector<std::string> wrong;
        for (std::size_t k = 1; k < claim_of[d].size() && wrong.size() < kDistractors; ++k) {
            if (!supported(claim_of[d][k])) wrong.push_back(draft.candidates[k - 1]->fact.text);
        }
        if (!supported(claim_of[d][0]) || wrong.size() < kDistractors) {
            ++out.dropped;
            continue;
        }
        const Sentence& s = scope.sentences[draft.sentence];
        const Passage& p = (*scope.passages)[s.passage];
        QuizQuestion q;
        q.id = "q" + std::to_string(quiz.questions.size() + 1);
        q.question = "Which " + hintOf(draft.answer.type) + " completes this statement? \"" +
                     fill(s.text, draft.answer, kBlank) + "\"";
        const std::size_t right = fnv(s.text) % 4;
        for (std::size_t o = 0, w = 0; o < 4; ++o) {
            const char id[] = {static_cast<char>('A' + o), 0};
            q.options.push_back(o == right ? QuizOption{id, draft.answer.text, true}
                                           : QuizOption{id, wrong[w++], false});
        }
        q.explanation = "The source says: \"" + s.text + "\" (" + p.document_name + ", page " +
                        std::to_string(p.page) + ").";
        q.citations = json::array({citationJson(scope, s)});
        quiz.questions.push_back(std::move(q));
        if (std::find(out.source_document_ids.begin(), out.source_document_ids.end(),
                      p.document_id) == out.source_document_ids.end()) {
            out.source_document_ids.push_back(p.document_id);
        }
    }
    if (quiz.questions.empty()) return out;
    const json content = quizJson(quiz);
    out.content = content.dump();
    out.items = content["questions"];
    return out;
}

}  // namespace docintel::learning
