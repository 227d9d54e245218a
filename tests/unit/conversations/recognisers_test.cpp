// The local recognisers on realistic sentences, including texts they must not read.

#include <gtest/gtest.h>

#include "conversations/recognisers.h"

namespace docintel::conversations {
namespace {

template <typename F>
std::string value(F f, const std::string& text) {
    const auto r = f(text);
    return r ? r->value : "<none>";
}

TEST(ConversationRecognisers, Names) {
    EXPECT_EQ(value(recogniseName, "Hi, my name is Priya Sharma and I need help."), "Priya Sharma");
    EXPECT_EQ(value(recogniseName, "my name is john smith"), "John Smith");
    EXPECT_EQ(value(recogniseName, "Hello, this is Omar Haddad from Acme Logistics."),
              "Omar Haddad");
    EXPECT_EQ(value(recogniseName, "I am Elena Ruiz, the site manager."), "Elena Ruiz");
    EXPECT_EQ(value(recogniseName, "I'm Karim."), "Karim");
    EXPECT_EQ(value(recogniseName, "Hola, me llamo Lucía Gómez."), "Lucía Gómez");
    const auto r = recogniseName("Well, my name is Priya Sharma.");
    ASSERT_TRUE(r);
    EXPECT_NE(r->source_text.find("Priya Sharma"), std::string::npos);
    // Not names.
    EXPECT_EQ(value(recogniseName, "I am happy with the service."), "<none>");
    EXPECT_EQ(value(recogniseName, "I am Very happy with it."), "<none>");
    EXPECT_EQ(value(recogniseName, "I'm calling about my invoice."), "<none>");
    EXPECT_EQ(value(recogniseName, "This is urgent, the pump failed."), "<none>");
    EXPECT_EQ(value(recogniseName, "Please call me back tomorrow."), "<none>");
    EXPECT_EQ(value(recogniseName, "The delivery was late again."), "<none>");
}

TEST(ConversationRecognisers, Dates) {
    EXPECT_EQ(value(recogniseDate, "The deadline is 2027-03-12."), "2027-03-12");
    EXPECT_EQ(value(recogniseDate, "It started on 12 March 2027 at the depot."), "2027-03-12");
    EXPECT_EQ(value(recogniseDate, "We signed on March 12, 2027."), "2027-03-12");
    EXPECT_EQ(value(recogniseDate, "Can you come by March 12?"), "March 12");
    EXPECT_EQ(value(recogniseDate, "Before the 3rd of June would be best."), "3rd of June");
    EXPECT_EQ(value(recogniseDate, "Let's meet next Friday."), "next friday");
    EXPECT_EQ(value(recogniseDate, "I can do it on Monday."), "monday");
    EXPECT_EQ(value(recogniseDate, "Please send it tomorrow."), "tomorrow");
    EXPECT_EQ(value(recogniseDate, "I have 12 boxes and 3 pallets."), "<none>");
    EXPECT_EQ(value(recogniseDate, "May I ask a question?"), "<none>");
}

TEST(ConversationRecognisers, Amounts) {
    EXPECT_EQ(value(recogniseAmount, "The invoice was $1,200 last month."), "$1,200.00");
    EXPECT_EQ(value(recogniseAmount, "Our budget is USD 54,000 per year."), "$54,000.00 per year");
    // Pounds and euros are normalised as dollars are, keeping their sign.
    EXPECT_EQ(value(recogniseAmount, "They charged €250 for the repair."), "€250.00");
    EXPECT_EQ(value(recogniseAmount, "We paid EUR 1,200 upfront."), "€1,200.00");
    EXPECT_EQ(value(recogniseAmount, "Rent is £950 per calendar month."), "£950.00 per month");
    EXPECT_EQ(value(recogniseAmount, "It costs 500 rupees."), "500 rupees");
    EXPECT_EQ(value(recogniseAmount, "About 40 people attended on 3 days."), "<none>");
}

TEST(ConversationRecognisers, Urgency) {
    EXPECT_EQ(value(recogniseUrgency, "This is urgent, the pump failed."), "high");
    EXPECT_EQ(value(recogniseUrgency, "Please fix it ASAP."), "high");
    EXPECT_EQ(value(recogniseUrgency, "We need it immediately."), "high");
    EXPECT_EQ(value(recogniseUrgency, "It is high priority for us."), "high");
    EXPECT_EQ(value(recogniseUrgency, "No rush, whenever you can."), "low");
    EXPECT_EQ(value(recogniseUrgency, "It's not urgent at all."), "low");
    EXPECT_EQ(value(recogniseUrgency, "Sometime this week would be good."), "medium");
    EXPECT_EQ(value(recogniseUrgency, "The meeting went well."), "<none>");
}

TEST(ConversationRecognisers, ContactPreferences) {
    EXPECT_EQ(value(recogniseContact, "Please email me at priya.sharma@example.com."),
              "email: priya.sharma@example.com");
    EXPECT_EQ(value(recogniseContact, "An e-mail is best."), "email");
    EXPECT_EQ(value(recogniseContact, "Call me on +1 555 010 2000 after five."),
              "phone: +1 555 010 2000");
    EXPECT_EQ(value(recogniseContact, "A phone call works."), "phone");
    EXPECT_EQ(value(recogniseContact, "Just text me, SMS is easiest."), "sms");
    EXPECT_EQ(value(recogniseContact, "WhatsApp please: +44 7700 900123"),
              "whatsapp: +44 7700 900123");
    EXPECT_EQ(value(recogniseContact, "Reach me at omar@acme.io"), "email: omar@acme.io");
    EXPECT_EQ(value(recogniseContact, "The pump failed on Monday."), "<none>");
    EXPECT_EQ(value(recogniseContact, "I read the text of the contract."), "<none>");
}

TEST(ConversationRecognisers, QuestionsClosingAndYes) {
    EXPECT_TRUE(isQuestionAboutDocuments("What does the warranty cover?"));
    EXPECT_TRUE(isQuestionAboutDocuments("how long is the notice period"));
    EXPECT_TRUE(isQuestionAboutDocuments("¿Cuál es el plazo de entrega"));
    EXPECT_TRUE(isQuestionAboutDocuments("Qué dice el contrato sobre pagos"));
    EXPECT_TRUE(isQuestionAboutDocuments("চুক্তিতে কী লেখা আছে?"));
    EXPECT_TRUE(isQuestionAboutDocuments("কখন ডেলিভারি হবে"));
    EXPECT_TRUE(isQuestionAboutDocuments("क्या वारंटी में मरम्मत शामिल है"));
    EXPECT_TRUE(isQuestionAboutDocuments("ما هي مدة الضمان؟"));
    EXPECT_TRUE(isQuestionAboutDocuments("هل يشمل العقد الصيانة"));
    EXPECT_FALSE(isQuestionAboutDocuments("My name is Priya Sharma."));
    EXPECT_FALSE(isQuestionAboutDocuments("However, the pump failed."));
    EXPECT_FALSE(isQuestionAboutDocuments("Somewhat urgent."));
    EXPECT_FALSE(isQuestionAboutDocuments(""));

    EXPECT_TRUE(isClosingPhrase("No, that's all."));
    EXPECT_TRUE(isClosingPhrase("Nothing else, thanks"));
    EXPECT_TRUE(isClosingPhrase("Eso es todo."));
    EXPECT_TRUE(isClosingPhrase("बस इतना ही।"));
    EXPECT_FALSE(isClosingPhrase("The pump failed on Monday."));
    EXPECT_FALSE(
        isClosingPhrase("That's it for the first site, but the second site also had a leaking "
                        "valve near the gate"));

    EXPECT_TRUE(isAffirmative("Yes, please."));
    EXPECT_TRUE(isAffirmative("Sí, guárdela."));
    EXPECT_TRUE(isAffirmative("হ্যাঁ।"));
    EXPECT_TRUE(isAffirmative("हाँ"));
    EXPECT_TRUE(isAffirmative("نعم"));
    EXPECT_TRUE(isAffirmative("Go ahead"));
    EXPECT_FALSE(isAffirmative("No, not yet."));
    EXPECT_FALSE(isAffirmative("Wait, one more thing."));
    EXPECT_FALSE(isAffirmative("Así es el contrato."));
}

}  // namespace
}  // namespace docintel::conversations
