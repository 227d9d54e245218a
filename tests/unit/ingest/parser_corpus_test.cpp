// Every file of ../shared/datasets/doc-corpus through type sniffing and parsing: each must end
// in its expected outcome (text a user will find, or a specific error code), and none may crash.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "corpus_expectations.h"
#include "ingest/parser.h"
#include "ingest/text_util.h"
#include "ingest/type_sniffer.h"
#include "support/test_server.h"

namespace docintel::ingest {
namespace {

using corpus_test::corpusTable;
using corpus_test::Expectation;
using T = DocumentType;

using Kind = Block::Kind;

std::string corpusDir() { return test::sharedDir() + "/datasets/doc-corpus"; }

std::string allText(const ParsedDocument& doc) {
    std::string text;
    for (const auto& page : doc.pages) {
        for (const auto& block : page.blocks) text += block.text + "\n";
    }
    return collapseWhitespace(text);
}

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::string w;
    for (char c : text + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80) != 0) {
            w += c;
        } else if (!w.empty()) {
            out.push_back(w);
            w.clear();
        }
    }
    return out;
}

// Share of `reference` words found in `actual` in the same order (longest common subsequence).
double orderedWordRecall(const std::vector<std::string>& reference,
                         const std::vector<std::string>& actual) {
    if (reference.empty()) return 1.0;
    std::vector<std::size_t> prev(actual.size() + 1, 0), cur(actual.size() + 1, 0);
    for (const auto& r : reference) {
        for (std::size_t j = 1; j <= actual.size(); ++j) {
            cur[j] = r == actual[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
        }
        std::swap(prev, cur);
    }
    return static_cast<double>(prev[actual.size()]) / static_cast<double>(reference.size());
}

ParsedDocument parseOrFail(const std::string& rel) {
    std::string path = corpusDir() + "/" + rel;
    auto result = parseFile(path, sniff(path, "", rel));
    EXPECT_TRUE(result.ok()) << rel << ": " << (result.ok() ? "" : result.error().code);
    return result.ok() ? std::move(result).value() : ParsedDocument{};
}

class CorpusFile : public ::testing::TestWithParam<Expectation> {};

TEST_P(CorpusFile, EndsInItsExpectedOutcome) {
    const Expectation& e = GetParam();
    std::string path = corpusDir() + "/" + e.path;
    DocumentType type = sniff(path, "", e.path);
    EXPECT_EQ(toString(type), toString(e.type)) << e.path;
    auto result = parseFile(path, type);
    if (!e.error.empty()) {
        ASSERT_FALSE(result.ok()) << e.path << " parsed but should fail with " << e.error;
        EXPECT_EQ(result.error().code, e.error) << e.path;
        EXPECT_FALSE(result.error().message.empty());
        return;
    }
    ASSERT_TRUE(result.ok()) << e.path << ": " << result.error().code << " "
                             << result.error().message;
    const ParsedDocument& doc = result.value();
    ASSERT_FALSE(doc.pages.empty());
    for (std::size_t i = 0; i < doc.pages.size(); ++i) {
        EXPECT_EQ(doc.pages[i].number, static_cast<int>(i) + 1);
    }
    std::string text = allText(doc);
    for (const auto& fragment : e.fragments) {
        EXPECT_NE(text.find(collapseWhitespace(fragment)), std::string::npos)
            << e.path << " lacks \"" << fragment << "\"; text starts: " << text.substr(0, 600);
    }
    bool any_ocr = false;
    for (const auto& page : doc.pages) any_ocr = any_ocr || page.ocr;
    EXPECT_EQ(any_ocr, e.ocr) << e.path;
}

INSTANTIATE_TEST_SUITE_P(DocCorpus, CorpusFile, ::testing::ValuesIn(corpusTable()),
                         [](const ::testing::TestParamInfo<Expectation>& info) {
                             std::string name;
                             for (char c : info.param.path) {
                                 name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             }
                             return name;
                         });

TEST(ParserCorpus, TableCoversEveryManifestEntry) {
    std::ifstream in(corpusDir() + "/MANIFEST.json");
    ASSERT_TRUE(in) << "doc-corpus MANIFEST.json not found under " << corpusDir();
    auto manifest = nlohmann::json::parse(in);
    std::set<std::string> listed;
    for (const auto& f : manifest.at("files")) listed.insert(f.at("path").get<std::string>());
    std::set<std::string> expected;
    for (const auto& e : corpusTable()) expected.insert(e.path);
    for (const auto& p : listed) {
        EXPECT_TRUE(expected.count(p)) << p << " is in MANIFEST.json but has no expectation";
    }
    for (const auto& p : expected) {
        EXPECT_TRUE(listed.count(p)) << p << " has an expectation but is not in MANIFEST.json";
    }
}

TEST(ParserCorpus, ScotusTranscriptMatchesItsReferenceText) {
    auto doc = parseOrFail("pdf/text/scotus-transcript-p1.pdf");
    std::ifstream ref_in(corpusDir() + "/pdf/text/scotus-transcript-p1.txt");
    std::stringstream ref;
    ref << ref_in.rdbuf();
    double recall = orderedWordRecall(words(ref.str()), words(allText(doc)));
    EXPECT_GE(recall, 0.9) << "reference words found in order: " << recall;
}

TEST(ParserCorpus, TwoColumnPageReadsEachColumnTopToBottom) {
    auto doc = parseOrFail("pdf/multicolumn/latex-multicolumn.pdf");
    std::string text = allText(doc);
    // This sentence wraps over three lines of the left column; read across the page it would be
    // interleaved with the right column.
    EXPECT_NE(text.find("Nam arcu libero, nonummy eget, consectetuer id, vulputate a, magna. "
                        "Donec vehicula augue eu neque."),
              std::string::npos);
    // The left column's last paragraph comes before the right column's first.
    auto left = text.find("Nam arcu libero");
    auto right = text.find("Quisque ullamcorper placerat ipsum");
    ASSERT_NE(left, std::string::npos);
    ASSERT_NE(right, std::string::npos);
    EXPECT_LT(left, right);
}

TEST(ParserCorpus, ThreeColumnPageKeepsColumnSentencesWhole) {
    auto doc = parseOrFail("pdf/multicolumn/federal-register-2020-17221.pdf");
    ASSERT_EQ(doc.pages.size(), 15u);
    std::string page1;
    for (const auto& b : doc.pages[0].blocks) page1 += b.text + "\n";
    page1 = collapseWhitespace(page1);
    // "737–" ends a line and "9" opens the next: a number broken at its dash stays one token.
    EXPECT_NE(page1.find("The FAA proposes to supersede Airworthiness Directive (AD) 2018–23–51, "
                         "which applies to all The Boeing Company Model 737–8 and 737–9 (737 MAX)"),
              std::string::npos)
        << page1.substr(0, 1500);
    EXPECT_NE(page1.find("This section of the FEDERAL REGISTER contains notices to the public of "
                         "the proposed issuance of rules and regulations."),
              std::string::npos);
}

TEST(ParserCorpus, TablesAreRowsWithTheirHeaders) {
    struct Case {
        const char* path;
        const char* row;
    };
    for (const Case& c :
         {Case{"office/docx/docx-tables.docx",
               "Header Col 1: Lorem ipsum | Header Col 2: A link example"},
          Case{"office/pptx/fake-power-point-table.pptx",
               "Column 1: Purple | Column 2: Orange | Column 3: Yellow"},
          Case{"office/xlsx/stanley-cups.xlsx", "Team: Flyers | Location: PHI"},
          Case{"html/fake-html.html", "Column 1: Row 2, Cell 1 | Column 2: Row 2, Cell 2"},
          Case{"pdf/multicolumn/latex-multicolumn.pdf", "Country: Finland"},
          // Cells labelled by the header words above them: a two-line header ("DATE" over
          // "POSTED"), rows without ruling, a description wrapped onto the next line.
          Case{"pdf/tables/senate-expenditures.pdf",
               "DOCUMENT NO.: DHAW20190031 | DATE POSTED: 05/28/2019"},
          Case{"pdf/tables/senate-expenditures.pdf",
               "SENATOR'S TRANSPORTATION TRAIN FARE FOR SEN HAWLEY WASHINGTON DC TO NEW YORK NY "
               "AND RETURN | AMOUNT ($): 618.00"},
          Case{"pdf/tables/senate-expenditures.pdf", "PAYEE NAME: BAIN, J MATTHEW"}}) {
        auto doc = parseOrFail(c.path);
        bool found = false;
        for (const auto& page : doc.pages) {
            for (const auto& b : page.blocks) {
                if (b.kind == Kind::kTableRow && b.text.find(c.row) != std::string::npos)
                    found = true;
            }
        }
        EXPECT_TRUE(found) << c.path << " has no table row containing \"" << c.row << "\"";
    }
}

TEST(ParserCorpus, AHeaderOfTwoLinesWithUnitsLabelsEveryColumn) {
    // The QA set's statistics table (tune half): "Library" over "outlets", "Registered" over
    // "users (000s)", and "State" on the second line only. The second line holds figures in
    // brackets and as many cells as the first; it used to read as the first data row, and the
    // first column took the nearest word of the first line ("Library: Oregon b/").
    const std::string path =
        std::string(DOCINTEL_SOURCE_DIR) + "/tests/data/eval/qa/docs/stats-library-use-fy2024.pdf";
    auto result = parseFile(path, sniff(path, "", path));
    ASSERT_TRUE(result.ok());
    std::vector<std::string> rows;
    for (const auto& b : result.value().pages.at(0).blocks) {
        if (b.kind == Kind::kTableRow) rows.push_back(b.text);
    }
    const auto has = [&](const std::string& row) {
        return std::find(rows.begin(), rows.end(), row) != rows.end();
    };
    EXPECT_TRUE(has("State: Oregon b/ | Library outlets: 236 | Registered users (000s): 2,471 | "
                    "Visits (000s): 14,688 | Circulation (000s): 38,215 | E-book loans (000s): "
                    "5,307 | Program attendance: 701,846 | Operating expend. ($M): 301.1"));
    EXPECT_TRUE(has("State | outlets | users (000s) | (000s) | (000s) | (000s) | attendance | "
                    "expend. ($M)"));
}

TEST(ParserCorpus, SlidesAndSheetsArePages) {
    auto sheets = parseOrFail("office/xlsx/stanley-cups.xlsx");
    ASSERT_EQ(sheets.pages.size(), 2u);
    ASSERT_FALSE(sheets.pages[1].blocks.empty());
    EXPECT_EQ(sheets.pages[1].blocks[0].kind, Kind::kHeading);
    EXPECT_EQ(sheets.pages[1].blocks[0].text, "Stanley Cups Since 67");
    auto pdf = parseOrFail("pdf/text/pdflatex-4-pages.pdf");
    EXPECT_EQ(pdf.pages.size(), 4u);
}

TEST(ParserCorpus, HeadingsCarryLevelsAndSectionPaths) {
    auto doc = parseOrFail("html/fake-html.html");
    const auto& blocks = doc.pages.at(0).blocks;
    ASSERT_GE(blocks.size(), 3u);
    EXPECT_EQ(blocks[0].kind, Kind::kHeading);
    EXPECT_EQ(blocks[0].level, 1);
    EXPECT_EQ(blocks[1].level, 2);
    EXPECT_EQ(blocks[2].section_path,
              (std::vector<std::string>{"My First Heading", "My Second Heading"}));
    EXPECT_EQ(doc.title, "My First Heading");
}

TEST(ParserCorpus, StreamingStopsWhenTheSinkFails) {
    std::string path = corpusDir() + "/pdf/text/pdflatex-4-pages.pdf";
    int seen = 0;
    Status st = parseFilePages(path, DocumentType::kPdf, [&](Page&&) -> Status {
        ++seen;
        return Error{"stop", "stop here", 500};
    });
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, "stop");
    EXPECT_EQ(seen, 1);
}

