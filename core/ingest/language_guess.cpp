#include "ingest/language_guess.h"

#include <set>
#include <string_view>

#include "common/utf8.h"

namespace docintel::ingest {
namespace {

bool latinLetter(char32_t c) {
    return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') ||
           (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x1E00 && c <= 0x1EFF);
}

/// Letters (and marks) of other scripts, roughly: Greek to Myanmar, Greek extended, kana and
/// CJK, Hangul. Punctuation, digits and symbols are neither.
bool otherLetter(char32_t c) {
    return (c >= 0x370 && c < 0x1E00) || (c >= 0x1F00 && c <= 0x1FFF) ||
           (c >= 0x3040 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF);
}

char32_t lower(char32_t c) { return c >= U'A' && c <= U'Z' ? c + 32 : c; }

// The commonest function words of each language, none shared with English.
const std::set<std::u32string>& englishWords() {
    static const std::set<std::u32string> words{
        U"the",  U"and", U"of",  U"to",  U"is",   U"that",  U"for",  U"with",
        U"this", U"be",  U"are", U"was", U"will", U"shall", U"from", U"which"};
    return words;
}

const std::set<std::u32string>& otherLatinWords() {
    static const std::set<std::u32string> words{
        // es
        U"el", U"los", U"las", U"del", U"que", U"por", U"para", U"con", U"una", U"es", U"será",
        U"como", U"y", U"su", U"sus", U"al", U"la", U"de", U"en", U"se", U"qué", U"cuál", U"quién",
        U"cuándo", U"dónde", U"cómo", U"cuánto", U"cuánta", U"cuántos", U"cuántas",
        // fr
        U"le", U"les", U"des", U"et", U"est", U"une", U"du", U"dans", U"pour", U"sur", U"qui",
        // de
        U"der", U"die", U"das", U"und", U"ist", U"nicht", U"mit", U"den", U"dem", U"ein", U"eine",
        U"zu", U"von", U"auf", U"wird",
        // pt, it
        U"não", U"em", U"um", U"uma", U"os", U"da", U"do", U"dos", U"il", U"di", U"che", U"è",
        U"della", U"per", U"gli"};
    return words;
}

}  // namespace

bool readsAsEnglish(const std::vector<std::string>& texts) {
    std::size_t latin = 0, other = 0, english = 0, not_english = 0;
    for (const auto& text : texts) {
        std::u32string word;
        auto endWord = [&] {
            if (word.empty()) return;
            english += englishWords().count(word);
            not_english += otherLatinWords().count(word);
            word.clear();
        };
        for (const char32_t c : common::codePoints(text)) {
            if (latinLetter(c)) {
                ++latin;
                word += lower(c);
            } else {
                other += otherLetter(c);
                endWord();
            }
        }
        endWord();
    }
    if (other * 5 > latin + other) return false;
    return english >= not_english;
}

}  // namespace docintel::ingest
