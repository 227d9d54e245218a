#pragma once

// The languages a conversation runs in and its localised texts: the greeting after consent,
// one question per built-in field, the closing and save questions and the consent-declined
// message (docs/conversations.md "Languages"). UTF-8. Pure; thread-safe.

#include <string>
#include <string_view>
#include <vector>

#include "conversations/templates.h"
#include "plugin_api/result.h"

namespace docintel::conversations {

constexpr const char* kDefaultLanguage = "en-US";

/// en-US, es-ES, bn-BD, hi-IN, ar-SA.
const std::vector<std::string>& supportedLanguages();

/// A language code in its canonical form: case and "_" are forgiven and a bare or other-region
/// code maps to the supported one of its language ("bn", "bn-IN", "bn_BD" → "bn-BD", "en" →
/// "en-US"); empty → en-US. Anything else is 422 `unsupported_language`.
plugin::Result<std::string> normaliseLanguage(std::string_view code);
/// The language of a canonical code without its region ("es-ES" → "es"): what speech
/// recognition and the answerer are asked for.
std::string baseLanguage(std::string_view code);

/// The question that asks for `field` in `language` (canonical code): the field's own
/// question when it has one, the built-in question for its key, else "Please tell me about
/// {label}." in the language.
std::string fieldQuestion(const TemplateField& field, std::string_view language);

/// The assistant's first turn after consent: what the session is, then the question for the
/// template's first field ("" question when the template has no fields).
std::string greeting(const Template& tmpl, std::string_view language);

/// "Is there anything else you would like to add, or shall I save this conversation?".
std::string closingQuestion(std::string_view language);

/// The yes/no question asked before the conversation is saved.
std::string saveConfirmationPrompt(std::string_view language);

/// What the assistant says when the participant declines consent.
std::string consentDeclinedMessage(std::string_view language);

/// The built-in field keys that have localised questions.
std::vector<std::string> localisedFieldKeys();

}  // namespace docintel::conversations
