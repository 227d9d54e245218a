#pragma once
// What a form's marks say beside its values: which option of an enumeration a tick box leaves
// unticked (boxes stand before their options, "[ ] Urgent/Expedited  [X] Standard", or after
// them, as a fax form writes them, "URGENT __ ROUTINE _X_"), and the underscores of a blank
// that a form's filler wrote a value into ("rent of $__1,640.00__ per month").
//
// Header-only, stateless; plugins link only the SDK.

#include <cctype>
#include <regex>
#include <string>
#include <vector>

namespace docintel::plugins {

/// A tick box found in a text: [pos, end) and whether it is ticked.
struct TickBox {
    std::size_t pos = 0;
    std::size_t end = 0;
    bool ticked = false;
};

/// Every tick box of `text`: "[ ]", "[X]", "[x]", "[*]", "[✓]", "☐", "☒", "☑", a blank written
/// as underscores ("__") and an underscored mark ("_X_").
inline std::vector<TickBox> tickBoxes(const std::string& text) {
    static const std::regex box(
        R"(\[\s*([xX*]|\xE2\x9C\x93|\xE2\x9C\x94)?\s*\]|(\xE2\x98\x90)|\xE2\x98\x92|\xE2\x98\x91|)"
        R"(_+([xX]|\xE2\x9C\x93|\xE2\x9C\x94)_+|(__+))");
    std::vector<TickBox> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), box);
         it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const bool blank =
            m[2].matched || m[4].matched || (m[0].str().front() == '[' && !m[1].matched);
        const auto pos = static_cast<std::size_t>(m.position(0));
        out.push_back({pos, pos + static_cast<std::size_t>(m.length(0)), !blank});
    }
    return out;
}

/// Whether the option word at `at` (`len` long) is left unticked. When the text ends with a box
/// and words stand between its label and its first box ("PRIORITY: URGENT __ ROUTINE _X_"),
/// each box follows its option: the box right after the word rules it. Otherwise each box goes
/// before its option ("Review type ..... [ ] Urgent  [X] Standard"): the last box before the
/// word, within the option's few words, rules it.
inline bool uncheckedBox(const std::string& text, std::size_t at, std::size_t len = 0) {
    const auto boxes = tickBoxes(text);
    if (boxes.empty()) return false;
    const std::size_t label = text.rfind(':', boxes.front().pos);
    const std::size_t from = label == std::string::npos ? 0 : label + 1;
    bool words_first = false;
    for (std::size_t i = from; i < boxes.front().pos; ++i) {
        if (std::isalpha(static_cast<unsigned char>(text[i]))) words_first = true;
    }
    const bool ends_with_box = text.find_first_not_of(' ', boxes.back().end) == std::string::npos;
    if (words_first && ends_with_box) {
        for (const auto& b : boxes) {
            if (b.pos < at + len) continue;
            const bool next = text.find_first_not_of(' ', at + len) == b.pos;
            return next && !b.ticked;
        }
        return false;
    }
    bool unchecked = false;  // the last box before the word ("[ ] Urgent/Expedited") rules it
    for (const auto& b : boxes) {
        if (b.end > at) break;
        if (b.end + 40 >= at) unchecked = !b.ticked;
    }
    return unchecked;
}

/// Whether the option word at `at` stands in a form's yes/no question that is answered no
/// ("Expedited review?  [ ] Yes   [X] No"): a question mark soon after the word, then boxes
/// before "Yes" and "No", and the "Yes" box left unticked or the "No" box ticked.
inline bool answeredNo(const std::string& text, std::size_t at) {
    const std::size_t question = text.find('?', at);
    if (question == std::string::npos || question - at > 60) return false;
    static const std::regex answer(R"(^\s*(yes|no)\b)", std::regex::icase);
    bool no = false;
    for (const auto& b : tickBoxes(text.substr(question))) {
        std::smatch m;
        const std::string after = text.substr(question + b.end, 8);
        if (!std::regex_search(after, m, answer)) continue;
        const bool yes = std::tolower(static_cast<unsigned char>(m[1].str()[0])) == 'y';
        if (yes ? !b.ticked : b.ticked) no = true;
    }
    return no;
}

/// Takes the underscores of filled-in blanks out of `text` ("between __Ann Roe__ ("Owner")",
/// "$__1,640.00__ per month", OCR's "_ 5th_"): the value moves to where the blank starts and
/// spaces take the underscores' place, so that the text keeps its length (and offsets). A blank
/// is underscores on both sides of a value on one line, hugging it on at least one side, with
/// neither a letter nor a digit outside them ("file_name_v2" is a name). A tick mark between
/// underscores ("_X_") and an empty blank between words ("URGENT __ ROUTINE") stay.
inline void fillInBlanks(std::string& text) {
    static const std::regex blank(
        R"((^|[^A-Za-z0-9_])(_+)( ?)([^_\s]|[^_\s][^_\n]{0,158}[^_\s])( ?)(_+)(?![A-Za-z0-9_]))");
    static const std::regex mark(R"([xX*]|\xE2\x9C\x93|\xE2\x9C\x94)");
    std::string out = text;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), blank);
         it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        if ((m[3].length() > 0 && m[5].length() > 0) || std::regex_match(m[4].str(), mark)) {
            continue;
        }
        const auto from = static_cast<std::size_t>(m.position(2));
        const auto to = static_cast<std::size_t>(m.position(6) + m.length(6));
        const std::string value = m[4].str();
        out.replace(from, to - from, value + std::string(to - from - value.size(), ' '));
    }
    text = std::move(out);
}

}  // namespace docintel::plugins
