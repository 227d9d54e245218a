// Conversation templates: the built-in fields and the custom template validator.

#include <gtest/gtest.h>

#include "conversations/templates.h"

namespace docintel::conversations {
namespace {

using nlohmann::json;

std::vector<std::pair<std::string, bool>> fieldsOf(const std::string& id) {
    const Template* t = findBuiltInTemplate(id);
    EXPECT_NE(t, nullptr) << id;
    std::vector<std::pair<std::string, bool>> out;
    if (t == nullptr) return out;
    for (const auto& f : t->fields) {
        EXPECT_FALSE(f.label.empty());
        out.emplace_back(f.key, f.required);
    }
    return out;
}

TEST(ConversationTemplates, BuiltInsHaveTheirFields) {
    using F = std::vector<std::pair<std::string, bool>>;
    ASSERT_EQ(builtInTemplates().size(), 4U);
    EXPECT_EQ(builtInTemplates().front().id, "customer-knowledge-capture");
    EXPECT_EQ(std::string(kDefaultTemplateId), "customer-knowledge-capture");
    EXPECT_EQ(fieldsOf("customer-knowledge-capture"), (F{{"information_provided", true},
                                                         {"customer_identity", false},
                                                         {"subject", false},
                                                         {"requested_action", false},
                                                         {"follow_up_actions", false}}));
    EXPECT_EQ(fieldsOf("general-guided-conversation"), (F{{"purpose", true},
                                                          {"key_facts", true},
                                                          {"decisions", false},
                                                          {"follow_up_actions", true}}));
    EXPECT_EQ(fieldsOf("customer-intake"), (F{{"participant_name", true},
                                              {"request_summary", true},
                                              {"urgency", false},
                                              {"preferred_follow_up", true}}));
    EXPECT_EQ(fieldsOf("expert-interview"), (F{{"topic", true},
                                               {"expertise", true},
                                               {"examples", true},
                                               {"risks", false},
                                               {"recommendations", true}}));
    EXPECT_EQ(findBuiltInTemplate("nope"), nullptr);
    EXPECT_EQ(
        findBuiltInTemplate("customer-intake")->requiredKeys(),
        (std::vector<std::string>{"participant_name", "request_summary", "preferred_follow_up"}));
}

TEST(ConversationTemplates, ResolveDefaultsAndFindsCustom) {
    auto def = resolveTemplate("", {});
    ASSERT_TRUE(def.ok());
    EXPECT_EQ(def->id, "customer-knowledge-capture");
    Template custom{"site-visit", "Site visit", "", {{"site", "Site", true, ""}}, false};
    auto found = resolveTemplate("site-visit", {custom});
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->fields.size(), 1U);
    auto missing = resolveTemplate("other", {custom});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().http_status, 404);
}

TEST(ConversationTemplates, ParsesAValidCustomTemplate) {
    const json body = {{"id", "site-visit"},
                       {"name", "Site visit"},
                       {"fields",
                        {{{"key", "site_name"}, {"label", "Site"}, {"required", true}},
                         {{"key", "issues"},
                          {"label", "Issues found"},
                          {"question", "What issues did you find?"}}}}};
    auto t = parseTemplate(body);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->id, "site-visit");
    ASSERT_EQ(t->fields.size(), 2U);
    EXPECT_TRUE(t->fields[0].required);
    EXPECT_FALSE(t->fields[1].required);
    EXPECT_EQ(t->fields[1].question, "What issues did you find?");
    const json back = templateJson(*t);
    EXPECT_EQ(back["fields"][1]["question"], "What issues did you find?");
    EXPECT_FALSE(back["fields"][0].contains("question"));
    EXPECT_TRUE(parseTemplate(back).ok());
}

json detailOf(const json& body) {
    auto t = parseTemplate(body);
    EXPECT_FALSE(t.ok());
    if (t.ok()) return json::array();
    EXPECT_EQ(t.error().http_status, 422);
    EXPECT_EQ(t.error().code, "validation_error");
    return json::parse(t.error().message);
}

bool hasLoc(const json& detail, const json& loc) {
    for (const auto& d : detail) {
        if (d["loc"] == loc) return true;
    }
    return false;
}

TEST(ConversationTemplates, RejectsBadKeysLabelsAndCounts) {
    const json detail = detailOf({{"name", "Bad"},
                                  {"fields",
                                   {{{"key", ""}, {"label", "Empty key"}},
                                    {{"key", "Bad-Key"}, {"label", "Pattern"}},
                                    {{"key", "dup"}, {"label", "One"}},
                                    {{"key", "dup"}, {"label", "Two"}},
                                    {{"key", "fine"}, {"label", std::string(121, 'x')}},
                                    {{"key", "no_label"}, {"label", ""}},
                                    {{"key", "flag"}, {"label", "Flag"}, {"required", "yes"}}}}});
    EXPECT_TRUE(hasLoc(detail, {"body", "fields", 0, "key"}));
    EXPECT_TRUE(hasLoc(detail, {"body", "fields", 1, "key"}));
    EXPECT_FALSE(hasLoc(detail, {"body", "fields", 2, "key"}));
    EXPECT_TRUE(hasLoc(detail, {"body", "fields", 3, "key"}));
    EXPECT_TRUE(hasLoc(detail, {"body", "fields", 4, "label"}));
    EXPECT_TRUE(hasLoc(detail, {"body", "fields", 5, "label"}));
    EXPECT_TRUE(hasLoc(detail, {"body", "fields", 6, "required"}));
    for (const auto& d : detail) {
        EXPECT_TRUE(d.contains("msg") && d.contains("type"));
    }

    EXPECT_TRUE(
        hasLoc(detailOf({{"name", "No fields"}, {"fields", json::array()}}), {"body", "fields"}));
    json many = json::array();
    for (int i = 0; i < 31; ++i) many.push_back({{"key", "f" + std::to_string(i)}, {"label", "F"}});
    EXPECT_TRUE(hasLoc(detailOf({{"name", "Too many"}, {"fields", many}}), {"body", "fields"}));
    many.erase(many.end() - 1);
    EXPECT_TRUE(parseTemplate({{"name", "Thirty"}, {"fields", many}}).ok());
    EXPECT_TRUE(hasLoc(detailOf({{"fields", {{{"key", "a"}, {"label", "A"}}}}}), {"body", "name"}));
    EXPECT_TRUE(hasLoc(detailOf({{"id", "customer-intake"},
                                 {"name", "Clash"},
                                 {"fields", {{{"key", "a"}, {"label", "A"}}}}}),
                       {"body", "id"}));
    EXPECT_TRUE(
        hasLoc(detailOf({{"name", "Long key"},
                         {"fields", {{{"key", "a" + std::string(64, 'b')}, {"label", "A"}}}}}),
               {"body", "fields", 0, "key"}));
    EXPECT_TRUE(parseTemplate({{"name", "Max key"},
                               {"fields", {{{"key", "a" + std::string(63, 'b')}, {"label", "A"}}}}})
                    .ok());
    EXPECT_EQ(parseTemplate(json::array()).error().code, "validation_error");
}

}  // namespace
}  // namespace docintel::conversations
