#include "embed/wordpiece_tokenizer.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "common/utf8.h"

namespace docintel::embed {

namespace {

constexpr size_t kMaxCharsPerWord = 100;

bool isControl(UChar32 c) {
    if (c == '\t' || c == '\n' || c == '\r') return false;
    switch (u_charType(c)) {
        case U_CONTROL_CHAR:
        case U_FORMAT_CHAR:
        case U_UNASSIGNED:
        case U_PRIVATE_USE_CHAR:
        case U_SURROGATE:
            return true;
        default:
            return false;
    }
}

bool isWhitespace(UChar32 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || u_isUWhiteSpace(c);
}

bool isPunctuation(UChar32 c) {
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
        (c >= 123 && c <= 126)) {
        return true;
    }
    switch (u_charType(c)) {
        case U_CONNECTOR_PUNCTUATION:
        case U_DASH_PUNCTUATION:
        case U_START_PUNCTUATION:
        case U_END_PUNCTUATION:
        case U_INITIAL_PUNCTUATION:
        case U_FINAL_PUNCTUATION:
        case U_OTHER_PUNCTUATION:
            return true;
        default:
            return false;
    }
}

bool isCjk(UChar32 c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

}  // namespace

plugin::Result<std::unique_ptr<WordpieceTokenizer>> WordpieceTokenizer::load(
    const std::string& vocab_path, Options options) {
    std::ifstream in(vocab_path);
    if (!in) {
        return plugin::Error{"model_unreadable", "cannot read vocabulary " + vocab_path, 500};
    }
    std::unique_ptr<WordpieceTokenizer> tok(new WordpieceTokenizer());
    tok->options_ = options;
    std::string line;
    int32_t id = 0;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        tok->vocab_.emplace(line, id++);
    }
    for (const char* name : {"[CLS]", "[SEP]", "[UNK]", "[PAD]"}) {
        if (tok->vocab_.count(name) == 0) {
            return plugin::Error{"model_unreadable",
                                 "vocabulary " + vocab_path + " lacks " + std::string(name), 500};
        }
    }
    tok->cls_id_ = tok->vocab_["[CLS]"];
    tok->sep_id_ = tok->vocab_["[SEP]"];
    tok->unk_id_ = tok->vocab_["[UNK]"];
    tok->pad_id_ = tok->vocab_["[PAD]"];
    for (const char* name : {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}) {
        auto it = tok->vocab_.find(name);
        if (it != tok->vocab_.end())
            tok->specials_.emplace_back(common::codePoints(name), it->second);
    }
    return tok;
}

std::vector<int32_t> WordpieceTokenizer::encode(const std::string& text) const {
    std::vector<int32_t> ids = encodeUntruncated(text);
    auto limit = static_cast<size_t>(std::max(options_.max_tokens, 2) - 1);
    if (ids.size() > limit) ids.resize(limit);
    ids.push_back(sep_id_);
    return ids;
}

int WordpieceTokenizer::countTokens(const std::string& text) const {
    return static_cast<int>(encodeUntruncated(text).size()) - 1;  // less [CLS]
}

std::vector<int32_t> WordpieceTokenizer::encodeUntruncated(const std::string& text) const {
    std::u32string raw = common::codePoints(text);
    std::vector<int32_t> ids;
    ids.reserve(raw.size() / 3 + 2);
    ids.push_back(cls_id_);
    // Special tokens written in the text stay whole, as HF matches them before normalising.
    size_t segment_start = 0;
    for (size_t i = 0; i < raw.size();) {
        size_t matched = 0;
        int32_t matched_id = 0;
        if (raw[i] == U'[') {
            for (const auto& [token, token_id] : specials_) {
                if (token.size() > matched && raw.compare(i, token.size(), token) == 0) {
                    matched = token.size();
                    matched_id = token_id;
                }
            }
        }
        if (matched == 0) {
            ++i;
            continue;
        }
        encodeSegment(raw.substr(segment_start, i - segment_start), ids);
        ids.push_back(matched_id);
        i += matched;
        segment_start = i;
    }
    encodeSegment(raw.substr(segment_start), ids);
    return ids;
}

