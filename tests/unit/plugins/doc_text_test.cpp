// plugins/shared/doc_text.h: the line breaks a PDF parser folded into spaces come back without
// moving offsets, sections and bullets are read from them, and chunks join with their overlap
// read once.

#include <gtest/gtest.h>

#include "shared/doc_text.h"

namespace docintel::plugins {
namespace {

const std::vector<std::string> kHeadings = {"skills",
                                            "experience",
                                            "prior experience",
                                            "education",
                                            "required qualifications",
                                            "preferred qualifications",
                                            "skills and proficiency",
                                            "benefits"};

TEST(DocText, RestoreLinesBreaksBeforeBulletsAndAroundHeadingsOnly) {
    std::string text =
        "Jane Roe Summary Data engineer with 8 years of experience. Skills Python (expert) · "
        "SQL (advanced) Experience Data Engineer — Acme | May 2020 – Present - Built Spark "
        "jobs. - Wrote 3 services. Prior Experience Analyst — Beta | 2018 – 2020 Total "
        "Experience: 6 years Education B.S. in Physics, 2018";
    const std::string before = text;
    restoreLines(text, kHeadings);
    ASSERT_EQ(text.size(), before.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != before[i]) {
            EXPECT_EQ(before[i], ' ');
            EXPECT_EQ(text[i], '\n');
        }
    }
    EXPECT_NE(text.find("\nSkills\nPython (expert)"), std::string::npos) << text;
    EXPECT_NE(text.find("\nExperience\nData Engineer"), std::string::npos) << text;
    EXPECT_NE(text.find("Present\n- Built Spark jobs.\n- Wrote 3 services."), std::string::npos)
        << text;
    // The longer heading wins and the shorter one inside it is left alone.
    EXPECT_NE(text.find("\nPrior Experience\nAnalyst"), std::string::npos) << text;
    // A label ("Total Experience:") and lower-case words are not headings.
    EXPECT_NE(text.find("Total Experience: 6 years"), std::string::npos) << text;
    EXPECT_NE(text.find("8 years of experience."), std::string::npos) << text;
    EXPECT_NE(text.find("\nEducation\nB.S. in Physics"), std::string::npos) << text;
}

TEST(DocText, SectionsAndBulletsWithSources) {
    DocText doc;
    doc.document_id = "d";
    plugin::Passage p1{
        "d", "c1", 1, 1, "Required Qualifications - 5+ years of Python. - A degree in", 0, 0, 0};
    plugin::Passage p2{"d",
                       "c2",
                       2,
                       2,
                       "a related field. Preferred Qualifications - Kafka. Benefits Medical cover.",
                       0,
                       0,
                       0};
    for (const auto& p : {p1, p2}) {
        doc.starts.push_back(doc.text.size());
        doc.text += p.text + "\n";
        doc.passages.push_back(p);
    }
    restoreLines(doc.text, kHeadings);
    const auto required = bullets(section(doc, kHeadings, {"required qualifications"}));
    ASSERT_EQ(required.size(), 2u);
    EXPECT_EQ(required[0].text, "5+ years of Python.");
    // A wrapped item continues on the next line (here the next chunk) until its full stop.
    EXPECT_EQ(required[1].text, "A degree in a related field.");
    EXPECT_EQ(doc.source(required[0].pos, required[0].len)["page"], 1);
    const auto preferred = bullets(section(doc, kHeadings, {"preferred qualifications"}));
    ASSERT_EQ(preferred.size(), 1u);
    EXPECT_EQ(preferred[0].text, "Kafka.");
    EXPECT_EQ(doc.source(preferred[0].pos, preferred[0].len)["page"], 2);
}

TEST(DocText, ChunkOverlapIsReadOnce) {
    EXPECT_EQ(chunkOverlap("the first chunk ends with this shared tail text",
                           "with this shared tail text and goes on"),
              std::string("with this shared tail text").size());
    EXPECT_EQ(chunkOverlap("short", "short"), 0u);
}

/// An evidence finder that holds one document's chunks.
class ChunkFinder : public plugin::EvidenceFinder {
  public:
    explicit ChunkFinder(std::vector<plugin::Passage> chunks) : chunks_(std::move(chunks)) {}
    plugin::Result<std::vector<plugin::Passage>> passages(const std::string&) override {
        return chunks_;
    }
    plugin::Result<std::vector<plugin::Passage>> find(const plugin::EvidenceQuery&) override {
        return chunks_;
    }

  private:
    std::vector<plugin::Passage> chunks_;
};

plugin::Passage chunk(const std::string& id, int page, const std::string& text) {
    plugin::Passage p;
    p.document_id = "d1";
    p.chunk_id = id;
    p.page = page;
    p.text = text;
    return p;
}

TEST(DocText, AChunkThatOverlapsGoesOnInTheSameLine) {
    // A chunk boundary inside a line of a letter of intent: the label is in the first chunk, the
    // amount after the overlap in the second.
    ChunkFinder finder({chunk("c1", 1,
                              "Landlord ...... Cedar Avenue Ventures LLC\nExpiration ......... "
                              "May 31, 2032 Base rent .......... "),
                        chunk("c2", 1,
                              "May 31, 2032 Base rent .......... $58,800 annually ($4,900.00 "
                              "per month) Increases ...... 3% per year"),
                        chunk("c3", 2, "Governing law will be Minnesota.")});
    const auto doc = loadDocText(finder, "d1");
    ASSERT_TRUE(doc);
    EXPECT_EQ(doc->text,
              "Landlord ...... Cedar Avenue Ventures LLC\nExpiration ......... May 31, 2032 Base "
              "rent .......... $58,800 annually ($4,900.00 per month) Increases ...... 3% per "
              "year\nGoverning law will be Minnesota.\n");
    EXPECT_EQ(doc->passageAt(doc->text.find("$58,800")).chunk_id, "c2");
    EXPECT_EQ(doc->passageAt(doc->text.find("Base rent")).chunk_id, "c1");
    EXPECT_EQ(doc->passageAt(doc->text.find("Governing")).page, 2);
}

}  // namespace
}  // namespace docintel::plugins
