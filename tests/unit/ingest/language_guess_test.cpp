// ingest::readsAsEnglish, which picks a scope's embedding model (docs/decisions/0075): English
// prose (also with figures, names and a few borrowed words) reads as English; Spanish, French
// and German prose, and text in Devanagari, Bengali and Arabic script, do not; text without
// letters falls to the primary model; short questions are told apart as well.

#include <gtest/gtest.h>

#include "ingest/language_guess.h"

namespace docintel::ingest {
namespace {

TEST(LanguageGuess, EnglishProseReadsAsEnglish) {
    EXPECT_TRUE(
        readsAsEnglish({"The tenant shall pay the rent of $4,500 on the first day of each "
                        "month to the landlord at the address given above."}));
    EXPECT_TRUE(readsAsEnglish({"Meeting notes", "Attendees: José de la Fuente, Ana López",
                                "The budget for the Madrid office was approved with the "
                                "changes proposed by the finance team."}));
}

TEST(LanguageGuess, OtherLatinScriptLanguagesDoNot) {
    EXPECT_FALSE(
        readsAsEnglish({"La cooperativa entregó 3.400 cajas de naranjas al mercado "
                        "central durante el mes de enero, según el informe del "
                        "director."}));
    EXPECT_FALSE(
        readsAsEnglish({"Le bureau sera fermé pour inventaire et les employés "
                        "recevront une note dans la semaine."}));
    EXPECT_FALSE(
        readsAsEnglish({"Die Lieferung ist nicht vollständig und wird mit dem nächsten "
                        "Transport zu der Filiale gebracht."}));
}

TEST(LanguageGuess, OtherScriptsDoNot) {
    EXPECT_FALSE(readsAsEnglish({"विद्यालय का वार्षिक खेल दिवस 12 फरवरी को आयोजित किया जाएगा।"}));
    EXPECT_FALSE(
        readsAsEnglish({"বার্ষিক সভা ১৫ মার্চ অনুষ্ঠিত হবে এবং সকল সদস্যকে উপস্থিত থাকতে হবে।"}));
    EXPECT_FALSE(readsAsEnglish({"سيتم افتتاح المكتب الجديد في الخامس من أبريل 2025."}));
    // A Hindi document with English headings and codes is still Hindi.
    EXPECT_FALSE(readsAsEnglish({"Invoice INV-2041",
                                 "भुगतान की अंतिम तिथि 30 अप्रैल है और "
                                 "विलंब शुल्क दो प्रतिशत प्रति माह होगा।"}));
}

// A question is judged the same way (the answerer's refusal, decision 0078): a short Spanish
// question has few function words, so its question words count too.
TEST(LanguageGuess, ShortQuestionsAreToldApart) {
    EXPECT_TRUE(readsAsEnglish({"What is the address of the new office?"}));
    EXPECT_TRUE(readsAsEnglish({"How many boxes will each employee receive?"}));
    EXPECT_FALSE(readsAsEnglish({"¿Cuánta electricidad consume?"}));
    EXPECT_FALSE(readsAsEnglish({"¿Cuánto dura la garantía?"}));
    EXPECT_FALSE(readsAsEnglish({"¿Dónde se celebra el taller?"}));
    EXPECT_FALSE(readsAsEnglish({"नए कार्यालय का पता क्या है?"}));
}

TEST(LanguageGuess, TextWithoutLettersFallsToThePrimaryModel) {
    EXPECT_TRUE(readsAsEnglish({}));
    EXPECT_TRUE(readsAsEnglish({"12,400.00 | 3,100.50 | 2025-04-05"}));
}

}  // namespace
}  // namespace docintel::ingest
