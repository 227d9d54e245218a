// Languages and the localised prompts of a conversation.

#include <gtest/gtest.h>

#include <set>

#include "conversations/languages.h"

namespace docintel::conversations {
namespace {

std::string norm(const std::string& code) {
    auto r = normaliseLanguage(code);
    return r.ok() ? *r : "error:" + r.error().code;
}

TEST(ConversationLanguages, BaseLanguageDropsTheRegion) {
    EXPECT_EQ(baseLanguage("es-ES"), "es");
    EXPECT_EQ(baseLanguage("bn-BD"), "bn");
    EXPECT_EQ(baseLanguage("en"), "en");
}

TEST(ConversationLanguages, Normalises) {
    EXPECT_EQ(supportedLanguages(),
              (std::vector<std::string>{"en-US", "es-ES", "bn-BD", "hi-IN", "ar-SA"}));
    EXPECT_EQ(norm("bn"), "bn-BD");
    EXPECT_EQ(norm("bn-IN"), "bn-BD");
    EXPECT_EQ(norm("bn_BD"), "bn-BD");
    EXPECT_EQ(norm("BN-bd"), "bn-BD");
    EXPECT_EQ(norm("en"), "en-US");
    EXPECT_EQ(norm("en-GB"), "en-US");
    EXPECT_EQ(norm("es"), "es-ES");
    EXPECT_EQ(norm("es-MX"), "es-ES");
    EXPECT_EQ(norm("hi"), "hi-IN");
    EXPECT_EQ(norm("ar"), "ar-SA");
    EXPECT_EQ(norm("ar-XA"), "ar-SA");
    EXPECT_EQ(norm(""), "en-US");
    EXPECT_EQ(norm("fr-FR"), "error:unsupported_language");
    EXPECT_EQ(norm("klingon"), "error:unsupported_language");
    EXPECT_EQ(normaliseLanguage("de").error().http_status, 422);
}

/// Whether `text` holds a character in [lo, hi] (code points).
bool hasScript(const std::string& text, char32_t lo, char32_t hi) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        char32_t cp = c;
        std::size_t n = 1;
        if (c >= 0xF0) {
            cp = c & 0x07, n = 4;
        } else if (c >= 0xE0) {
            cp = c & 0x0F, n = 3;
        } else if (c >= 0xC0) {
            cp = c & 0x1F, n = 2;
        }
        for (std::size_t k = 1; k < n && i + k < text.size(); ++k) {
            cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        }
        if (cp >= lo && cp <= hi) return true;
        i += n;
    }
    return false;
}

bool inScript(const std::string& lang, const std::string& text) {
    if (lang == "bn-BD") return hasScript(text, 0x0980, 0x09FF);
    if (lang == "hi-IN") return hasScript(text, 0x0900, 0x097F);
    if (lang == "ar-SA") return hasScript(text, 0x0600, 0x06FF);
    return !hasScript(text, 0x0600, 0x09FF);  // Latin script languages
}

TEST(ConversationLanguages, EveryPromptInEveryLanguageInItsScript) {
    const auto& intake = *findBuiltInTemplate("customer-intake");
    std::set<std::string> all;
    for (const auto& lang : supportedLanguages()) {
        const std::vector<std::string> prompts = {greeting(intake, lang), closingQuestion(lang),
                                                  saveConfirmationPrompt(lang),
                                                  consentDeclinedMessage(lang)};
        std::set<std::string> distinct(prompts.begin(), prompts.end());
        EXPECT_EQ(distinct.size(), prompts.size()) << lang;
        for (const auto& p : prompts) {
            EXPECT_FALSE(p.empty()) << lang;
            EXPECT_TRUE(inScript(lang, p)) << lang << ": " << p;
            EXPECT_TRUE(all.insert(p).second) << "repeated across languages: " << p;
        }
        // The greeting ends with the first field's question.
        const std::string first = fieldQuestion(intake.fields.front(), lang);
        EXPECT_NE(greeting(intake, lang).find(first), std::string::npos) << lang;
        std::set<std::string> questions;
        for (const auto& t : builtInTemplates()) {
            for (const auto& f : t.fields) {
                const std::string q = fieldQuestion(f, lang);
                EXPECT_TRUE(inScript(lang, q)) << lang << " " << f.key << ": " << q;
                EXPECT_EQ(q.find("{label}"), std::string::npos);
                questions.insert(q);
            }
        }
        // One distinct question per built-in key (follow_up_actions is shared by two).
        EXPECT_EQ(questions.size(), localisedFieldKeys().size()) << lang;
    }
    EXPECT_EQ(localisedFieldKeys().size(), 17U);
    EXPECT_NE(closingQuestion("en-US").find("anything else"), std::string::npos);
    EXPECT_NE(closingQuestion("en-US").find("save this conversation"), std::string::npos);
    // Questions differ between languages.
    const TemplateField urgency{"urgency", "Urgency", false, ""};
    std::set<std::string> per_language;
    for (const auto& lang : supportedLanguages()) per_language.insert(fieldQuestion(urgency, lang));
    EXPECT_EQ(per_language.size(), 5U);
}

TEST(ConversationLanguages, CustomFieldsAskByQuestionOrLabel) {
    const TemplateField own{"site", "Site", true, "Which site did you visit?"};
    EXPECT_EQ(fieldQuestion(own, "hi-IN"), "Which site did you visit?");
    const TemplateField bare{"budget_owner", "budget owner", false, ""};
    EXPECT_EQ(fieldQuestion(bare, "en-US"), "Please tell me about budget owner.");
    EXPECT_EQ(fieldQuestion(bare, "es-ES"), "Por favor, hábleme de budget owner.");
    for (const auto& lang : {"bn-BD", "hi-IN", "ar-SA"}) {
        const auto q = fieldQuestion(bare, lang);
        EXPECT_NE(q.find("budget owner"), std::string::npos);
        EXPECT_TRUE(inScript(lang, q)) << q;
    }
    const Template empty{"x", "X", "", {}, false};
    EXPECT_FALSE(greeting(empty, "en-US").empty());
}

}  // namespace
}  // namespace docintel::conversations
