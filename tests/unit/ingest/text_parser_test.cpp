// The plain-text parser keeps the lines whose breaks carry meaning (a form's labels, an address,
// a heading over its text, lettered criteria, a message's header lines, aligned columns) and
// joins the lines a wrapper broke, so that labels, rows and items keep their bounds in blocks.

#include <gtest/gtest.h>

#include "ingest/line_breaks.h"
#include "ingest/text_parser.h"

namespace docintel::ingest {
namespace {

std::vector<std::string> blockTexts(const std::string& text,
                                    DocumentType type = DocumentType::kTxt) {
    std::vector<std::string> out;
    const ParsedDocument parsed = parseTextString(text, type);
    for (const auto& b : parsed.pages.at(0).blocks) out.push_back(b.text);
    return out;
}

TEST(TextParser, AFormsLabelsAnAddressAndAHeadingStayLines) {
    EXPECT_EQ(blockTexts("From: Ann Roe <ann@example.com>\n"
                         "To: claims@example.org\n"
                         "Subject: Request for review\n"
                         "\n"
                         "Hiring Manager\n"
                         "Larkspur Outfitters\n"
                         "Boise, ID 83702\n"
                         "\n"
                         "SUBJECTIVE\n"
                         "52-year-old man with low back pain for six weeks.\n"),
              (std::vector<std::string>{"From: Ann Roe <ann@example.com>", "To: claims@example.org",
                                        "Subject: Request for review", "Hiring Manager",
                                        "Larkspur Outfitters", "Boise, ID 83702", "SUBJECTIVE",
                                        "52-year-old man with low back pain for six weeks."}));
}

TEST(TextParser, ALineOfCapitalsIsAHeadingOverTheTextUnderIt) {
    // tests/data/eval/qa/docs/transcript-eastbrook-public-works.txt: a title over two lines.
    const ParsedDocument parsed = parseTextString(
        "EASTBROOK TOWN COUNCIL\nPUBLIC WORKS COMMITTEE - REGULAR MEETING\n\n"
        "Present: Dev Raman (Director of Public Works)\n\nREQUIRED\n- 3 OR MORE YEARS IN "
        "WAREHOUSE OPERATIONS\nSITE: RENO, NV\nNO ACTIVE WRITTEN WARNINGS.\n",
        DocumentType::kTxt);
    const auto& blocks = parsed.pages.at(0).blocks;
    ASSERT_EQ(blocks.size(), 6U);
    EXPECT_EQ(blocks[0].kind, Block::Kind::kHeading);
    EXPECT_EQ(blocks[0].text, "EASTBROOK TOWN COUNCIL PUBLIC WORKS COMMITTEE - REGULAR MEETING");
    EXPECT_EQ(parsed.title, blocks[0].text);
    EXPECT_EQ(blocks[1].section_path, std::vector<std::string>{blocks[0].text});
    EXPECT_EQ(blocks[2].kind, Block::Kind::kHeading);
    // A list item, a label and a sentence in capitals are none.
    EXPECT_EQ(blocks[3].kind, Block::Kind::kListItem);
    EXPECT_NE(blocks[4].kind, Block::Kind::kHeading);
    EXPECT_NE(blocks[5].kind, Block::Kind::kHeading);
    // An address in capitals is no heading.
    const auto address =
        parseTextString("Notices to:\n\n123 MAIN ST\nSPRINGFIELD, IL 62701\n", DocumentType::kTxt);
    for (const auto& b : address.pages.at(0).blocks) EXPECT_NE(b.kind, Block::Kind::kHeading);
    // A caption over a fixed-width table's rows in capitals stays apart from them.
    EXPECT_EQ(
        blockTexts("COMPLETE BLOOD COUNT\nWBC      3.1     L\nHGB      12.1    N\n"),
        (std::vector<std::string>{"COMPLETE BLOOD COUNT", "WBC | 3.1 | L", "HGB | 12.1 | N"}));
}

TEST(TextParser, LetteredCriteriaAndClausesStayApart) {
    EXPECT_EQ(blockTexts("Coverage requires all of the following:\n"
                         "A. Six weeks of conservative therapy\n"
                         "B. A neurological deficit on examination\n"
                         "(c) No imaging in the past 12 months\n"
                         "4.1 Term of the agreement\n"),
              (std::vector<std::string>{
                  "Coverage requires all of the following:", "A. Six weeks of conservative therapy",
                  "B. A neurological deficit on examination",
                  "(c) No imaging in the past 12 months", "4.1 Term of the agreement"}));
}

TEST(TextParser, AWrappedParagraphIsOneBlock) {
    // Wrapped at 60 columns: a line that goes on in lower case, or whose next word would not
    // have fitted, was broken by the wrapper, also before a capitalised name.
    const std::string text =
        "The tenant shall pay the base rent in equal monthly payments\n"
        "in advance on the first day of each month, without demand,\n"
        "deduction or set-off, at the office of the landlord at 14\n"
        "Cedar Row or at such other place as the landlord names.\n";
    EXPECT_EQ(blockTexts(text).size(), 1U);
    EXPECT_EQ(LineBreaks(std::vector<std::string>{"one line", "goes on here", "and here"}).width(),
              12U);
}

TEST(TextParser, ANumberedItemGoesOnOverTheLinesItWraps) {
    // A guaranty's numbered clauses, wrapped at 60 columns and indented under their number: the
    // state on the second line belongs to its clause; the next number starts another item.
    const std::string text =
        "3.  VENUE. Any action on this Guaranty shall be brought in\n"
        "    Nebraska. The parties waive trial by jury in any such\n"
        "    action.\n"
        "4.  NOTICES. Notices go to the addresses above.\n";
    const auto blocks = blockTexts(text);
    ASSERT_EQ(blocks.size(), 2U);
    EXPECT_EQ(blocks[0],
              "VENUE. Any action on this Guaranty shall be brought in Nebraska. The parties waive "
              "trial by jury in any such action.");
    EXPECT_EQ(blocks[1], "NOTICES. Notices go to the addresses above.");
}

TEST(TextParser, AlignedColumnsAreTableRowsUnderTheirHeader) {
    const auto parsed = parseTextString(
        "Test          Result    Units     Range\n"
        "Sodium        131       mmol/L    136-145\n"
        "Potassium               mmol/L    3.5-5.1\n"
        "\n"
        "Patient: Ann Roe          DOB: 1990-01-02\n"
        "Plan: Harbor Mutual       Member ID: HM-1234\n"
        "\n"
        "SELLER'S name:            BUYER'S name:\n"
        "  Quarry Lane LLC           Ada Quill\n",
        DocumentType::kTxt);
    const auto& blocks = parsed.pages.at(0).blocks;
    std::vector<std::string> texts;
    for (const auto& b : blocks) {
        EXPECT_EQ(b.kind, Block::Kind::kTableRow) << b.text;
        texts.push_back(b.text);
    }
    EXPECT_EQ(texts,
              (std::vector<std::string>{
                  "Test | Result | Units | Range",
                  "Test: Sodium | Result: 131 | Units: mmol/L | Range: 136-145",
                  // An empty cell leaves its column empty: the unit stays under Units.
                  "Test: Potassium | Units: mmol/L | Range: 3.5-5.1",
                  // Labels with their values are data, not a header.
                  "Patient: Ann Roe | DOB: 1990-01-02", "Plan: Harbor Mutual | Member ID: HM-1234",
                  "SELLER'S name: | BUYER'S name:",
                  "SELLER'S name: Quarry Lane LLC | BUYER'S name: Ada Quill"}));
}

TEST(TextParser, AFormsFirstLabelWithItsValueIsNoHeader) {
    // A typed form's labels end with ":" in a column of their own: its first row is a label and
    // its value, not the header of a table whose name would label every later row.
    EXPECT_EQ(blockTexts("Claim number:      WX-7730-12\n"
                         "Insured:           Petra Lindgren-Oyelaran\n"
                         "Policy:            Harbor Mutual Gold\n"),
              (std::vector<std::string>{"Claim number: | WX-7730-12",
                                        "Insured: | Petra Lindgren-Oyelaran",
                                        "Policy: | Harbor Mutual Gold"}));
}

TEST(TextParser, AReportsHeaderLabelsItsRowsOverRulesCaptionsAndBlankLines) {
    const auto texts = blockTexts(
        "ANALYTE          VALUE     UNITS\n"
        "--------------------------------\n"
        "LIPID PANEL\n"
        "  LDL            162       mg/dL\n"
        "\n"
        "THYROID\n"
        "  TSH            7.8       mIU/L\n"
        "================================\n"
        "Reviewed by: Ann Roe, MD\n");
    EXPECT_EQ(texts, (std::vector<std::string>{
                         "ANALYTE | VALUE | UNITS", "LIPID PANEL",
                         "ANALYTE: LDL | VALUE: 162 | UNITS: mg/dL", "THYROID",
                         "ANALYTE: TSH | VALUE: 7.8 | UNITS: mIU/L", "Reviewed by: Ann Roe, MD"}));
}

TEST(TextParser, AValueWrappedUnderItsColumnGoesOnAndARuledHeadingStandsAlone) {
    EXPECT_EQ(blockTexts("Diagnoses ....... J45.30 - Mild persistent asthma,\n"
                         "                  uncomplicated\n"
                         "                  L20.9 - Atopic dermatitis\n"
                         "Laterality ...... None\n"
                         "-- Summary ------------------------------------------------------\n"
                         "9 y/o with nightly cough and wheeze since the start of the term.\n"),
              (std::vector<std::string>{
                  "Diagnoses ....... J45.30 - Mild persistent asthma, uncomplicated L20.9 - "
                  "Atopic dermatitis",
                  "Laterality ...... None",
                  "-- Summary ------------------------------------------------------",
                  "9 y/o with nightly cough and wheeze since the start of the term."}));
}

TEST(TextParser, DottedLeadersAndMarkdownHardBreaksKeepTheirLines) {
    EXPECT_EQ(
        blockTexts("Employee ID ........ NB-1\nName ............... Ann Roe\n"),
        (std::vector<std::string>{"Employee ID ........ NB-1", "Name ............... Ann Roe"}));
    EXPECT_EQ(blockTexts("**Patient** Ann Roe  \n**Seen** in clinic today\n", DocumentType::kMd),
              (std::vector<std::string>{"Patient Ann Roe", "Seen in clinic today"}));
}

TEST(TextParser, MarkdownIsReadWithoutItsInlineMarkup) {
    EXPECT_EQ(blockTexts("- **Tutor:** Ines Calder\n"
                         "- **Coursebook:** *Vamos Ya 1*, see [the shop](https://shop.example/v1) "
                         "or [Help](#help)\n"
                         "\n"
                         "Run `lf apply`; snake_case_name and 2 * 3 stay; \\*not emphasis\\*\n"
                         "![a map](map.png) __Note__ ~~old~~ new\n"
                         "\n"
                         "* an item with a lone * star\n"
                         "\n"
                         "```\n**kept** in code\n```\n",
                         DocumentType::kMd),
              (std::vector<std::string>{
                  "Tutor: Ines Calder",
                  "Coursebook: Vamos Ya 1, see the shop (https://shop.example/v1) or Help",
                  "Run lf apply; snake_case_name and 2 * 3 stay; *not emphasis* a map Note old "
                  "new",
                  "an item with a lone * star", "**kept** in code"}));
}

}  // namespace
}  // namespace docintel::ingest
