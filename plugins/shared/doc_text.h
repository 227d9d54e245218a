#pragma once

// A run document's passages joined into one text (the overlap between consecutive chunks read
// once), with its lines, so that a plugin can parse sections and bullets across chunk
// boundaries and still cite the chunk and page a span came from. Header-only.

#include <algorithm>
#include <string>
#include <vector>

#include "shared/evidence.h"
#include "shared/form_marks.h"

namespace docintel::plugins {

struct DocText {
    std::string document_id;
    std::vector<plugin::Passage> passages;
    std::string text;
    std::vector<std::size_t> starts;  ///< where each passage's new text begins in `text`

    struct Line {
        std::size_t pos = 0;
        std::string text;  ///< without the newline, trimmed of trailing spaces
    };

    /// Whether a passage starts at `pos`. A chunk starts at each heading block (and page), so a
    /// short line that opens one is a heading even where the parser dropped its "#".
    bool opensPassage(std::size_t pos) const {
        return std::binary_search(starts.begin(), starts.end(), pos);
    }

    /// The passage that holds position `pos` of `text`.
    const plugin::Passage& passageAt(std::size_t pos) const {
        std::size_t i = 0;
        while (i + 1 < starts.size() && starts[i + 1] <= pos) ++i;
        return passages[i];
    }

    /// `{document_id, page, chunk_id, excerpt}` of the span [pos, pos+len) of `text`; the
    /// excerpt is widened to `max` characters of context.
    nlohmann::json source(std::size_t pos, std::size_t len, std::size_t max = 240) const {
        const plugin::Passage& p = passageAt(pos);
        return {{"document_id", p.document_id},
                {"page", p.page},
                {"chunk_id", p.chunk_id},
                {"excerpt", excerpt(text, pos, len, max)}};
    }

    /// Where the line that holds position `pos` of `text` starts.
    std::size_t lineStart(std::size_t pos) const {
        const std::size_t nl = pos == 0 ? std::string::npos : text.rfind('\n', pos - 1);
        return nl == std::string::npos ? 0 : nl + 1;
    }

    std::vector<Line> lines() const {
        std::vector<Line> out;
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            std::string line = text.substr(start, end - start);
            while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) {
                line.pop_back();
            }
            out.push_back({start, std::move(line)});
            if (end == text.size()) break;
            start = end + 1;
        }
        return out;
    }
};

/// The length of the longest suffix of `before` (at least 20 characters) that `after` starts
/// with: what consecutive chunks share.
inline std::size_t chunkOverlap(const std::string& before, const std::string& after) {
    const std::size_t most = std::min(before.size(), after.size());
    for (std::size_t k = most; k >= 20; --k) {
        if (before.compare(before.size() - k, k, after, 0, k) == 0) return k;
    }
    return 0;
}

