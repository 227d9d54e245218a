#pragma once

// Typed facts stated in a sentence — dates, years, amounts, percentages, counts, ordinals and
// names — the answers and distractors of generated practice questions. Built on the typed
// value parsers of plugins/shared/typed_values.h. Pure; thread-safe.

#include <set>
#include <string>
#include <vector>

namespace docintel::learning {

enum class FactType { kDate, kYear, kMoney, kPercent, kNumber, kOrdinal, kName };
std::string toString(FactType t);

struct Fact {
    FactType type = FactType::kName;
    std::size_t pos = 0;  ///< bytes [pos, pos + len) of the sentence
    std::size_t len = 0;
    std::string text;   ///< as written
    std::string value;  ///< normalised, for comparing ("1,000" → "1000", names lower-cased)
    /// What kind within the type, for choosing same-kind distractors: the unit after a count
    /// ("people"), the noun after an ordinal ("century"), "decade" for "1960s", a name's last
    /// word when it has several ("river").
    std::string kind;
    std::string before;  ///< the word before it, lower-cased ("in", "by")
};

/// The facts of `sentence`, non-overlapping, in text order. `common_words`: words seen in
/// lower case in the scope; a capitalised word among them is not a name (sentence-initial
/// "The", "During"). Trailing possessives and leading articles are left out of names.
std::vector<Fact> findFacts(const std::string& sentence, const std::set<std::string>& common_words);

/// The lower-case words of the passages' texts (for findFacts' `common_words`).
std::set<std::string> lowerCaseWords(const std::vector<std::string>& texts);

}  // namespace docintel::learning