TEST(ParserCorpus, HostileBytesNeverCrash) {
    // Every corpus file read as every type: expected failures only, never a crash or throw.
    for (const auto& e : corpusTable()) {
        std::string path = corpusDir() + "/" + e.path;
        for (DocumentType t : {T::kPdf, T::kDocx, T::kPptx, T::kXlsx, T::kOdt, T::kHtml, T::kEml,
                               T::kTxt, T::kCsv, T::kRtf}) {
            if (t == T::kPdf && e.path.find("scanned") != std::string::npos) continue;  // slow OCR
            auto result = parseFile(path, t);
            if (!result.ok()) {
                EXPECT_FALSE(result.error().code.empty()) << e.path << " as " << toString(t);
            }
        }
    }
}

TEST(ParserCorpus, DamagedAndHostileFilesEndInAnErrorCodeOrText) {
    // The first half of every file, and markup nested far deeper than any real document.
    std::string dir = ::testing::TempDir() + "/ingest_hostile";
    std::filesystem::create_directories(dir);
    std::vector<std::string> files;
    for (const auto& e : corpusTable()) {
        if (e.path.find("scanned") != std::string::npos) continue;  // OCR: slow, covered above
        std::ifstream in(corpusDir() + "/" + e.path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::string out = dir + "/half-" + std::filesystem::path(e.path).filename().string();
        std::ofstream(out, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        files.push_back(out);
    }
    auto write = [&](const std::string& name, const std::string& content) {
        std::ofstream(dir + "/" + name, std::ios::binary) << content;
        files.push_back(dir + "/" + name);
    };
    std::string deep_html, deep_rtf = "{\\rtf1 ", deep_mail = "From: a@b\nTo: c@d\n";
    for (int i = 0; i < 100000; ++i) deep_html += "<div><table><tr><td>";
    for (int i = 0; i < 100000; ++i) deep_rtf += "{";
    deep_mail += "Content-Type: multipart/mixed; boundary=\"b0\"\n\n";
    for (int i = 0; i < 50; ++i) {
        deep_mail += "--b" + std::to_string(i) + "\nContent-Type: multipart/mixed; boundary=\"b" +
                     std::to_string(i + 1) + "\"\n\n";
    }
    write("deep.html", deep_html);
    write("deep.rtf", deep_rtf);
    write("deep.eml", deep_mail + "--b50\nContent-Type: text/plain\n\nhello\n");
    for (const auto& path : files) {
        auto result = parseFile(path, sniff(path, "", path));
        if (!result.ok()) {
            EXPECT_TRUE(result.error().code == kUnreadableDocument ||
                        result.error().code == kEncryptedDocument ||
                        result.error().code == kUnsupportedType)
                << path << ": " << result.error().code;
        }
    }
}

}  // namespace
}  // namespace docintel::ingest
