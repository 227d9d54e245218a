#pragma once

// Local recognisers of a participant's turn (docs/conversations.md "Collection and
// recognisers"): names, dates, amounts, urgency and contact preferences stated in the text,
// question-like text, closing phrases and yes/no answers. They find a value only when the text
// clearly holds one. Pure; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docintel::conversations {

/// What a recogniser found: the normalised value and the part of the text it came from.
struct Recognised {
    std::string value;
    std::string source_text;
};

/// A person's name introduced as "my name is X", "name's X", "call me X", "I am X", "I'm X",
/// "this is X" (also "me llamo X", "mi nombre es X", "soy X"): one to four words. After "I am",
/// "I'm", "this is" and "soy" the words must be capitalised and not common adjectives, so
/// "I am happy" is no name.
std::optional<Recognised> recogniseName(std::string_view text);

/// A date: ISO or written with a year ("2027-03-12", "12 March 2027", "March 12, 2027") as an
/// ISO date; "March 12" / "12 March" as written; weekdays ("next Friday", "on Monday"),
/// "today", "tomorrow", "next week" in lower case.
std::optional<Recognised> recogniseDate(std::string_view text);

/// An amount of money: "$1,200", "USD 54,000" ("$1,200.00"), or a currency symbol or code
/// (€ £ ₹ ৳ EUR GBP INR BDT SAR AED) with a number, as written ("€250", "EUR 1,200").
std::optional<Recognised> recogniseAmount(std::string_view text);

/// Urgency: "high" (urgent, asap, as soon as possible, immediately, right away, emergency,
/// critical, high priority), "low" (no rush, whenever, not urgent, no hurry, low priority,
/// when you can), "medium" (medium/normal priority, this week, soon).
std::optional<Recognised> recogniseUrgency(std::string_view text);

/// A contact preference: channel email, phone, sms or whatsapp (the first one named), with the
/// address or number when given: "email: ana@example.com", "phone: +1 555 010 2000", "sms".
/// An e-mail address alone counts as email.
std::optional<Recognised> recogniseContact(std::string_view text);

/// Whether the text asks something (ends with "?", "؟" or starts with "¿" or a question word in
/// English, Spanish, Bengali, Hindi or Arabic), so the plugin may answer it from documents.
bool isQuestionAboutDocuments(std::string_view text);

/// Whether a short text (≤ 8 words) closes the conversation ("that's all", "nothing else", "we're
/// done", "save it", "eso es todo", "nada más", ...).
bool isClosingPhrase(std::string_view text);

/// Whether the text says yes ("yes", "sure", "please do", "sí", "হ্যাঁ", "हाँ", "نعم", ...);
/// a text saying no as well counts as no.
bool isAffirmative(std::string_view text);

}  // namespace docintel::conversations
