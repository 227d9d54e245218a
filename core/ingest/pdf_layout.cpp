#include "ingest/pdf_layout.h"

#include <algorithm>
#include <cmath>

namespace docintel::ingest {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

struct Line {
    double x0, y0, x1, y1;
    std::vector<const Word*> words;  // left to right
    double size = 0;                 // median word height: font size, robust to superscripts
    double height() const { return size; }
};

std::vector<Line> groupLines(const std::vector<const Word*>& words) {
    std::vector<const Word*> sorted = words;
    std::sort(sorted.begin(), sorted.end(), [](const Word* a, const Word* b) {
        double ca = (a->y0 + a->y1) / 2, cb = (b->y0 + b->y1) / 2;
        return ca != cb ? ca < cb : a->x0 < b->x0;
    });
    std::vector<Line> lines;
    for (const Word* w : sorted) {
        double c = (w->y0 + w->y1) / 2;
        if (!lines.empty()) {
            Line& l = lines.back();
            if (c >= l.y0 && c <= l.y1) {
                l.words.push_back(w);
                l.x0 = std::min(l.x0, w->x0);
                l.x1 = std::max(l.x1, w->x1);
                continue;
            }
        }
        lines.push_back(Line{w->x0, w->y0, w->x1, w->y1, {w}});
    }
    for (auto& l : lines) {
        std::sort(l.words.begin(), l.words.end(),
                  [](const Word* a, const Word* b) { return a->x0 < b->x0; });
        std::vector<double> heights;
        for (const Word* w : l.words) heights.push_back(w->y1 - w->y0);
        l.size = median(heights);
    }
    return lines;
}

/// A cell of a line: words closer than a wide gap, and their horizontal extent.
struct Cell {
    double x0 = 0, x1 = 0;
    std::string text;
};

std::vector<Cell> lineCells(const Line& line, std::string& text) {
    double h = line.height();
    std::vector<Cell> cells;
    for (std::size_t i = 0; i < line.words.size(); ++i) {
        const Word* w = line.words[i];
        // Cells are separated by gaps much wider than a (justified) word space.
        if (i == 0 || w->x0 - line.words[i - 1]->x1 > std::max(1.5 * h, 10.0)) {
            cells.push_back(Cell{w->x0, w->x1, {}});
        }
        if (i > 0) text += ' ';
        Cell& cell = cells.back();
        if (!cell.text.empty()) cell.text += ' ';
        cell.text += w->text;
        cell.x1 = std::max(cell.x1, w->x1);
        text += w->text;
    }
    return cells;
}

std::vector<std::string> cellTexts(const std::vector<Cell>& cells) {
    std::vector<std::string> out;
    for (const auto& c : cells) out.push_back(c.text);
    return out;
}

/// The table being read on a page. Its header is the first row that reads as a header
/// (readsAsHeaderRow) and the lines right under it that continue it (continuesHeader: "DATE"
/// over "POSTED", "Registered" over "users (000s)"); a data cell is labelled with the header
/// words above it,
/// so a row reads "DATE POSTED: 05/03/2019 | AMOUNT ($): 920.68" wherever its cells sit.
/// Kept across the page's regions (blank space splits a table into bands); a heading or a
/// paragraph of more than a few words ends it, a lone page number or mark does not.
struct PageTable {
    std::vector<std::vector<Cell>> header;  ///< the header's lines, top to bottom
    bool growing = false;  ///< the last table line was a header line: the next may add to it
    double header_bottom = 0;

    void end() {
        header.clear();
        growing = false;
    }

    /// The label of a data cell: on each header line, the cell overlapping it most, top to
    /// bottom; when no header cell overlaps it, the nearest cell of the first line.
    std::string label(const Cell& cell) const {
        std::string out;
        for (const auto& line : header) {
            const Cell* best = nullptr;
            double best_overlap = 0;
            for (const Cell& h : line) {
                const double overlap = std::min(cell.x1, h.x1 + 1) - std::max(cell.x0, h.x0 - 1);
                if (overlap > best_overlap) {
                    best_overlap = overlap;
                    best = &h;
                }
            }
            if (best == nullptr) continue;
            if (!out.empty()) out += ' ';
            out += best->text;
        }
        if (!out.empty() || header.empty()) return out;
        const Cell* nearest = nullptr;
        double distance = 1e9;
        for (const Cell& h : header.front()) {
            const double d = std::fabs((h.x0 + h.x1) / 2 - (cell.x0 + cell.x1) / 2);
            if (d < distance) {
                distance = d;
                nearest = &h;
            }
        }
        return nearest == nullptr ? "" : nearest->text;
    }

