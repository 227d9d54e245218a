// Sentence choice of the extractive answerer (knowledge/extractive_answerer.h) on real document
// text as ingestion chunked it (../shared/datasets/doc-corpus): the sentence stating a value of
// the asked type is cited over lines that merely share the question's words. No encoder here,
// so the choice rests on the words and the type; refusal is off to see the choice. The last
// test loads the real MiniLM encoder (`make model`) to show what the cosine adds.

#include <gtest/gtest.h>

#include "knowledge/extractive_answerer.h"

#include "embed/sentence_encoder.h"
#include "support/test_server.h"

namespace docintel::knowledge {
namespace {

std::vector<Source> sourcesOf(const std::string& text) {
    Source s;
    s.number = 1;
    s.passage.document_id = "doc";
    s.passage.chunk.text = text;
    s.passage.chunk.page_start = 1;
    s.passage.chunk.char_end = static_cast<int>(text.size());
    return {s};
}

/// The answer with refusal off, so the choice of sentences is seen.
Answer answerOf(const std::string& question, const std::vector<Source>& sources,
                int max_sentences = 1) {
    ExtractiveOptions options;
    options.refuse_below = -1;
    options.max_sentences = max_sentences;
    return ExtractiveAnswerer(nullptr, options).answer(analyseQuestion(question), {}, sources);
}

std::string citedFor(const std::string& question, const std::string& text) {
    const auto answer = answerOf(question, sourcesOf(text));
    EXPECT_FALSE(answer.refused);
    return answer.sentences.empty() ? "" : answer.sentences.front().text;
}

// pdf/text/scotus-transcript-p1.pdf, page 1.
const std::string kTranscript =
    "5 Petitioner :\n6 v. : No. 07-1315\n7 ALEXANDRE MIRZAYANCE. :\n9 Washington, D.C.\n"
    "10 Tuesday, January 13, 2009\n11\n12 The above-entitled matter came on for oral\n"
    "13 argument before the Supreme Court of the United States\n14 at 1:01 p.m.\n"
    "15 APPEARANCES:\n16 STEVEN E. MERCER, ESQ., Deputy Attorney General, Los\n"
    "17 Angeles, Cal.; on behalf of the Petitioner.";

TEST(ExtractiveAnswerer, CitesTheSentenceStatingTheAskedValue) {
    EXPECT_EQ(citedFor("On what date was the case argued?", kTranscript),
              "10 Tuesday, January 13, 2009");
    EXPECT_EQ(citedFor("At what time did the oral argument begin?", kTranscript),
              "12 The above-entitled matter came on for oral\n13 argument before the Supreme "
              "Court of the United States\n14 at 1:01 p.m.");
    EXPECT_EQ(citedFor("Who argued for the petitioner?", kTranscript),
              "16 STEVEN E. MERCER, ESQ., Deputy Attorney General, Los\n17 Angeles, Cal.; on "
              "behalf of the Petitioner.");
}

TEST(ExtractiveAnswerer, ASentenceOfTheQuestionsOwnWordsIsNeverTheAnswer) {
    // "5 Petitioner :" shares the question's rarest word and nothing else; the refusal used to
    // judge it (no person in it) and refuse.
    const auto answer = answerOf("Who argued for the petitioner?", sourcesOf(kTranscript),
                                 ExtractiveOptions{}.max_sentences);
    for (const auto& s : answer.sentences) EXPECT_NE(s.text, "5 Petitioner :");
    // A data row's numbers are what the question does not hold: the row stays a candidate.
    EXPECT_EQ(citedFor("What is in the cell at row 2, column 2 of the table?",
                       "Column 1 | Column 2\nColumn 1: Row 2, Cell 1 | Column 2: Row 2, Cell 2")
                  .rfind("Column 1: Row 2", 0),
              0u);
}

TEST(ExtractiveAnswerer, AQuestionForATitleIsAnsweredWithAHeading) {
    // office/pptx/fake-power-point.pptx as the slide parser and the chunker write it, the
    // heading last so that only the type, not the order, can choose it.
    auto sources = sourcesOf(
        "Find the bullet slide layout\nUse _TextFrame.text for first bullet\nUse "
        "_TextFrame.add_paragraph() for subsequent bullets\nAdding a Bullet Slide");
    sources[0].passage.chunk.section_path = {"Adding a Bullet Slide"};
    const auto answer = answerOf("What is the slide's title?", sources);
    ASSERT_EQ(answer.sentences.size(), 1u);
    EXPECT_EQ(answer.sentences.front().text, "Adding a Bullet Slide");
}

TEST(ExtractiveAnswerer, AHeadingStatesNoValueButATitle) {
    // A heading names its section: its year is no date for "when", however many of the
    // question's words it shares.
    auto sources =
        sourcesOf("Film Night Tickets 2027\nSales close on 12 March 2027.\nDoors open at 7.");
    sources[0].passage.chunk.section_path = {"Film Night Tickets 2027"};
    const auto answer = answerOf("When do film night ticket sales close?", sources);
    ASSERT_EQ(answer.sentences.size(), 1u);
    EXPECT_EQ(answer.sentences.front().text, "Sales close on 12 March 2027.");
}

TEST(ExtractiveAnswerer, ASentenceOfTheLastSourceIsWeighedHoweverLongTheFirstOnesAre) {
    // Six sources of table rows, 20 rows each: more sentences than the answerer encodes. The
    // row the question names is in the last source.
    std::vector<Source> sources;
    for (int s = 0; s < 6; ++s) {
        std::string text;
        for (int row = 0; row < 20; ++row) {
            const int n = s * 20 + row;
            text += "Item: Widget " + std::to_string(n) + " | Price: " + std::to_string(100 + n) +
                    ".00 | Colour: grey\n";
        }
        if (s == 5) text += "Item: Juicy Apples | Price: 1.99 | # In stock: 739\n";
        Source source = sourcesOf(text).front();
        source.number = s + 1;
        sources.push_back(std::move(source));
    }
    const auto answer = answerOf("How many juicy apples are in stock?", sources);
    ASSERT_EQ(answer.sentences.size(), 1u);
    EXPECT_EQ(answer.sentences.front().text, "Item: Juicy Apples | Price: 1.99 | # In stock: 739");
    EXPECT_EQ(answer.sentences.front().source_number, 6);
}

TEST(ExtractiveAnswerer, ThePhraseOfTheQuestionOutweighsItsWordsScattered) {
    // Both lines hold three of the question's four words and a name; only the second holds
    // "Director of Public Works" as the question words it.
    const std::string minutes =
        "MILLBROOK TOWN COUNCIL PUBLIC WORKS COMMITTEE, meeting of Monday, March 2, 2026, led by "
        "Chair Ines Okafor.\nPresent: Ines Okafor (Chair), Tomas Reyes; Priya Lind (Director of "
        "Public Works); Ole Berg (Town Clerk).";
    EXPECT_EQ(citedFor("Who is Millbrook's Director of Public Works?", minutes),
              "Present: Ines Okafor (Chair), Tomas Reyes; Priya Lind (Director of Public Works); "
              "Ole Berg (Town Clerk).");
}

TEST(ExtractiveAnswerer, RareQuestionWordsOutweighCommonOnes) {
    // email/fake-email-attachment.eml as the e-mail parser writes it.
    const std::string email =
        "From: Mallori Harrell <mallori@unstructured.io>\nTo: Mallori Harrell "
        "<mallori@unstructured.io>\nSubject: Fake email with attachment\n"
        "Date: Fri, 23 Dec 2022 12:08:48 -0600\nHello!\nHere's the attachments!";
    EXPECT_EQ(citedFor("On what date was the message with the attachment sent?", email),
              "Date: Fri, 23 Dec 2022 12:08:48 -0600");
}

TEST(ExtractiveAnswerer, ALabelOfTheQuestionsWordsNamesItsValue) {
    // A form's "Ordered by:" line answers "who ordered", though another sentence holds more of
    // the question's words and a name of its own. (Not "This order is placed …": the noun is of
    // the verb's stem, and that sentence would hold every word of the question.)
    const std::string order =
        "This purchase is placed under the Kentmere Schools Purchasing Framework for school "
        "equipment.\nOrdered by: | Dr Anil Mehta, Head of Physics\nSupplier account: | ACC-9";
    EXPECT_EQ(citedFor("Who in the school ordered the equipment?", order),
              "Ordered by: | Dr Anil Mehta, Head of Physics");
    // A label with a word the question lacks is no such line; a wide row neither.
    EXPECT_EQ(
        citedFor("Who in the school ordered the equipment?",
                 "This purchase is placed under the Kentmere Schools Purchasing Framework for "
                 "school equipment.\nApproved by: | Dr Anil Mehta"),
        "This purchase is placed under the Kentmere Schools Purchasing Framework for school "
        "equipment.");
}

TEST(ExtractiveAnswerer, AHeadingsCapitalsAreNoName) {
    auto sources = sourcesOf(
        "Annual General Meeting of the Rowan Tenants Association\nThe annual meeting opened at "
        "7 p.m. with 40 tenants present. The minutes were taken by Tobias Lind.");
    sources[0].passage.chunk.section_path = {
        "Annual General Meeting of the Rowan Tenants Association"};
    const auto answer = answerOf("Who took the minutes at the annual meeting?", sources);
    ASSERT_FALSE(answer.sentences.empty());
    EXPECT_EQ(answer.sentences.front().text, "The minutes were taken by Tobias Lind.");
}

/// The built-in MiniLM encoder, loaded once for the tests that need real cosines; null when
/// `make model` was not run.
const embed::SentenceEncoder* miniLm() {
    static const auto loaded =
        embed::SentenceEncoder::load(test::modelsDir() + "/all-MiniLM-L6-v2");
    return loaded ? loaded.value().get() : nullptr;
}

/// The sentence cited with the encoder's cosines and refusal off.
std::string citedWith(const embed::SentenceEncoder& encoder, const std::string& question,
                      const std::vector<Source>& sources) {
    ExtractiveOptions options;
    options.refuse_below = -1;
    options.max_sentences = 1;
    const auto answer = ExtractiveAnswerer(&encoder, options)
                            .answer(analyseQuestion(question),
                                    encoder.encodeQueries({question}, 1).value().front(), sources);
    return answer.sentences.empty() ? "" : answer.sentences.front().text;
}

TEST(ExtractiveAnswerer, ASentenceIsReadUnderItsHeadings) {
    // After tests/data/eval/qa/docs/readme-tidepool.md: the maintainer's line never names
    // tidepool; only its heading does, while every command line does. (Not written as its
    // "Maintainer:" label line, which names what "who maintains" asks without the heading, nor
    // with a word of the question's stem: "maintained".)
    const auto* loaded = miniLm();
    ASSERT_NE(loaded, nullptr) << "no MiniLM in " << test::modelsDir() << " — run `make model`";
    const auto& encoder = *loaded;
    auto sources = sourcesOf(
        "`tidepool` is a small command-line tool that downloads tide predictions for coastal "
        "stations.\nIt is looked after by Oona Hartikainen.\nInstall the package: `pip install "
        "tidepool`\n"
        "Check the setup with `tidepool stations --check`.");
    const std::string question = "Who maintains tidepool?";
    EXPECT_NE(citedWith(encoder, question, sources), "It is looked after by Oona Hartikainen.");
    sources[0].passage.chunk.section_path = {"tidepool"};
    EXPECT_EQ(citedWith(encoder, question, sources), "It is looked after by Oona Hartikainen.");
}

TEST(ExtractiveAnswerer, AHeadingIsReadAsATitle) {
    // office/pptx/fake-power-point.pptx as the slide parser and the chunker write it. Read as a
    // title, the heading is far nearer "what is the slide's title?" than read alone.
    const auto* loaded = miniLm();
    ASSERT_NE(loaded, nullptr) << "no MiniLM in " << test::modelsDir() << " — run `make model`";
    const auto& encoder = *loaded;
    auto sources = sourcesOf(
        "Find the bullet slide layout\nUse _TextFrame.text for first bullet\nUse "
        "_TextFrame.add_paragraph() for subsequent bullets\nAdding a Bullet Slide");
    const std::string question = "What is the slide's title?";
    const auto vector = encoder.encodeQueries({question}, 1).value().front();
    ExtractiveOptions options;
    options.refuse_below = -1;
    const auto alone =
        ExtractiveAnswerer(&encoder, options).answer(analyseQuestion(question), vector, sources);
    sources[0].passage.chunk.section_path = {"Adding a Bullet Slide"};
    const auto titled =
        ExtractiveAnswerer(&encoder, options).answer(analyseQuestion(question), vector, sources);
    EXPECT_EQ(titled.sentences.front().text, "Adding a Bullet Slide");
    EXPECT_GT(titled.evidence.cosine, alone.evidence.cosine + 0.1);
}

TEST(ExtractiveAnswerer, AHeaderRowIsComparedByTheCellsTheQuestionAsksAbout) {
    // email/fake-email-attachment.eml as the e-mail parser writes its header: one row. Read
    // whole, its addresses drown the date; read by the cells holding a question word, the
    // question is answered.
    const auto* loaded = miniLm();
    ASSERT_NE(loaded, nullptr) << "no MiniLM in " << test::modelsDir() << " — run `make model`";
    const auto& encoder = *loaded;
    const std::string header =
        "From: Mallori Harrell <mallori@unstructured.io> | To: Mallori Harrell "
        "<mallori@unstructured.io> | Subject: Fake email with attachment | Date: Fri, 23 Dec "
        "2022 12:08:48 -0600";
    const auto sources = sourcesOf(header + "\nHello!\nHere's the attachments!\nIt includes:");
    const std::string question = "On what date was the message with the attachment sent?";
    const auto answer = ExtractiveAnswerer(&encoder).answer(
        analyseQuestion(question), encoder.encodeQueries({question}, 1).value().front(), sources);
    ASSERT_FALSE(answer.refused) << answer.confidence;
    EXPECT_EQ(answer.sentences.front().text, header);
}

TEST(ExtractiveAnswerer, ALabelNearestTheQuestionsPointNamesItsValue) {
    // A course sheet's labels never use the question's verb: "Instructor" is what "who teaches"
    // asks for, nearer it in meaning than any other label, while the sentences sharing the
    // question's words (its topic) state no teacher.
    const auto* loaded = miniLm();
    ASSERT_NE(loaded, nullptr) << "no MiniLM in " << test::modelsDir() << " — run `make model`";
    const auto& encoder = *loaded;
    auto sources = sourcesOf(
        "Portuguese for Travellers: a relaxed course for adults who want to get by on holiday.\n"
        "After this course you can join Portuguese Level 2 on Thursday evenings.\n"
        "Instructor: Marisol Fuentes-Hart\nVenue: Room 12, Harbour Street Library\n"
        "Fee: £95 for ten weeks\nPortuguese is also taught on Saturday mornings.");
    sources[0].passage.chunk.section_path = {"Portuguese for Travellers (evening class)",
                                             "Course information"};
    EXPECT_EQ(citedWith(encoder, "Who teaches the Portuguese evening class?", sources),
              "Instructor: Marisol Fuentes-Hart");
    EXPECT_EQ(citedWith(encoder, "How much does the Portuguese evening class cost?", sources),
              "Fee: £95 for ten weeks");
}

}  // namespace
}  // namespace docintel::knowledge
