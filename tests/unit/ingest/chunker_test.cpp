// The chunker's citation spans: a chunk's text is exactly page_text[char_start, char_end) of
// its one page (blocks joined by "\n"), also when a block is split at sentences, so any
// sentence of a chunk can be cited with its page and exact span; headings set the section path.

#include <gtest/gtest.h>

#include "ingest/chunker.h"

namespace docintel::ingest {
namespace {

Block paragraph(std::string text) { return Block{Block::Kind::kParagraph, std::move(text), 0, {}}; }

std::string pageText(const Page& page) {
    std::string out;
    for (std::size_t i = 0; i < page.blocks.size(); ++i) {
        if (i > 0) out += '\n';
        out += page.blocks[i].text;
    }
    return out;
}

std::vector<TextChunk> chunk(const std::vector<Page>& pages, int max_tokens, int overlap = 0) {
    Chunker chunker({.max_tokens = max_tokens, .overlap_tokens = overlap}, approximateTokens);
    for (const auto& p : pages) chunker.addPage(p);
    return chunker.finish();
}

void expectExactSpans(const std::vector<Page>& pages, const std::vector<TextChunk>& chunks) {
    for (const auto& c : chunks) {
        SCOPED_TRACE(c.text);
        EXPECT_EQ(c.page_start, c.page_end);
        const Page& page = pages.at(static_cast<std::size_t>(c.page_start - 1));
        EXPECT_EQ(pageText(page).substr(c.char_start, c.char_end - c.char_start), c.text);
    }
}

TEST(Chunker, EveryChunkIsAnExactSpanOfOnePage) {
    const std::vector<Page> pages = {
        {1,
         {paragraph("Alpha beta gamma."), paragraph(""), paragraph("Delta epsilon zeta.")},
         false},
        {2, {paragraph("Theta iota kappa."), paragraph("Lambda mu nu xi omicron pi rho.")}, false}};
    // Room for both pages in one chunk: still one chunk a page, the empty block kept in the span.
    const auto chunks = chunk(pages, 256);
    ASSERT_EQ(chunks.size(), 2u);
    EXPECT_EQ(chunks[0].text, "Alpha beta gamma.\n\nDelta epsilon zeta.");
    expectExactSpans(pages, chunks);
}

TEST(Chunker, SentenceSplitsAndOverlapKeepExactSpans) {
    std::string long_paragraph;
    for (int i = 0; i < 40; ++i) {
        long_paragraph += "Sentence number " + std::to_string(i) + " says something plain. ";
    }
    const std::vector<Page> pages = {
        {1,
         {paragraph("Intro line."), paragraph(long_paragraph), paragraph("Closing line.")},
         false}};
    const auto chunks = chunk(pages, 40, 8);
    ASSERT_GT(chunks.size(), 4u);
    expectExactSpans(pages, chunks);
    // Overlap: each chunk after the first starts inside the one before it.
    for (std::size_t i = 1; i < chunks.size(); ++i) {
        EXPECT_LT(chunks[i].char_start, chunks[i - 1].char_end) << i;
    }
}

TEST(Boundaries, AnEnumeratedClauseAfterAFullStopStartsASentence) {
    // pdf/multicolumn/federal-register-2020-17221.pdf, page 6: ICU goes on after "2020." because
    // "(d)" opens in lower case, so the AD's clauses (a) to (k) read as one sentence.
    const std::string text =
        "This AD applies to Model 737-8 airplanes, dated June 12, 2020. (d) Subject Air "
        "Transport Association (ATA) of America Code 22. (e) Unsafe Condition This AD was "
        "prompted by a report (as described in paragraph (g) of this AD). Done.";
    std::vector<std::string> sentences;
    for (const auto& [a, b] : boundaries(text, true)) sentences.push_back(text.substr(a, b - a));
    ASSERT_EQ(sentences.size(), 4u);
    EXPECT_EQ(sentences[1], "(d) Subject Air Transport Association (ATA) of America Code 22. ");
    // A marker inside a sentence ("paragraph (g)") or after a closing bracket is no boundary.
    EXPECT_EQ(sentences[2].rfind("(e) Unsafe Condition", 0), 0u);
    EXPECT_NE(sentences[2].find("paragraph (g) of this AD)."), std::string::npos);
}

TEST(Boundaries, AFootnoteMarkerAfterAFullStopStartsASentence) {
    // A statistical table's notes (tests/data/eval/qa/docs/stats-library-use-fy2024.pdf).
    const std::string text =
        "a/ Nevada visit counts do not include stops made by bookmobiles. b/ Oregon figures are "
        "preliminary. Visits rose 24/7 and/or fell. 12/ Revised.";
    std::vector<std::string> sentences;
    for (const auto& [a, b] : boundaries(text, true)) sentences.push_back(text.substr(a, b - a));
    ASSERT_EQ(sentences.size(), 4u);
    EXPECT_EQ(sentences[1], "b/ Oregon figures are preliminary. ");
    EXPECT_EQ(sentences[2], "Visits rose 24/7 and/or fell. ");
    EXPECT_EQ(sentences[3], "12/ Revised.");
}

TEST(Chunker, TakingChunksPageByPageGivesTheSameChunks) {
    std::vector<Page> pages;
    for (int p = 1; p <= 4; ++p) {
        std::string text;
        for (int i = 0; i < 12; ++i)
            text += "Page " + std::to_string(p) + " line " + std::to_string(i) + ". ";
        pages.push_back({p, {paragraph(text)}, false});
    }
    const auto whole = chunk(pages, 20, 4);
    Chunker chunker({.max_tokens = 20, .overlap_tokens = 4}, approximateTokens);
    std::vector<TextChunk> taken;
    std::size_t most_held = 0;
    for (const auto& p : pages) {
        chunker.addPage(p);
        auto batch = chunker.take();
        for (const auto& c : batch) EXPECT_LE(c.page_start, p.number);
        most_held = std::max(most_held, batch.size());
        taken.insert(taken.end(), batch.begin(), batch.end());
    }
    auto rest = chunker.finish();
    taken.insert(taken.end(), rest.begin(), rest.end());
    ASSERT_EQ(taken.size(), whole.size());
    EXPECT_LT(most_held, whole.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        EXPECT_EQ(taken[i].index, static_cast<int>(i));
        EXPECT_EQ(taken[i].text, whole[i].text);
        EXPECT_EQ(taken[i].page_start, whole[i].page_start);
        EXPECT_EQ(taken[i].char_start, whole[i].char_start);
    }
}

TEST(Chunker, HeadingsOpenChunksAndSetTheSectionPath) {
    const std::vector<Page> pages = {
        {1,
         {Block{Block::Kind::kHeading, "Rent", 1, {}}, paragraph("Base rent is $4,200."),
          Block{Block::Kind::kHeading, "Escalation", 2, {}}, paragraph("Rent rises 3% each year.")},
         false}};
    const auto chunks = chunk(pages, 256);
    ASSERT_EQ(chunks.size(), 2u);
    EXPECT_EQ(chunks[0].section_path, std::vector<std::string>({"Rent"}));
    EXPECT_EQ(chunks[1].section_path, std::vector<std::string>({"Rent", "Escalation"}));
    EXPECT_EQ(chunks[1].text, "Escalation\nRent rises 3% each year.");
    expectExactSpans(pages, chunks);
}

}  // namespace
}  // namespace docintel::ingest
