#include "knowledge/stated_numbers.h"

#include <cctype>
#include <map>
#include <vector>

namespace docintel::knowledge {
namespace {

const std::map<std::string, long long>& smallNumbers() {
    static const std::map<std::string, long long> words = {
        {"zero", 0},     {"two", 2},        {"three", 3},     {"four", 4},      {"five", 5},
        {"six", 6},      {"seven", 7},      {"eight", 8},     {"nine", 9},      {"ten", 10},
        {"eleven", 11},  {"twelve", 12},    {"thirteen", 13}, {"fourteen", 14}, {"fifteen", 15},
        {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19}, {"twenty", 20},
        {"thirty", 30},  {"forty", 40},     {"fifty", 50},    {"sixty", 60},    {"seventy", 70},
        {"eighty", 80},  {"ninety", 90}};
    return words;
}

const std::map<std::string, long long>& multipliers() {
    static const std::map<std::string, long long> words = {
        {"hundred", 100}, {"thousand", 1000}, {"million", 1000000}, {"billion", 1000000000}};
    return words;
}

/// "020,000.50" → "20000.5"; `digits` holds digits and at most one '.'.
std::string normalised(std::string digits) {
    if (const auto dot = digits.find('.'); dot != std::string::npos) {
        while (!digits.empty() && digits.back() == '0') digits.pop_back();
        if (!digits.empty() && digits.back() == '.') digits.pop_back();
    }
    const auto first = digits.find_first_not_of('0');
    if (first == std::string::npos) return "0";
    if (digits[first] == '.') return digits.substr(first - 1);
    return digits.substr(first);
}

}  // namespace

long long numberWordValue(const std::string& word) {
    const auto it = smallNumbers().find(word);
    return it == smallNumbers().end() ? -1 : it->second;
}

std::set<std::string> statedNumbers(const std::string& text) {
    std::set<std::string> out;
    const auto digit = [&](std::size_t i) {
        return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
    };
    // Digits: "20,000", "4,500.00", "1.5", "10th" (the "th" ends it).
    std::vector<std::string> words;  // lower-cased letter runs, '-' splitting compounds
    for (std::size_t i = 0; i < text.size();) {
        if (digit(i)) {
            std::string digits;
            bool fraction = false;
            while (digit(i) || ((text[i] == ',' || (text[i] == '.' && !fraction)) && digit(i - 1) &&
                                digit(i + 1))) {
                if (text[i] == '.') fraction = true;
                if (text[i] != ',') digits += text[i];
                ++i;
            }
            out.insert(normalised(digits));
            words.emplace_back();  // a figure breaks a run of number words
            continue;
        }
        if (std::isalpha(static_cast<unsigned char>(text[i]))) {
            std::string word;
            while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
                word += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
                ++i;
            }
            words.push_back(std::move(word));
            continue;
        }
        if (text[i] != '-' && text[i] != ' ') words.emplace_back();
        ++i;
    }
    // Number words: "twenty-five" → 25, "two hundred" → 200, "twenty thousand" → 20000.
    for (std::size_t w = 0; w < words.size();) {
        const auto small = smallNumbers().find(words[w]);
        if (small == smallNumbers().end()) {
            ++w;
            continue;
        }
        long long value = small->second;
        ++w;
        if (value >= 20 && value % 10 == 0 && w < words.size()) {
            const auto unit = smallNumbers().find(words[w]);
            if (words[w] == "one") {
                value += 1;
                ++w;
            } else if (unit != smallNumbers().end() && unit->second < 10 && unit->second > 0) {
                value += unit->second;
                ++w;
            }
        }
        while (w < words.size() && multipliers().count(words[w])) {
            value *= multipliers().at(words[w]);
            ++w;
        }
        out.insert(std::to_string(value));
    }
    return out;
}

}  // namespace docintel::knowledge