    std::vector<std::string> labels(const std::vector<Cell>& cells) const {
        std::vector<std::string> out;
        for (const auto& c : cells) out.push_back(label(c));
        return out;
    }
};

/// Whether a line of cells right under a table's header reads as more of it: no figure outside
/// brackets, and fewer cells than the header's first line ("DATE" over "POSTED") or a unit in
/// brackets ("users (000s)", "expend. ($M)"), which no data row holds.
bool continuesHeader(const std::vector<std::string>& cells, const PageTable& table) {
    bool unit = false;
    for (const auto& cell : cells) {
        int depth = 0;
        for (const char c : cell) {
            if (c == '(') {
                ++depth;
            } else if (c == ')') {
                depth = std::max(0, depth - 1);
                unit = true;
            } else if (depth == 0 && std::isdigit(static_cast<unsigned char>(c))) {
                return false;
            }
        }
    }
    return unit || cells.size() < table.header.front().size();
}

struct Cut {
    std::vector<const Word*> first, second;
    std::vector<std::vector<const Word*>> bands;  // set instead when lines cross the gutter
};

// Gutters: x-ranges at least `min_gap` wide crossed by the fewest words (at most
// `tolerance`), widest first.
std::vector<std::pair<double, double>> gutters(const std::vector<const Word*>& words,
                                               double min_gap, int tolerance) {
    std::vector<std::pair<double, int>> events;
    for (const Word* w : words) {
        events.emplace_back(w->x0, +1);
        events.emplace_back(w->x1, -1);
    }
    std::sort(events.begin(), events.end());
    struct Segment {
        double x0, x1;
        int cover;
    };
    std::vector<Segment> segments;
    int cover = 0;
    for (std::size_t i = 0; i + 1 < events.size(); ++i) {
        cover += events[i].second;
        if (events[i + 1].first > events[i].first) {
            segments.push_back({events[i].first, events[i + 1].first, cover});
        }
    }
    for (int t = 0; t <= tolerance; ++t) {
        std::vector<std::pair<double, double>> out;
        for (std::size_t i = 0; i < segments.size();) {
            if (segments[i].cover > t) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j + 1 < segments.size() && segments[j + 1].cover <= t) ++j;
            if (segments[j].x1 - segments[i].x0 >= min_gap) {
                out.emplace_back(segments[i].x0, segments[j].x1);
            }
            i = j + 1;
        }
        if (!out.empty()) {
            std::sort(out.begin(), out.end(), [](const auto& g, const auto& h) {
                return g.second - g.first > h.second - h.first;
            });
            return out;
        }
    }
    return {};
}

// Splits `words` into bands top to bottom: the lines holding a crossing word are bands of
// their own, so a full-width title or header above columns is read before them.
std::vector<std::vector<const Word*>> bandsAround(const std::vector<const Word*>& words,
                                                  const std::vector<const Word*>& crossing) {
    std::vector<std::pair<double, double>> spans;
    for (const Word* w : crossing) spans.emplace_back(w->y0, w->y1);
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& s : spans) {
        if (!merged.empty() && s.first <= merged.back().second) {
            merged.back().second = std::max(merged.back().second, s.second);
        } else {
            merged.push_back(s);
        }
    }
    // Band index: 2k = above merged[k], 2k+1 = inside merged[k].
    std::vector<std::vector<const Word*>> bands(2 * merged.size() + 1);
    for (const Word* w : words) {
        double c = (w->y0 + w->y1) / 2;
        std::size_t idx = 2 * merged.size();
        for (std::size_t k = 0; k < merged.size(); ++k) {
            if (c < merged[k].first) {
                idx = 2 * k;
                break;
            }
            if (c <= merged[k].second) {
                idx = 2 * k + 1;
                break;
            }
        }
        bands[idx].push_back(w);
    }
    std::vector<std::vector<const Word*>> out;
    for (auto& b : bands) {
        if (!b.empty()) out.push_back(std::move(b));
    }
    return out;
}

// A column gutter: accepted only when both sides read like text columns (several lines of
// several words), so the cells of a table are not read as columns.
bool verticalCut(const std::vector<const Word*>& words, double min_gap, Cut& cut) {
    double left = 1e9, right = -1e9;
    for (const Word* w : words) {
        left = std::min(left, w->x0);
        right = std::max(right, w->x1);
    }
    int tolerance = std::max(2, static_cast<int>(words.size() / 150));
    for (const auto& [g0, g1] : gutters(words, min_gap, tolerance)) {
        Cut c;
        std::vector<const Word*> crossing;
        for (const Word* w : words) {
            if (w->x1 <= g0 + 0.01) {
                c.first.push_back(w);
            } else if (w->x0 >= g1 - 0.01) {
                c.second.push_back(w);
            } else {
                crossing.push_back(w);
            }
        }
        auto text_like = [&](const std::vector<const Word*>& side, double width) {
            if (side.empty() || width < 0.15 * (right - left)) return false;
            auto lines = groupLines(side);
            if (lines.size() < 3) return false;
            std::vector<double> counts;
            std::size_t celled = 0;
            for (const auto& l : lines) {
                counts.push_back(static_cast<double>(l.words.size()));
                std::string text;
                if (lineCells(l, text).size() > 2) ++celled;
            }
            // Several words a line, and few lines of three or more cells (a table; two cells
            // may be two text columns still to be cut).
            return median(counts) >= 4 && celled * 10 <= lines.size() * 3;
        };
        if (!text_like(c.first, g0 - left) || !text_like(c.second, right - g1)) continue;
        if (!crossing.empty()) {
            c.bands = bandsAround(words, crossing);
            if (c.bands.size() < 2) continue;
        }
        cut = std::move(c);
        return true;
    }
    return false;
}