void WordpieceTokenizer::normalize(const std::u32string& in, std::u32string& out) const {
    out.clear();
    out.reserve(in.size() + 8);
    bool ascii = true;
    for (char32_t ch : in) {
        auto c = static_cast<UChar32>(ch);
        if (c == 0 || c == 0xFFFD || isControl(c)) continue;
        if (isWhitespace(c)) {
            out.push_back(U' ');
        } else if (options_.split_cjk && isCjk(c)) {
            out.push_back(U' ');
            out.push_back(ch);
            out.push_back(U' ');
        } else {
            out.push_back(ch);
        }
        ascii = ascii && c < 0x80;
    }
    if (options_.strip_accents && !ascii) {
        UErrorCode status = U_ZERO_ERROR;
        const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
        icu::UnicodeString decomposed;
        if (U_SUCCESS(status)) {
            decomposed = nfd->normalize(
                icu::UnicodeString::fromUTF32(reinterpret_cast<const UChar32*>(out.data()),
                                              static_cast<int32_t>(out.size())),
                status);
        }
        if (U_FAILURE(status)) throw std::runtime_error("ICU NFD normaliser unavailable");
        out.clear();
        for (int32_t i = 0; i < decomposed.length();) {
            UChar32 c = decomposed.char32At(i);
            i += U16_LENGTH(c);
            if (u_charType(c) != U_NON_SPACING_MARK) out.push_back(static_cast<char32_t>(c));
        }
    }
    if (options_.lower_case) {
        std::u32string lowered;
        lowered.reserve(out.size());
        for (char32_t ch : out) {
            if (ch < 0x80) {
                lowered.push_back(ch >= U'A' && ch <= U'Z' ? ch + 32 : ch);
            } else if (ch == 0x130) {  // the one unconditional multi-character lower case
                lowered.push_back(U'i');
                lowered.push_back(0x307);
            } else {
                lowered.push_back(static_cast<char32_t>(u_tolower(static_cast<UChar32>(ch))));
            }
        }
        out.swap(lowered);
    }
}

void WordpieceTokenizer::encodeSegment(const std::u32string& text,
                                       std::vector<int32_t>& out) const {
    if (text.empty()) return;
    std::u32string normalized;
    normalize(text, normalized);
    std::u32string word;
    for (char32_t ch : normalized) {
        auto c = static_cast<UChar32>(ch);
        if (isWhitespace(c)) {
            wordpiece(word, out);
            word.clear();
        } else if (isPunctuation(c)) {
            wordpiece(word, out);
            word.assign(1, ch);
            wordpiece(word, out);
            word.clear();
        } else {
            word.push_back(ch);
        }
    }
    wordpiece(word, out);
}

void WordpieceTokenizer::wordpiece(const std::u32string& word, std::vector<int32_t>& out) const {
    if (word.empty()) return;
    if (word.size() > kMaxCharsPerWord) {
        out.push_back(unk_id_);
        return;
    }
    // Byte offset of each character, so candidate pieces are substrings of one UTF-8 string.
    std::string utf8;
    std::vector<size_t> offsets;
    offsets.reserve(word.size() + 1);
    for (char32_t ch : word) {
        offsets.push_back(utf8.size());
        common::appendUtf8(utf8, ch);
    }
    offsets.push_back(utf8.size());

    size_t first_piece = out.size();
    std::string piece;
    size_t start = 0;
    while (start < word.size()) {
        size_t end = word.size();
        int32_t found = -1;
        while (end > start) {
            piece.assign(start > 0 ? "##" : "");
            piece.append(utf8, offsets[start], offsets[end] - offsets[start]);
            auto it = vocab_.find(piece);
            if (it != vocab_.end()) {
                found = it->second;
                break;
            }
            --end;
        }
        if (found < 0) {
            out.resize(first_piece);
            out.push_back(unk_id_);
            return;
        }
        out.push_back(found);
        start = end;
    }
}

}  // namespace docintel::embed
