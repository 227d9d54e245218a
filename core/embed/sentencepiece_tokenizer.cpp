#include "embed/sentencepiece_tokenizer.h"

#include <algorithm>
#include <limits>

#include "common/utf8.h"

namespace docintel::embed {

namespace {

constexpr char32_t kMetaspace = 0x2581;

}  // namespace

SentencepieceTokenizer::SentencepieceTokenizer(SentencepieceVocabulary vocabulary, int max_tokens)
    : vocabulary_(std::move(vocabulary)), max_tokens_(std::max(max_tokens, 2)) {
    float least = 0.0f;
    for (size_t i = 0; i < vocabulary_.pieces.size(); ++i) {
        const std::string& piece = vocabulary_.pieces[i];
        if (i < vocabulary_.scores.size()) least = std::min(least, vocabulary_.scores[i]);
        max_piece_bytes_ = std::max(max_piece_bytes_, piece.size());
        if (!piece.empty()) ids_.emplace(piece, static_cast<int32_t>(i));
    }
    unk_score_ = least - 10.0f;
}

std::vector<int32_t> SentencepieceTokenizer::segment(const std::string& text) const {
    // Normalise, collapse spaces, and write the metaspace form; char_at[i] is where the i-th
    // character starts in `normal`, the Viterbi lattice's nodes.
    std::u32string chars;
    for (char32_t cp : common::codePoints(text)) {
        auto it = vocabulary_.normalization.find(cp);
        const std::u32string single(1, cp);
        for (char32_t out : it == vocabulary_.normalization.end() ? single : it->second) {
            if (out == U' ' && !chars.empty() && chars.back() == U' ') continue;
            chars.push_back(out);
        }
    }
    std::string normal;
    std::vector<size_t> char_at;
    if (chars.empty() || chars.front() != U' ') {
        char_at.push_back(0);
        common::appendUtf8(normal, kMetaspace);
    }
    for (char32_t c : chars) {
        char_at.push_back(normal.size());
        common::appendUtf8(normal, c == U' ' ? kMetaspace : c);
    }
    const size_t n = char_at.size();
    char_at.push_back(normal.size());

    // best[e]: the highest score of a segmentation of the first e characters, whose last piece
    // is piece[e] (-1: <unk>) starting at character from[e].
    constexpr float kUnreached = -std::numeric_limits<float>::infinity();
    std::vector<float> best(n + 1, kUnreached);
    std::vector<int32_t> piece(n + 1, -1);
    std::vector<size_t> from(n + 1, 0);
    best[0] = 0.0f;
    const std::string_view view(normal);
    for (size_t i = 0; i < n; ++i) {
        if (best[i] == kUnreached) continue;
        for (size_t e = i + 1; e <= n; ++e) {
            const size_t len = char_at[e] - char_at[i];
            if (len > max_piece_bytes_) break;
            auto it = ids_.find(view.substr(char_at[i], len));
            if (it == ids_.end() || it->second == vocabulary_.unk) continue;
            const float score = best[i] + vocabulary_.scores[static_cast<size_t>(it->second)];
            if (score > best[e]) {
                best[e] = score;
                piece[e] = it->second;
                from[e] = i;
            }
        }
        if (best[i] + unk_score_ > best[i + 1]) {
            best[i + 1] = best[i] + unk_score_;
            piece[i + 1] = -1;
            from[i + 1] = i;
        }
    }
    std::vector<int32_t> ids;
    for (size_t e = n; e > 0; e = from[e]) ids.push_back(piece[e] < 0 ? vocabulary_.unk : piece[e]);
    std::reverse(ids.begin(), ids.end());
    return ids;
}

std::vector<int32_t> SentencepieceTokenizer::encode(const std::string& text) const {
    std::vector<int32_t> content = segment(text);
    const auto keep = std::min(content.size(), static_cast<size_t>(max_tokens_ - 2));
    std::vector<int32_t> ids;
    ids.reserve(keep + 2);
    ids.push_back(vocabulary_.bos);
    ids.insert(ids.end(), content.begin(), content.begin() + static_cast<std::ptrdiff_t>(keep));
    ids.push_back(vocabulary_.eos);
    return ids;
}

int SentencepieceTokenizer::countTokens(const std::string& text) const {
    return static_cast<int>(segment(text).size());
}

}  // namespace docintel::embed
