#pragma once

#include <set>
#include <string>

namespace docintel::knowledge {

/// The numbers a text states, normalised so that the same quantity written two ways compares
/// equal: digits without thousands separators, leading zeros or a zero fraction ("$20,000.00"
/// → "20000", "05" → "5", "1.5" → "1.5"), and English number words with their multipliers
/// ("three" → "3", "twenty-five" → "25", "two hundred" → "200"). "one" is left out: it is as
/// often a pronoun as a number. Used by the support check so that a sentence citing a source
/// cannot change its figures (docs/knowledge.md "LLM mode"). Pure; thread-safe.
std::set<std::string> statedNumbers(const std::string& text);

/// The value of an English number word below a hundred ("twelve" → 12; `word` lower case), or
/// -1 when it is none ("one" included, as above).
long long numberWordValue(const std::string& word);

}  // namespace docintel::knowledge
