// The collection state: turns that fill template fields and the prompts that follow.

#include <gtest/gtest.h>

#include "conversations/collection.h"
#include "conversations/languages.h"

namespace docintel::conversations {
namespace {

using nlohmann::json;

const Template& intake() { return *findBuiltInTemplate("customer-intake"); }

TurnOutcome turn(const json& state, const Template& t, const std::string& text,
                 const std::string& lang = "en-US") {
    auto r = applyTurn(state, t, text, lang);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().code);
    return r.ok() ? *r : TurnOutcome{};
}

TEST(ConversationCollection, NewState) {
    const json s = newCollectionState(intake(), true);
    EXPECT_EQ(s["template"], "customer-intake");
    EXPECT_EQ(s["collected_fields"], json::object());
    EXPECT_EQ(s["missing_required_fields"],
              json({"participant_name", "request_summary", "preferred_follow_up"}));
    EXPECT_EQ(s["ready_to_finish"], false);
    EXPECT_EQ(s["last_question_field"], "participant_name");
    EXPECT_EQ(s["redact_pii"], true);
    EXPECT_EQ(newCollectionState(intake(), false)["redact_pii"], false);
}

TEST(ConversationCollection, RecogniserKindsByKey) {
    EXPECT_EQ(recogniserKind("participant_name"), "name");
    EXPECT_EQ(recogniserKind("customer_identity"), "name");
    EXPECT_EQ(recogniserKind("urgency"), "urgency");
    EXPECT_EQ(recogniserKind("preferred_follow_up"), "contact");
    EXPECT_EQ(recogniserKind("follow_up_actions"), "");
    EXPECT_EQ(recogniserKind("due_date"), "date");
    EXPECT_EQ(recogniserKind("budget"), "amount");
    EXPECT_EQ(recogniserKind("update_notes"), "");
    EXPECT_EQ(recogniserKind("request_summary"), "");
}

TEST(ConversationCollection, ThreeTurnsFillCustomerIntake) {
    json s = newCollectionState(intake(), true);

    auto t1 = turn(s, intake(), "Hi, my name is Priya Sharma.");
    EXPECT_EQ(t1.state["collected_fields"]["participant_name"]["value"], "Priya Sharma");
    EXPECT_EQ(t1.state["collected_fields"]["participant_name"]["source_text"],
              "Hi, my name is Priya Sharma.");
    EXPECT_EQ(t1.state["collected_fields"]["participant_name"]["turn"], 1);
    EXPECT_EQ(t1.state["missing_required_fields"],
              json({"request_summary", "preferred_follow_up"}));
    EXPECT_FALSE(t1.ready_to_finish);
    EXPECT_EQ(t1.next_question_field, "request_summary");
    EXPECT_EQ(t1.prompt, fieldQuestion(*intake().find("request_summary"), "en-US"));
    EXPECT_EQ(t1.state["last_question_field"], "request_summary");
    EXPECT_EQ(t1.filled_fields, std::vector<std::string>{"participant_name"});

    auto t2 = turn(t1.state, intake(),
                   "The heating in our office has failed and it is urgent, we need a technician.");
    EXPECT_EQ(t2.state["collected_fields"]["request_summary"]["value"],
              "The heating in our office has failed and it is urgent, we need a technician.");
    EXPECT_EQ(t2.state["collected_fields"]["urgency"]["value"], "high");
    EXPECT_EQ(t2.state["collected_fields"]["urgency"]["turn"], 2);
    EXPECT_EQ(t2.state["missing_required_fields"], json({"preferred_follow_up"}));
    EXPECT_EQ(t2.next_question_field, "preferred_follow_up");
    EXPECT_EQ(t2.filled_fields, (std::vector<std::string>{"request_summary", "urgency"}));
    EXPECT_NE(t2.prompt, t1.prompt);

    auto t3 = turn(t2.state, intake(), "Please email me at priya@example.com.");
    EXPECT_EQ(t3.state["collected_fields"]["preferred_follow_up"]["value"],
              "email: priya@example.com");
    EXPECT_EQ(t3.state["missing_required_fields"], json::array());
    EXPECT_TRUE(t3.ready_to_finish);
    EXPECT_EQ(t3.state["ready_to_finish"], true);
    EXPECT_EQ(t3.next_question_field, "");
    EXPECT_EQ(t3.prompt, closingQuestion("en-US"));
    EXPECT_FALSE(t3.awaiting_save_confirmation);
    // Earlier fields are kept as they were.
    EXPECT_EQ(t3.state["collected_fields"]["participant_name"]["value"], "Priya Sharma");

    // Closing phrase → save question → yes.
    auto t4 = turn(t3.state, intake(), "No, that's all.");
    EXPECT_TRUE(t4.awaiting_save_confirmation);
    EXPECT_EQ(t4.prompt, saveConfirmationPrompt("en-US"));
    EXPECT_FALSE(t4.save_conversation);
    auto t5 = turn(t4.state, intake(), "Yes, please.");
    EXPECT_TRUE(t5.save_conversation);
    EXPECT_EQ(t5.state["participant_turns"], 5);
}

TEST(ConversationCollection, SaveQuestionAnsweredNoKeepsCollecting) {
    json s = newCollectionState(intake(), true);
    s = turn(s, intake(), "I am Omar Haddad.").state;
    s = turn(s, intake(), "Our lease renewal paperwork is missing.").state;
    s = turn(s, intake(), "A phone call is fine.").state;
    auto closing = turn(s, intake(), "That's everything.");
    ASSERT_TRUE(closing.awaiting_save_confirmation);
    auto no = turn(closing.state, intake(), "No, wait, it is not urgent at all.");
    EXPECT_FALSE(no.save_conversation);
    EXPECT_FALSE(no.awaiting_save_confirmation);
    EXPECT_EQ(no.state["collected_fields"]["urgency"]["value"], "low");
    EXPECT_EQ(no.prompt, closingQuestion("en-US"));
}

TEST(ConversationCollection, QuestionsDoNotAnswerTheAskedField) {
    const Template& t = *findBuiltInTemplate("general-guided-conversation");
    json s = newCollectionState(t, true);
    auto q = turn(s, t, "What does the service contract say about response times?");
    EXPECT_TRUE(q.is_question);
    EXPECT_EQ(q.state["collected_fields"], json::object());
    EXPECT_EQ(q.next_question_field, "purpose");  // asked again
    auto a = turn(q.state, t, "We are planning the spring maintenance schedule.");
    EXPECT_FALSE(a.is_question);
    EXPECT_EQ(a.state["collected_fields"]["purpose"]["turn"], 2);
    EXPECT_EQ(a.next_question_field, "key_facts");
    // Optional "decisions" is never asked: after key_facts comes follow_up_actions.
    auto b = turn(a.state, t, "Two chillers need new filters before May.");
    EXPECT_EQ(b.next_question_field, "follow_up_actions");
}

TEST(ConversationCollection, PromptsInTheSessionLanguage) {
    json s = newCollectionState(intake(), true);
    auto t = turn(s, intake(), "আমার নাম রহিম।", "bn-BD");
    EXPECT_EQ(t.state["collected_fields"]["participant_name"]["value"], "আমার নাম রহিম।");
    EXPECT_EQ(t.prompt, fieldQuestion(*intake().find("request_summary"), "bn-BD"));
    auto h = turn(s, intake(), "मेरा नाम अनीता है।", "hi-IN");
    EXPECT_EQ(h.prompt, fieldQuestion(*intake().find("request_summary"), "hi-IN"));
}

TEST(ConversationCollection, LongTurnIsTakenWhole) {
    std::string text = "My name is Priya Sharma. ";
    while (text.size() < 200000) text += "The boiler in the east wing keeps failing. ";
    auto t = turn(newCollectionState(intake(), true), intake(), text);
    EXPECT_EQ(t.state["collected_fields"]["participant_name"]["value"], "Priya Sharma");
    EXPECT_EQ(t.next_question_field, "request_summary");
}

TEST(ConversationCollection, EmptyTurnIsRefused) {
    auto r = applyTurn(newCollectionState(intake(), true), intake(), "   \n", "en-US");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "empty_turn");
    EXPECT_EQ(r.error().http_status, 400);
}

