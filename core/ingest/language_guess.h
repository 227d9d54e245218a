#pragma once

#include <string>
#include <vector>

namespace docintel::ingest {

/// Whether `texts` (a document's first chunks) read as English — the choice between the
/// primary encoder and the multilingual one (docs/decisions/0075). English means: at most a
/// fifth of the letters are outside the Latin script (Devanagari, Bengali, Arabic, Cyrillic,
/// CJK ... are not), and English function words ("the", "and", "of", ...) are at least as
/// frequent as those of Spanish, French, German, Portuguese and Italian. Texts without letters
/// (figures, codes) count as English: the primary model is the default. A question is judged
/// the same way (the extractive answerer's refusal, decision 0078); Spanish question words count
/// among the function words, so that a short Spanish question is told apart.
bool readsAsEnglish(const std::vector<std::string>& texts);

}  // namespace docintel::ingest