// Splits at horizontal gaps taller than `min_gap`, top to bottom.
std::vector<std::vector<const Word*>> horizontalBands(const std::vector<const Word*>& words,
                                                      double min_gap) {
    std::vector<const Word*> sorted = words;
    std::sort(sorted.begin(), sorted.end(),
              [](const Word* a, const Word* b) { return a->y0 < b->y0; });
    std::vector<std::vector<const Word*>> bands;
    double reach = -1e9;
    for (const Word* w : sorted) {
        if (bands.empty() || w->y0 - reach >= min_gap) bands.emplace_back();
        bands.back().push_back(w);
        reach = std::max(reach, w->y1);
    }
    return bands;
}

/// Whether `text` ends in a hyphen or an en dash right after a letter or digit ("2020–", "M-").
bool endsInJoiningDash(const std::string& text) {
    static const std::string kEnDash = "\xE2\x80\x93";
    std::size_t dash = 0;
    if (!text.empty() && text.back() == '-') {
        dash = 1;
    } else if (text.size() >= kEnDash.size() &&
               text.compare(text.size() - kEnDash.size(), kEnDash.size(), kEnDash) == 0) {
        dash = kEnDash.size();
    }
    return dash > 0 && text.size() > dash &&
           std::isalnum(static_cast<unsigned char>(text[text.size() - dash - 1]));
}

/// Whether `line` starts right under a line ending at `bottom` (less than 0.6 of a line's
/// height between them): the next line of the same row or header, not a new one.
bool rightUnder(const Line& line, double bottom) {
    return line.y0 - bottom < 0.6 * std::max(line.height(), 1.0);
}

/// The cell of the data row `row` (its last line ending at `row_bottom`) that the one-cell line
/// `line` right under it continues: the one starting where the line starts. Null otherwise.
Cell* continuedCell(std::vector<Cell>& row, double row_bottom, const Line& line,
                    const std::vector<Cell>& line_cells) {
    const double h = line.height();
    if (row.empty() || line_cells.size() != 1 || !rightUnder(line, row_bottom)) return nullptr;
    const auto it = std::find_if(row.begin(), row.end(), [&](const Cell& c) {
        return std::fabs(c.x0 - line_cells.front().x0) < std::max(2.0, 0.3 * h);
    });
    return it == row.end() ? nullptr : &*it;
}