/// Puts back the line breaks a parser folded into spaces (PDF text arrives as one paragraph per
/// page): a break before each " - " / " • " bullet that starts a capitalised item or a number,
/// and around each of `headings` (exact case, e.g. "Required Qualifications") that stands
/// between words, optionally with a parenthetical, and is followed by a capitalised word, a
/// digit or a bullet. Only spaces are replaced, so offsets (and citations) do not move.
inline void restoreLines(std::string& text, const std::vector<std::string>& headings) {
    auto startsItem = [&](std::size_t at) {
        return at < text.size() &&
               (std::isupper(static_cast<unsigned char>(text[at])) ||
                std::isdigit(static_cast<unsigned char>(text[at])) || text[at] == '-' ||
                text[at] == '(' || text.compare(at, 3, "\xE2\x80\xA2") == 0);
    };
    for (std::size_t i = 0; i + 2 < text.size(); ++i) {
        if (text[i] != ' ') continue;
        const bool dash = text[i + 1] == '-' && text[i + 2] == ' ';
        const bool dot = text.compare(i + 1, 3, "\xE2\x80\xA2") == 0 && i + 4 < text.size() &&
                         text[i + 4] == ' ';
        if (dash && startsItem(i + 3)) text[i] = '\n';
        if (dot && startsItem(i + 5)) text[i] = '\n';
    }
    // Each heading as written: Title Case, Sentence case and UPPER CASE; longest first, and a
    // heading inside one already placed ("Experience" in "Prior Experience") is skipped.
    std::vector<std::string> forms;
    for (const auto& h : headings) {
        std::string title = h, sentence = h, upper = h;
        std::size_t word_at = 0;
        for (std::size_t k = 0; k <= h.size(); ++k) {
            if (k < h.size() && h[k] != ' ') continue;
            const std::string word = h.substr(word_at, k - word_at);
            const bool small = word == "and" || word == "the" || word == "of" || word == "to";
            if (word_at < h.size() && (!small || word_at == 0)) {
                title[word_at] =
                    static_cast<char>(std::toupper(static_cast<unsigned char>(h[word_at])));
            }
            word_at = k + 1;
        }
        sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
        for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        for (const auto& f : {title, sentence, upper}) {
            if (std::find(forms.begin(), forms.end(), f) == forms.end()) forms.push_back(f);
        }
    }
    std::stable_sort(forms.begin(), forms.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    std::vector<char> taken(text.size(), 0);
    for (const auto& h : forms) {
        for (std::size_t at = text.find(h); at != std::string::npos; at = text.find(h, at + 1)) {
            const bool before = at == 0 || text[at - 1] == '\n' ||
                                (text[at - 1] == ' ' && !(at >= 2 && text[at - 2] == '-'));
            if (!before || taken[at]) continue;
            std::size_t end = at + h.size();
            if (end + 1 < text.size() && text[end] == ' ' && text[end + 1] == '(') {
                const auto close = text.find(')', end);
                if (close == std::string::npos || close - end > 60) continue;
                end = close + 1;
            }
            if (end >= text.size()) continue;
            if ((text[end] != ' ' && text[end] != '\n') || !startsItem(end + 1)) continue;
            if (at > 0) text[at - 1] = '\n';
            text[end] = '\n';
            std::fill(taken.begin() + static_cast<std::ptrdiff_t>(at),
                      taken.begin() + static_cast<std::ptrdiff_t>(end), 1);
        }
    }
}

/// The document's passages (from the host's evidence finder) joined into a DocText. A passage
/// that overlaps the one before continues its text where it stopped, often inside a line
/// ("Base rent ..... " | "$28.00 per sf"), so no line break is put between them. A form's filled-in
/// blanks read as their values (fillInBlanks).
inline plugin::Result<DocText> loadDocText(plugin::EvidenceFinder& finder,
                                           const std::string& document_id) {
    auto passages = finder.passages(document_id);
    if (!passages) return passages.error();
    DocText doc;
    doc.document_id = document_id;
    std::string previous;
    for (auto& p : passages.value()) {
        const std::size_t skip = chunkOverlap(previous, p.text);
        previous = p.text;
        if (skip > 0 && !doc.text.empty() && doc.text.back() == '\n') doc.text.pop_back();
        doc.starts.push_back(doc.text.size());
        doc.text += p.text.substr(skip) + "\n";
        doc.passages.push_back(std::move(p));
    }
    fillInBlanks(doc.text);
    return doc;
}

/// The run without its primary documents that it also names under `role` (a job description,
/// a payer policy): such a document is read for what that role states, not for the primary
/// documents' subject (a candidate, a patient).
inline plugin::StepInput withoutRole(const plugin::StepInput& in, const std::string& role) {
    plugin::StepInput out = in;
    std::vector<std::string> named;
    for (const auto& d : in.documents) {
        if (d.role == role) named.push_back(d.document_id);
    }
    out.documents.erase(std::remove_if(out.documents.begin(), out.documents.end(),
                                       [&](const plugin::StepDocument& d) {
                                           return d.role == "primary" &&
                                                  std::find(named.begin(), named.end(),
                                                            d.document_id) != named.end();
                                       }),
                        out.documents.end());
    return out;
}

/// The run's documents with `role`, each joined (loadDocText); with `headings`, the line breaks a
/// parser folded are put back (restoreLines).
inline plugin::Result<std::vector<DocText>> loadDocTexts(
    plugin::HostServices& host, const plugin::StepInput& in, const std::string& role,
    const std::vector<std::string>& headings = {}) {
    auto* finder = host.evidence();
    if (!finder) return plugin::Error::unavailable("evidence_unavailable", "no evidence finder");
    std::vector<DocText> out;
    for (const auto& d : in.documents) {
        if (d.role != role) continue;
        auto doc = loadDocText(*finder, d.document_id);
        if (!doc) return doc.error();
        if (!headings.empty()) restoreLines(doc->text, headings);
        out.push_back(std::move(doc).value());
    }
    return out;
}

/// Several documents' texts as one, each passage still citable.
inline DocText joined(std::vector<DocText> docs) {
    DocText all;
    for (auto& d : docs) {
        if (all.document_id.empty()) all.document_id = d.document_id;
        for (std::size_t i = 0; i < d.passages.size(); ++i) {
            all.starts.push_back(all.text.size() + d.starts[i]);
            all.passages.push_back(std::move(d.passages[i]));
        }
        all.text += d.text;
    }
    return all;
}

inline std::string lowerCase(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// The heading (of `headings`, lower case) a line is, or "": a short line without a full stop or
/// colon that starts with it.
inline std::string headingOf(const std::string& line, const std::vector<std::string>& headings) {
    const std::string l = lowerCase(trimmed(line));
    if (l.empty() || l.size() > 60 || l.back() == '.' || l.find(':') != std::string::npos) {
        return {};
    }
    std::string best;
    for (const auto& h : headings) {
        if (l.compare(0, h.size(), h) == 0 && h.size() > best.size() &&
            (l.size() == h.size() || !std::isalpha(static_cast<unsigned char>(l[h.size()])))) {
            best = h;
        }
    }
    return best;
}

/// The text of `lines` (consecutive lines of `doc`) as one string with line breaks as spaces,
/// and where it starts in `doc.text`.
inline std::pair<std::string, std::size_t> block(const DocText& doc,
                                                 const std::vector<DocText::Line>& lines) {
    if (lines.empty()) return {std::string(), 0};
    const std::size_t begin = lines.front().pos;
    const std::size_t end = lines.back().pos + lines.back().text.size();
    std::string out = doc.text.substr(begin, end - begin);
    for (auto& c : out) {
        if (c == '\n') c = ' ';
    }
    return {out, begin};
}

/// The lines of the section under the first heading that starts with one of `names`, up to the
/// next heading.
inline std::vector<DocText::Line> section(const DocText& doc,
                                          const std::vector<std::string>& headings,
                                          const std::vector<std::string>& names) {
    std::vector<DocText::Line> out;
    bool inside = false;
    for (auto& line : doc.lines()) {
        const std::string h = headingOf(line.text, headings);
        if (!h.empty()) {
            if (inside) break;
            for (const auto& n : names) inside = inside || h.compare(0, n.size(), n) == 0;
            continue;
        }
        if (inside) out.push_back(std::move(line));
    }
    return out;
}

/// Bullet items of a section ("- ", "• ", "* "), a wrapped item's next lines joined to it; the
/// list ends at a line that is no bullet after an item that ended its sentence.
struct Item {
    std::string text;
    std::size_t pos = 0;
    std::size_t len = 0;
};

/// The length of a bullet marker and the spaces after it at the start of `line`, or 0.
inline std::size_t bulletMarker(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t m = 0;
    if (line.compare(i, 1, "-") == 0 || line.compare(i, 1, "*") == 0) {
        m = 1;
    } else if (line.compare(i, 3, "\xE2\x80\xA2") == 0) {
        m = 3;
    } else if (line.compare(i, 2, "\xC2\xB7") == 0) {
        m = 2;
    } else {
        std::size_t d = i;
        while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
        if (d > i && d < line.size() && (line[d] == '.' || line[d] == ')')) m = d + 1 - i;
    }
    if (m == 0 || i + m >= line.size() || line[i + m] != ' ') return 0;
    std::size_t end = i + m;
    while (end < line.size() && line[end] == ' ') ++end;
    return end;
}

inline std::vector<Item> bullets(const std::vector<DocText::Line>& lines) {
    std::vector<Item> out;
    for (const auto& line : lines) {
        if (const std::size_t skip = bulletMarker(line.text); skip > 0) {
            out.push_back({line.text.substr(skip), line.pos + skip, line.text.size() - skip});
        } else if (!out.empty() && !trimmed(line.text).empty() && !out.back().text.empty() &&
                   out.back().text.back() != '.') {
            out.back().text += " " + trimmed(line.text);
            out.back().len = line.pos + line.text.size() - out.back().pos;
        } else if (!out.empty()) {
            break;
        }
    }
    for (auto& i : out) i.text = trimmed(i.text);
    return out;
}

}  // namespace docintel::plugins
