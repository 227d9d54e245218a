// ingest::correctedOcrText: a US state's name that Tesseract read with a lower-case l for its
// capital I is put right wherever it stands as a word; the same letters inside a word, and
// names read right, are left alone.

#include <gtest/gtest.h>

#include "ingest/ocr_text.h"

namespace docintel::ingest {
namespace {

TEST(OcrText, AStateNameReadWithAnLForItsIIsPutRight) {
    EXPECT_EQ(correctedOcrText("Notices to Landlord: 118 Maple Lane, Ames, lowa 50010.\n"
                               "10. lowa law governs."),
              "Notices to Landlord: 118 Maple Lane, Ames, Iowa 50010.\n10. Iowa law governs.");
    EXPECT_EQ(correctedOcrText("Boise, ldaho 83706; Chicago, lllinois; Gary, lndiana"),
              "Boise, Idaho 83706; Chicago, Illinois; Gary, Indiana");
}

TEST(OcrText, TheSameLettersInsideAWordAreLeftAlone) {
    EXPECT_EQ(correctedOcrText("Chicago, Illinois 60606; flowage easement; slowards"),
              "Chicago, Illinois 60606; flowage easement; slowards");
    EXPECT_EQ(correctedOcrText(""), "");
}

}  // namespace
}  // namespace docintel::ingest