TEST(ConversationCollection, NextQuestionPrefersAnotherMissingField) {
    json s = newCollectionState(intake(), true);
    EXPECT_EQ(nextQuestionField(s, intake(), "participant_name"), "request_summary");
    EXPECT_EQ(nextQuestionField(s, intake(), ""), "participant_name");
    s = mergeLlmFields(s, intake(),
                       {{"participant_name", "Ana"}, {"request_summary", "New badge"}});
    EXPECT_EQ(nextQuestionField(s, intake(), "preferred_follow_up"), "preferred_follow_up");
    s = mergeLlmFields(s, intake(), {{"preferred_follow_up", "email"}});
    EXPECT_EQ(nextQuestionField(s, intake(), ""), "");
}

TEST(ConversationCollection, LlmMergeKeepsOnlyTemplateKeysWithValues) {
    json s = newCollectionState(intake(), true);
    s = turn(s, intake(), "I am Omar Haddad.").state;
    const json extracted = {{"request_summary", "  Replace the broken badge reader  "},
                            {"urgency", ""},
                            {"preferred_follow_up", nullptr},
                            {"participant_name", 42},
                            {"favourite_colour", "blue"}};
    const json merged = mergeLlmFields(s, intake(), extracted, "the turn text");
    const json& c = merged["collected_fields"];
    EXPECT_EQ(c["request_summary"]["value"], "Replace the broken badge reader");
    EXPECT_EQ(c["request_summary"]["source_text"], "the turn text");
    EXPECT_EQ(c["request_summary"]["turn"], 1);
    EXPECT_FALSE(c.contains("urgency"));
    EXPECT_FALSE(c.contains("preferred_follow_up"));
    EXPECT_FALSE(c.contains("favourite_colour"));
    EXPECT_EQ(c["participant_name"]["value"], "Omar Haddad");  // the number was dropped
    EXPECT_EQ(merged["missing_required_fields"], json({"preferred_follow_up"}));
    EXPECT_EQ(merged["ready_to_finish"], false);
    // Not an object: nothing merged.
    EXPECT_EQ(mergeLlmFields(s, intake(), json::array({"x"}))["collected_fields"],
              s["collected_fields"]);
}

}  // namespace
}  // namespace docintel::conversations
