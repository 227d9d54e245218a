// Quotable sentences of real document text (knowledge/sentence_spans.h), as ingestion chunked it
// from ../shared/datasets/doc-corpus: a transcript's numbered, wrapped lines; initials and
// "No."/"Vol." that ICU takes for sentence ends; e-mail header lines; a PDF table whose records
// were read as one paragraph.

#include <algorithm>

#include <gtest/gtest.h>

#include "knowledge/sentence_spans.h"

namespace docintel::knowledge {
namespace {

std::vector<std::string> sentencesOf(const std::string& text) {
    storage::Chunk chunk;
    chunk.text = text;
    std::vector<std::string> out;
    for (const auto& s : quotableSentences(chunk)) {
        EXPECT_EQ(text.substr(static_cast<std::size_t>(s.start),
                              static_cast<std::size_t>(s.end - s.start)),
                  s.text);
        out.push_back(s.text);
    }
    return out;
}

bool has(const std::vector<std::string>& sentences, const std::string& sentence) {
    return std::find(sentences.begin(), sentences.end(), sentence) != sentences.end();
}

// pdf/text/scotus-transcript-p1.pdf, page 1.
const std::string kTranscript =
    "3 MICHAEL A. KNOWLES, :\n4 WARDEN, :\n5 Petitioner :\n6 v. : No. 07-1315\n"
    "7 ALEXANDRE MIRZAYANCE. :\n9 Washington, D.C.\n10 Tuesday, January 13, 2009\n11\n"
    "12 The above-entitled matter came on for oral\n"
    "13 argument before the Supreme Court of the United States\n14 at 1:01 p.m.\n"
    "15 APPEARANCES:\n16 STEVEN E. MERCER, ESQ., Deputy Attorney General, Los\n"
    "17 Angeles, Cal.; on behalf of the Petitioner.\n"
    "18 CHARLES M. SEVILLA, ESQ., San Diego, Cal.; on behalf\n19 of the Respondent.";

TEST(SentenceSpans, WrappedTranscriptLinesRunOn) {
    const auto s = sentencesOf(kTranscript);
    EXPECT_TRUE(has(s,
                    "16 STEVEN E. MERCER, ESQ., Deputy Attorney General, Los\n"
                    "17 Angeles, Cal.; on behalf of the Petitioner."));
    EXPECT_TRUE(has(s,
                    "18 CHARLES M. SEVILLA, ESQ., San Diego, Cal.; on behalf\n"
                    "19 of the Respondent."));
    EXPECT_TRUE(has(s,
                    "12 The above-entitled matter came on for oral\n"
                    "13 argument before the Supreme Court of the United States\n"
                    "14 at 1:01 p.m."));
    // Short lines stay apart, and "No." is no sentence end.
    EXPECT_TRUE(has(s, "10 Tuesday, January 13, 2009"));
    EXPECT_TRUE(has(s, "6 v. : No. 07-1315"));
}

TEST(SentenceSpans, InitialsAndAbbreviationsEndNoSentence) {
    // pdf/multicolumn/federal-register-2020-17221.pdf, pages 2 and 15.
    const auto s = sentencesOf(
        "Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules 47699\n"
        "Issued on August 3, 2020. Lance T. Gant, Director, Compliance & Airworthiness Division, "
        "Aircraft Certification Service.");
    EXPECT_TRUE(has(s,
                    "Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / "
                    "Proposed Rules 47699"));
    EXPECT_TRUE(has(s, "Issued on August 3, 2020."));
    EXPECT_TRUE(has(s,
                    "Lance T. Gant, Director, Compliance & Airworthiness Division, Aircraft "
                    "Certification Service."));
}

TEST(SentenceSpans, LabelLinesStayApart) {
    // email/fake-email-attachment.eml as the e-mail parser writes it.
    const auto s = sentencesOf(
        "From: Mallori Harrell <mallori@unstructured.io>\nTo: Mallori Harrell "
        "<mallori@unstructured.io>\nSubject: Fake email with attachment and a long subject\n"
        "Date: Fri, 23 Dec 2022 12:08:48 -0600\nHello!");
    EXPECT_TRUE(has(s, "Subject: Fake email with attachment and a long subject"));
    EXPECT_TRUE(has(s, "Date: Fri, 23 Dec 2022 12:08:48 -0600"));
}

TEST(SentenceSpans, ALabelAloneOnItsLineGoesOnWithItsValue) {
    // A purchase order's "Deliver to:" over its address: one sentence, the label with its value;
    // a label followed by another label, or by a table row, stays apart.
    const auto s = sentencesOf(
        "Deliver to:\nHarton Primary School, Art Room 2\nRequired by: 2 October 2026\n"
        "Invoice to:\nAccounts: Harton Primary School\nNotes:\nItem | Qty\n");
    EXPECT_TRUE(has(s, "Deliver to:\nHarton Primary School, Art Room 2"));
    EXPECT_TRUE(has(s, "Required by: 2 October 2026"));
    EXPECT_TRUE(has(s, "Accounts: Harton Primary School"));
    EXPECT_FALSE(has(s, "Invoice to:\nAccounts: Harton Primary School"));
}

TEST(SentenceSpans, ATableRowIsOneSentence) {
    // tests/data/eval/qa/docs/stats-library-use-fy2024.pdf as the PDF table reader writes it:
    // ICU ends a sentence after the label "Operating expend." and the row lost its value.
    const std::string row =
        "State: Oregon b/ | Visits (000s): 14,688 | Operating expend. ($M): 301.1";
    const auto s = sentencesOf(row + "\nNote: Figures are in thousands. Expend. Means spent.");
    EXPECT_TRUE(has(s, row));
    EXPECT_TRUE(has(s, "Note: Figures are in thousands."));
}

TEST(SentenceSpans, FlattenedRecordsAreCutAtTheirKeys) {
    // pdf/tables/senate-expenditures.pdf, page 1: travel rows read as one paragraph.
    const auto s = sentencesOf(
        "DHAW20190001 05/03/2019 CITIBANK - TRAVEL CBA CARD 03/04/2019 03/06/2019 STAFF "
        "TRANSPORTATION 920.68 AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND RETURN "
        "DHAW20190002 05/24/2019 CITIBANK - TRAVEL CBA CARD 03/10/2019 05/15/2019 STAFF "
        "TRANSPORTATION 907.96 AIRFARE FOR S COWING KANSAS CITY TO WASHINGTON DC AND RETURN "
        "DHAW20190003 05/03/2019 CITIBANK - TRAVEL CBA CARD 03/01/2019 03/02/2019 STAFF "
        "TRANSPORTATION 737.94 AIRFARE FOR M BERG WASHINGTON DC TO SAINT LOUIS AND RETURN");
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0],
              "DHAW20190001 05/03/2019 CITIBANK - TRAVEL CBA CARD 03/04/2019 03/06/2019 STAFF "
              "TRANSPORTATION 920.68 AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND "
              "RETURN");
    EXPECT_EQ(s[2].rfind("DHAW20190003 ", 0), 0u);
}

}  // namespace
}  // namespace docintel::knowledge