void emitLines(const std::vector<const Word*>& words, double body_height, PageTable& table,
               BlockBuilder& out) {
    auto lines = groupLines(words);
    std::vector<std::vector<Cell>> cells(lines.size());
    std::vector<std::string> texts(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) cells[i] = lineCells(lines[i], texts[i]);
    // A row of cells is a table row next to another one, or under a table's header; a lone wide
    // gap is layout.
    auto multi = [&](std::size_t i) { return i < lines.size() && cells[i].size() > 1; };
    // In a run of lines that end well short of the region's right edge each line is its own
    // paragraph: the rows of a table set with narrow gaps ("Anastrozole 1 mg once daily
    // continue") and the lines of a list stay lines. (A paragraph's one short line is its last.)
    double left = 0, right = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        left = i == 0 ? lines[i].x0 : std::min(left, lines[i].x0);
        right = i == 0 ? lines[i].x1 : std::max(right, lines[i].x1);
    }
    const auto short_line = [&](const Line& l) { return l.x1 - left < 0.85 * (right - left); };
    std::string para;
    const Line* prev = nullptr;
    // The data row being read: a one-cell line right under it that starts where one of its
    // cells starts continues that cell (a description wrapped onto a second line).
    std::vector<Cell> row;
    double row_bottom = 0;
    auto flush_row = [&] {
        if (!row.empty()) out.labelledRow(cellTexts(row), table.labels(row));
        row.clear();
    };
    auto flush = [&] {
        if (!para.empty()) out.paragraph(para);
        para.clear();
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const Line& line = lines[i];
        const std::string& text = texts[i];
        double h = line.height();
        // A short line in a larger type than the body is a heading; one a size up (12 pt over
        // 10.5 pt) only when it stands alone in its size, so that a paragraph in larger type
        // than small print around it stays a paragraph. Otherwise such a sub-heading was folded
        // into the paragraph above it ("... it is used. ARTICLE 2 - USE 2.1 Tenant ...").
        auto same_size = [&](std::size_t j) {
            return j < lines.size() && std::fabs(lines[j].height() - h) <= 0.05 * h;
        };
        bool heading =
            line.words.size() <= 12 && body_height > 0 &&
            (h > 1.3 * body_height ||
             (h > 1.1 * body_height && !(i > 0 && same_size(i - 1)) && !same_size(i + 1)));
        if (multi(i) && ((i > 0 && multi(i - 1)) || multi(i + 1) || !table.header.empty())) {
            flush();
            flush_row();
            const auto texts_i = cellTexts(cells[i]);
            const bool header_like = readsAsHeaderRow(texts_i);
            if (table.header.empty() && header_like) {
                table.header = {cells[i]};
                table.growing = true;
                out.labelledRow(texts_i, {});
            } else if (table.growing && header_like && continuesHeader(texts_i, table) &&
                       rightUnder(line, table.header_bottom)) {
                table.header.push_back(cells[i]);
                out.labelledRow(texts_i, {});
            } else {
                table.growing = false;
                row = cells[i];
                row_bottom = line.y1;
            }
            if (table.growing) table.header_bottom = line.y1;
        } else if (Cell* wrapped = continuedCell(row, row_bottom, line, cells[i])) {
            wrapped->text += ' ' + cells[i].front().text;
            wrapped->x1 = std::max(wrapped->x1, cells[i].front().x1);
            row_bottom = line.y1;
        } else if (heading) {
            flush();
            flush_row();
            table.end();
            out.heading(h > 1.8 * body_height ? 1 : 2, text);
        } else {
            flush_row();
            // A paragraph of a few words (a page number, a mark) between rows keeps the table.
            if (line.words.size() > 3) table.end();
            table.growing = false;
            bool new_para =
                prev == nullptr || line.y0 - prev->y1 > 0.8 * std::max(h, 1.0) ||
                std::fabs(h - prev->height()) > 0.3 * std::max(h, 1.0) ||
                (i > 0 && multi(i - 1) && ((i > 1 && multi(i - 2)) || multi(i))) ||
                (short_line(*prev) && (short_line(line) || (i >= 2 && short_line(lines[i - 2]))));
            if (new_para) flush();
            if (!para.empty()) {
                if (endsInJoiningDash(para) && std::isdigit(static_cast<unsigned char>(text[0]))) {
                    // A number or code broken at its dash ("FAA–2020–" / "0686", "737–" / "9")
                    // stays one token.
                } else if (para.size() > 1 && para.back() == '-' &&
                           std::isalpha(static_cast<unsigned char>(para[para.size() - 2]))) {
                    para.pop_back();  // a word hyphenated at the line end
                } else {
                    para += ' ';
                }
            }
            para += text;
        }
        prev = &line;
    }
    flush_row();
    flush();
}

void layoutRegion(const std::vector<const Word*>& words, double body_height, int depth,
                  PageTable& table, BlockBuilder& out) {
    if (words.empty()) return;
    if (depth > 12) {
        emitLines(words, body_height, table, out);
        return;
    }
    double min_vgap = std::max(5.0, 0.6 * body_height);
    Cut cut;
    if (verticalCut(words, min_vgap, cut)) {
        if (!cut.bands.empty()) {
            for (const auto& band : cut.bands)
                layoutRegion(band, body_height, depth + 1, table, out);
            return;
        }
        layoutRegion(cut.first, body_height, depth + 1, table, out);
        layoutRegion(cut.second, body_height, depth + 1, table, out);
        return;
    }
    auto bands = horizontalBands(words, std::max(4.0, 1.2 * body_height));
    if (bands.size() == 1) {
        emitLines(words, body_height, table, out);
        return;
    }
    for (const auto& band : bands) layoutRegion(band, body_height, depth + 1, table, out);
}

}  // namespace

void layoutWords(std::vector<Word> words, BlockBuilder& out) {
    words.erase(std::remove_if(words.begin(), words.end(),
                               [](const Word& w) {
                                   return collapseWhitespace(w.text).empty() || w.x1 < w.x0 ||
                                          w.y1 < w.y0;
                               }),
                words.end());
    if (words.empty()) return;
    std::vector<double> heights;
    std::vector<const Word*> ptrs;
    for (const auto& w : words) {
        heights.push_back(w.y1 - w.y0);
        ptrs.push_back(&w);
    }
    PageTable table;
    layoutRegion(ptrs, median(heights), 0, table, out);
}

}  // namespace docintel::ingest
