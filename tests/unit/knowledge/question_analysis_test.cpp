// The question read once (knowledge/question_analysis.h): the type of value it asks for, its
// words as every step compares them, and whether a sentence of a real document states a value
// of that type (transcript lines are numbered, table headings name amounts without stating one).

#include <gtest/gtest.h>

#include "knowledge/extractive_answerer.h"
#include "knowledge/question_analysis.h"

namespace docintel::knowledge {
namespace {

AnswerType typeOf(const std::string& question) { return analyseQuestion(question).expects; }

TEST(QuestionAnalysis, ReadsTheTypeOfValueAsked) {
    EXPECT_EQ(typeOf("On what date was the case argued?"), AnswerType::kDate);
    EXPECT_EQ(typeOf("When did the Lion Air Flight 610 accident happen?"), AnswerType::kDate);
    EXPECT_EQ(typeOf("At what time did the oral argument begin?"), AnswerType::kTime);
    EXPECT_EQ(typeOf("How many airplanes on the US register would the proposed AD affect?"),
              AnswerType::kNumber);
    EXPECT_EQ(typeOf("What hourly labour rate does the FAA use in its cost estimate?"),
              AnswerType::kMoney);
    EXPECT_EQ(typeOf("How much did Sen Hawley's train trip to New York cost?"), AnswerType::kMoney);
    EXPECT_EQ(typeOf("What do bananas cost?"), AnswerType::kMoney);
    EXPECT_EQ(typeOf("What did Oregon spend on library operations, in millions of dollars?"),
              AnswerType::kMoney);
    EXPECT_EQ(typeOf("Which city is the respondent's lawyer from?"), AnswerType::kPlace);
    EXPECT_EQ(typeOf("Which Indonesian body investigated the Lion Air accident?"),
              AnswerType::kPerson);
    EXPECT_EQ(typeOf("Who argued for the petitioner?"), AnswerType::kPerson);
    EXPECT_EQ(typeOf("Which councillor voted against the recommendation?"), AnswerType::kPerson);
    EXPECT_EQ(typeOf("What does MCAS stand for?"), AnswerType::kAny);
    EXPECT_EQ(typeOf("What makes an employee a hybrid employee?"), AnswerType::kAny);
    // A kind of person or place the question is about, not for: its subject or a possessor.
    EXPECT_EQ(typeOf("What does the author love?"), AnswerType::kAny);
    EXPECT_EQ(typeOf("What did the company report as its revenue?"), AnswerType::kAny);
    // Not a person but an amount: revenue, an allowance, a rent are money.
    EXPECT_EQ(typeOf("What was the company's revenue in 2023?"), AnswerType::kMoney);
    // A noun that ends in "s" is not a plural: "surplus" is asked for as itself.
    EXPECT_EQ(typeOf("What surplus did the club make last year?"), AnswerType::kMoney);
    EXPECT_EQ(typeOf("What fare does a child pay on the ferry?"), AnswerType::kMoney);
    EXPECT_EQ(typeOf("What is the daily meal allowance on a reimbursed trip?"), AnswerType::kMoney);
    EXPECT_EQ(typeOf("Which company's card was charged?"), AnswerType::kAny);
    EXPECT_EQ(typeOf("Which company produced the transcript?"), AnswerType::kPerson);
    EXPECT_EQ(typeOf("What is the name of the Chief People Officer?"), AnswerType::kPerson);
    EXPECT_EQ(typeOf("What is the name of the town's river?"), AnswerType::kAny);
    // A hyphenated compound is one word: "on-time" names no time.
    EXPECT_EQ(typeOf("What was the on-time delivery rate in Q3?"), AnswerType::kNumber);
    EXPECT_EQ(typeOf("What is the slide's title?"), AnswerType::kTitle);  // past the "'s"
    EXPECT_EQ(typeOf("What is the heading of the table?"), AnswerType::kTitle);
    EXPECT_EQ(toString(AnswerType::kMoney), "money");
    // A contact detail is asked for in its own form, not as a number or a place ("address").
    EXPECT_EQ(typeOf("What fax number can commenters use?"), AnswerType::kContact);
    EXPECT_EQ(analyseQuestion("What fax number can commenters use?").contact, "phone");
    EXPECT_EQ(analyseQuestion("What number do I call to report a leak?").contact, "phone");
    EXPECT_EQ(analyseQuestion("What is the e-mail address for billing queries?").contact, "email");
    EXPECT_EQ(analyseQuestion("What is the postcode of the library?").contact, "postcode");
    EXPECT_EQ(typeOf("Who sent the email with the attachment?"), AnswerType::kPerson);
    EXPECT_EQ(typeOf("In which year was the first email sent?"), AnswerType::kDate);
    EXPECT_EQ(typeOf("How much is the monthly mobile phone allowance?"), AnswerType::kMoney);
}

TEST(QuestionAnalysis, WordsAreFoldedOnceForEveryStep) {
    const auto q = analyseQuestion("Why didn't Yes\u00fcn Tem\u00fcr return to Shangdu in 1328?");
    EXPECT_TRUE(q.word_set.count("temur"));  // diacritics folded
    EXPECT_TRUE(q.word_set.count("shangdu"));
    EXPECT_FALSE(q.word_set.count("didn"));  // the contraction's stem is left out
    EXPECT_TRUE(q.negated);
    EXPECT_TRUE(q.key_terms.count("1328"));
    EXPECT_TRUE(q.key_terms.count("yesun"));
    EXPECT_TRUE(q.asks[5]);  // "why"
    EXPECT_FALSE(q.asks[0]);
    EXPECT_EQ(q.words.front(), "yesun");

    // A fiscal year's prefix is taken off the year, so 2023 meets a column "FY2023".
    EXPECT_EQ(contentWords("FY2023: 948,250"), (std::vector<std::string>{"fy", "2023", "948250"}));
    EXPECT_EQ(contentWords("B2B in 2023"), (std::vector<std::string>{"b2b", "2023"}));
}

TEST(QuestionAnalysis, SentencesStateTheAskedValueOrNot) {
    const auto date = analyseQuestion("On what date was the case argued?");
    EXPECT_TRUE(statesAskedValue(date, "10 Tuesday, January 13, 2009"));
    EXPECT_TRUE(statesAskedValue(date, "DATE: DISTRICT DIRECTOR FROM MAY 23"));
    // A numbered transcript line holds a figure but no date.
    EXPECT_FALSE(statesAskedValue(date, "19 of the Respondent."));
    EXPECT_FALSE(statesAskedValue(date, "6 v. : No. 07-1315"));  // a docket number
    EXPECT_TRUE(statesAskedValue(date, "05/28/2019"));
    EXPECT_TRUE(statesAskedValue(date, "in the 1970s"));
    EXPECT_FALSE(statesAskedValue(date, "Comments may be sent by fax."));

    const auto time = analyseQuestion("At what time did the oral argument begin?");
    EXPECT_TRUE(statesAskedValue(time, "14 at 1:01 p.m."));
    EXPECT_FALSE(statesAskedValue(time, "10 Tuesday, January 13, 2009"));

    const auto money = analyseQuestion("What is the amount of document DHAW20190001?");
    EXPECT_TRUE(statesAskedValue(money, "STAFF TRANSPORTATION 920.68 AIRFARE FOR E JOHNSON"));
    EXPECT_TRUE(statesAskedValue(money, "the average total cost per operator to be $7,650"));
    EXPECT_FALSE(statesAskedValue(money, "DOCUMENT NO. | DATE | PAYEE NAME | AMOUNT ($)"));
    // A table's amount in thousands, its currency in a caption; a count in prose is none.
    EXPECT_TRUE(statesAskedValue(money, "Department: Planning | FY2023: 640,000 | Staff: 14"));
    EXPECT_FALSE(statesAskedValue(money, "It handed over 10,000 blankets."));

    const auto sender = analyseQuestion("Who sent the email with the attachment?");
    EXPECT_TRUE(statesAskedValue(sender, "From: Mallori Harrell <mallori@unstructured.io>"));
    EXPECT_FALSE(statesAskedValue(sender, "Subject: Fake email with attachment"));

    EXPECT_FALSE(statesAskedValue(analyseQuestion("What does MCAS stand for?"), "MCAS 2019"));

    const auto phone = analyseQuestion("What is the supplier's phone number?");
    EXPECT_TRUE(statesAskedValue(phone, "Telephone: 01756 230 488 (Monday to Friday)"));
    EXPECT_TRUE(statesAskedValue(phone, "Fax: 202\u2013493\u20132251"));
    EXPECT_FALSE(statesAskedValue(phone, "Supplier account: PHX-118, order of 12 May 2026"));
    const auto email = analyseQuestion("What is the e-mail address for billing queries?");
    EXPECT_TRUE(statesAskedValue(email, "Write to billing@calderbrook.example.co.uk"));
    EXPECT_FALSE(statesAskedValue(email, "Billing and payments: 0345 719 4060"));
    const auto postcode = analyseQuestion("What is the postcode of the library?");
    EXPECT_TRUE(statesAskedValue(postcode, "40 Kingsmill Street, Corbridge NE45 5AB"));
    EXPECT_FALSE(statesAskedValue(postcode, "Corbridge Central Library, 40 Kingsmill Street"));
}

}  // namespace
}  // namespace docintel::knowledge
