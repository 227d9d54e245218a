// Every file of ../shared/datasets/doc-corpus through type sniffing and parsing: each must end
// in its expected outcome (text a user will find, or a specific error code), and none may crash.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ingest/parser.h"
#include "ingest/type_sniffer.h"
#include "support/test_server.h"

namespace docintel::ingest {
namespace {

using Kind = Block::Kind;
using T = DocumentType;

struct Expectation {
    std::string path;  // relative to the corpus folder
    DocumentType type;
    std::string error;                   // "" = parses
    std::vector<std::string> fragments;  // whitespace-normalised substrings of the text
    bool ocr = false;                    // some page read by OCR
};

const std::vector<Expectation>& table() {
    static const std::vector<Expectation> kTable = {
        // PDF, text layer
        {"pdf/text/minimal-document.pdf",
         T::kPdf,
         "",
         {"Lorem ipsum dolor sit amet, consetetur sadipscing elitr"}},
        {"pdf/text/pdflatex-4-pages.pdf",
         T::kPdf,
         "",
         {"Hello, here is some text without a meaning", "Is there no information?"}},
        {"pdf/text/pdflatex-outline.pdf", T::kPdf, "", {"Contents", "3 Baz"}},
        {"pdf/text/google-doc-document.pdf",
         T::kPdf,
         "",
         {"Beautiful is better than ugly. Explicit is better than implicit."}},
        {"pdf/text/crazyones-pdfa.pdf",
         T::kPdf,
         "",
         {"The Crazy Ones", "The misfits. The rebels. The troublemakers."}},
        {"pdf/text/habibi-arabic.pdf", T::kPdf, "", {"habibi", "حَبيبي"}},
        {"pdf/long/GeoTopo-komprimiert.pdf",
         T::kPdf,
         "",
         {"Geometrie und Topologie",
          "Dieses Skript wurde im Wintersemester 2013/2014 von Martin Thoma geschrieben"}},
        {"pdf/multicolumn/latex-multicolumn.pdf",
         T::kPdf,
         "",
         {"Two-Column Document with Lorem Ipsum",
          "Country: Austria | Population (millions) Area (km 2 ): 8.9"}},
        {"pdf/forms/pdflatex-forms.pdf", T::kPdf, "", {"Name", "Submit"}},
        {"pdf/special/with-attachment.pdf", T::kPdf, "", {"Lorem ipsum dolor sit amet"}},
        {"pdf/encrypted/libreoffice-writer-password.pdf", T::kPdf, kEncryptedDocument, {}},
        {"pdf/multicolumn/dpr-paper-2p.pdf",
         T::kPdf,
         "",
         {"Dense Passage Retrieval for Open-Domain Question Answering",
          "Open-domain question answering (QA) (Voorhees, 1999) is a task that answers factoid "
          "questions"}},
        {"pdf/multicolumn/federal-register-2020-17221.pdf",
         T::kPdf,
         "",
         {"DEPARTMENT OF TRANSPORTATION",
          "Airworthiness Directives; The Boeing Company Airplanes"}},
        {"pdf/tables/layout-parser-paper-with-table.pdf",
         T::kPdf,
         "",
         {"Table 1: Current layout detection models in the LayoutParser model zoo", "PubLayNet"}},
        {"pdf/tables/embedded-images-tables.pdf",
         T::kPdf,
         "",
         {"Potentiodynamic polarization data for stainless steel", "Inhibitor | bc (V/dec)"}},
        {"pdf/tables/nics-background-checks-2015-11.pdf",
         T::kPdf,
         "",
         {"NICS Firearm Background Checks", "Alabama", "71,137", "Pre-Pawn"}},
        {"pdf/tables/senate-expenditures.pdf",
         T::kPdf,
         "",
         {"DOCUMENT NO. | DATE | PAYEE NAME", "CITIBANK - TRAVEL CBA CARD"}},
        {"pdf/tables/korean-text-with-tables.pdf",
         T::kPdf,
         "",
         {"할인점·주유·온라인쇼핑몰", "업종: 할인점"}},
        // PDF, no text layer → OCR
        {"pdf/scanned/loremipsum-flat.pdf",
         T::kPdf,
         "",
         {"Lorem ipsum dolor sit amet, consectetur adipiscing elit",
          "Sed posuere sit amet lacus sed pharetra"},
         true},
        {"pdf/scanned/single_table-image.pdf", T::kPdf, "", {"Chipper", "Base 512"}, true},
        {"pdf/scanned/table-multi-row-column-cells.pdf",
         T::kPdf,
         "",
         {"Low Vision", "Dexterity", "Mobility"},
         true},
        {"pdf/scanned/table-multi-row-column-cells-actual.csv",
         T::kCsv,
         "",
         {"Disability Category | Participants | Ballots Completed", "Blind",
          "1716 sec, n=3 (1934 sec, n=2)"}},
        {"pdf/scanned/Seige_of_Vicksburg_Sample_OCR.pdf",
         T::kPdf,
         "",
         {"THE SIEGE OF VICKSBURG", "Johnston is coming with fifty thousand men"}},
        // PDF, encrypted: only an empty user password opens
        {"pdf/encrypted/password.pdf", T::kPdf, kEncryptedDocument, {}},
        {"pdf/encrypted/copy-protected.pdf",
         T::kPdf,
         "",
         {"LayoutParser: A Unified Toolkit for Deep", "Learning Based Document Image Analysis"}},
        {"pdf/encrypted/r2-user-password.pdf", T::kPdf, kEncryptedDocument, {}},
        {"pdf/encrypted/r4-aes-user-password.pdf", T::kPdf, kEncryptedDocument, {}},
        {"pdf/encrypted/crazyones-encrypted-256.pdf", T::kPdf, kEncryptedDocument, {}},
        // PDF, damaged: recovered by poppler, or unreadable
        {"pdf/malformed/issue-297.pdf", T::kPdf, "", {"test example"}},
        {"pdf/malformed/toy.pdf", T::kPdf, "", {"Something[cited]", "Single quote operator"}},
        {"pdf/malformed/selenium-pypdf-issue-177.pdf", T::kPdf, "", {"Hello World"}},
        {"pdf/malformed/empty.pdf", T::kPdf, kUnreadableDocument, {}},
        {"pdf/malformed/truncated-minimal-document.pdf", T::kPdf, kUnreadableDocument, {}},
        {"pdf/special/rotated-page-90.pdf", T::kPdf, "", {"Rotated", "Hello", "World"}},
        {"pdf/text/fake-memo.pdf",
         T::kPdf,
         "",
         {"There were 20,000 bottles of water, 10,000 blankets, and 200 laptops delivered on "
          "January 23, 2023.",
          "A total of 3 trucks were used for 15 hours."}},
        {"pdf/text/scotus-transcript-p1.pdf",
         T::kPdf,
         "",
         {"1 IN THE SUPREME COURT OF THE UNITED STATES", "6 v. : No. 07-1315"}},
        {"pdf/text/scotus-transcript-p1.txt",
         T::kTxt,
         "",
         {"IN THE SUPREME COURT OF THE UNITED STATES", "Alderson Reporting Company"}},
        // Office and ODF
        {"office/docx/fake.docx", T::kDocx, "", {"Lorem ipsum dolor sit amet."}},
        {"office/docx/docx-tables.docx",
         T::kDocx,
         "",
         {"Header Col 1 | Header Col 2", "Header Col 1: Lorem ipsum | Header Col 2: A link example",
          "Table with merged cells"}},
        {"office/docx/docx-hdrftr.docx",
         T::kDocx,
         "",
         {"First header para", "Main document", "Table cell1 | Table cell2"}},
        {"office/docx/fake-doc-emphasized-text.docx",
         T::kDocx,
         "",
         {"I am a bold italic bold-italic text.", "I am a normal text."}},
        {"office/docx/handbook-1p.docx",
         T::kDocx,
         "",
         {"US Trustee Handbook",
          "The United States Trustee appoints and supervises standing trustees"}},
        {"office/legacy/simple.doc", T::kLegacyOffice, kUnsupportedType, {}},
        {"office/odt/fake.odt",
         T::kOdt,
         "",
         {"Lorem ipsum dolor sit amet.", "Header row: Color | Mon: Blue | Wed: Red | Fri: Green"}},
        {"office/rtf/fake-doc.rtf",
         T::kRtf,
         "",
         {"My First Heading", "My first paragraph.",
          "Column 1: Row 1, Cell 1 | Column 2: Row 1, Cell 2"}},
        {"office/pptx/fake-power-point.pptx",
         T::kPptx,
         "",
         {"Adding a Bullet Slide", "Find the bullet slide layout",
          "Here is some text in a text box!"}},
        {"office/pptx/fake-power-point-table.pptx",
         T::kPptx,
         "",
         {"A Slide with a Table", "Column 1 | Column 2 | Column 3",
          "Column 1: Red | Column 2: Green | Column 3: Blue"}},
        {"office/pptx/fake-power-point-malformed.pptx",
         T::kPptx,
         "",
         {"Test Slide", "Problem Date Placeholder"}},
        {"office/xlsx/stanley-cups.xlsx",
         T::kXlsx,
         "",
         {"Team | Location | Stanley Cups", "Team: Blues | Location: STL",
          "Team: Maple Leafs | Location: TOR", "Stanley Cups Since 67"}},
        {"office/xlsx/password_protected.xlsx", T::kEncryptedOffice, kEncryptedDocument, {}},
        {"office/csv/stanley-cups.csv",
         T::kCsv,
         "",
         {"Team | Location | Stanley Cups", "Team: Blues | Location: STL | Stanley Cups: 1",
          "Team: Maple Leafs | Location: TOR | Stanley Cups: 13"}},
        // HTML
        {"html/fake-html.html",
         T::kHtml,
         "",
         {"My First Heading", "With sub-bullets!",
          "Column 1: Row 1, Cell 1 | Column 2: Row 1, Cell 2"}},
        {"html/fake-html-cp1252.html",
         T::kHtml,
         "",
         {"Die schöne Frau hat einen Kaffee mit Kuchen gegessen.", "Der Preis betrug 15,50 €.",
          "L'été était très chaud"}},
        {"html/example-10k-1p.html",
         T::kHtml,
         "",
         {"Galaxy Gaming, Inc.", "Title of each class: Common stock | Trading symbol: GLXZ"}},
        // Email
        {"email/fake-email.eml",
         T::kEml,
         "",
         {"Subject: Test Email", "This is a test email to use for unit tests.",
          "Violets are blue"}},
        {"email/fake-email-attachment.eml",
         T::kEml,
         "",
         {"Here's the attachments!", "Attachment: fake-attachment.txt",
          "Hey this is a fake attachment!"}},
        {"email/mime-different-plain-html.eml",
         T::kEml,
         "",
         {"This is the text/plain part.", "first email was sent by Ray Tomlinson in 1971"}},
        {"email/fake-email-b64.eml",
         T::kEml,
         "",
         {"From: Matthew Robinson <mrobinson@unstructured.io>",
          "This is a test email to use for unit tests.", "Roses are red"}},
        {"email/fake-email-utf-16.eml",
         T::kEml,
         "",
         {"Subject: Test Email", "This is a test email to use for unit tests."}},
        {"email/fake-email.msg", T::kLegacyOffice, kUnsupportedType, {}},
        // Text
        {"text/fake-text.txt",
         T::kTxt,
         "",
         {"This is a test document to use for unit tests.", "Doylestown, PA 18901",
          "I love fuzzy blankets"}},
        {"text/fake-text-utf-16.txt",
         T::kTxt,
         "",
         {"This is a test document to use for unit tests.", "Hamburgers are delicious"}},
        {"text/norwich-city.txt",
         T::kTxt,
         "",
         {"Iwan Wyn Roberts (born 26 June 1968) is a Welsh former professional footballer"}},
        {"text/book-war-and-peace-1p.txt",
         T::kTxt,
         "",
         {"Well, Prince, so Genoa and Lucca are now just family estates of the Buonapartes."}},
        {"text/codeblock.md", T::kMd, "", {"HTML Example", "Don't forget me this weekend!"}},
        {"text/simple-table.md",
         T::kMd,
         "",
         {"Item | Price | # In stock", "Item: Juicy Apples | Price: 1.99 | # In stock: 739"}},
    };
    return kTable;
}

std::string corpusDir() { return test::sharedDir() + "/datasets/doc-corpus"; }

std::string collapse(const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::string allText(const ParsedDocument& doc) {
    std::string text;
    for (const auto& page : doc.pages) {
        for (const auto& block : page.blocks) text += block.text + "\n";
    }
    return collapse(text);
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
        EXPECT_NE(text.find(collapse(fragment)), std::string::npos)
            << e.path << " lacks \"" << fragment << "\"; text starts: " << text.substr(0, 600);
    }
    bool any_ocr = false;
    for (const auto& page : doc.pages) any_ocr = any_ocr || page.ocr;
    EXPECT_EQ(any_ocr, e.ocr) << e.path;
}

INSTANTIATE_TEST_SUITE_P(DocCorpus, CorpusFile, ::testing::ValuesIn(table()),
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
    for (const auto& e : table()) expected.insert(e.path);
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
    page1 = collapse(page1);
    EXPECT_NE(page1.find("The FAA proposes to supersede Airworthiness Directive (AD) 2018–23–51, "
                         "which applies to all The Boeing Company Model 737–8"),
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
          Case{"pdf/multicolumn/latex-multicolumn.pdf", "Country: Finland"}}) {
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
    for (const auto& e : table()) {
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

}  // namespace
}  // namespace docintel::ingest
