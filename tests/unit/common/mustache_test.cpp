#include "common/mustache.h"

#include <gtest/gtest.h>

namespace docintel::common {
namespace {

std::string render(const std::string& t, const nlohmann::json& data) {
    auto out = renderMustache(t, data);
    EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message);
    return out.ok() ? *out : std::string();
}

TEST(Mustache, VariablesAreEscapedUnlessTripleOrAmpersand) {
    const nlohmann::json data = {{"name", "<Tom & \"Jerry\">"}};
    EXPECT_EQ(render("Hi {{name}}!", data), "Hi &lt;Tom &amp; &quot;Jerry&quot;&gt;!");
    EXPECT_EQ(render("{{{name}}}|{{& name}}", data), "<Tom & \"Jerry\">|<Tom & \"Jerry\">");
    EXPECT_EQ(render("[{{missing}}]", data), "[]");
}

TEST(Mustache, NumbersBooleansAndDottedNames) {
    const nlohmann::json data = {{"a", {{"b", {{"c", 42}}}}}, {"f", 2.5}, {"w", 3.0}, {"t", true}};
    EXPECT_EQ(render("{{a.b.c}} {{f}} {{w}} {{t}}", data), "42 2.5 3 true");
    EXPECT_EQ(render("{{a.x.c}}", data), "");
}

TEST(Mustache, SectionsIterateListsPushObjectsAndSkipFalsyValues) {
    const nlohmann::json data = {{"items", {{{"n", "x"}}, {{"n", "y"}}}},
                                 {"obj", {{"k", "v"}}},
                                 {"empty", nlohmann::json::array()},
                                 {"no", false},
                                 {"title", "T"},
                                 {"tags", {"a", "b"}}};
    EXPECT_EQ(render("{{#items}}<{{n}}>{{/items}}", data), "<x><y>");
    EXPECT_EQ(render("{{#obj}}{{k}}/{{title}}{{/obj}}", data), "v/T");
    EXPECT_EQ(render("{{#empty}}x{{/empty}}{{^empty}}none{{/empty}}", data), "none");
    EXPECT_EQ(render("{{#no}}x{{/no}}{{^no}}off{{/no}}", data), "off");
    EXPECT_EQ(render("{{#tags}}{{.}},{{/tags}}", data), "a,b,");
    EXPECT_EQ(render("{{! a comment }}ok", data), "ok");
}

TEST(Mustache, NestedSectionsOfTheSameName) {
    const nlohmann::json data = {{"a", {{"a", {{"v", 1}}}}}};
    EXPECT_EQ(render("{{#a}}[{{#a}}{{v}}{{/a}}]{{/a}}", data), "[1]");
}

TEST(Mustache, MalformedTemplatesAreErrors) {
    EXPECT_FALSE(renderMustache("{{#open}}never closed", {}).ok());
    EXPECT_FALSE(renderMustache("{{name", {}).ok());
    EXPECT_FALSE(renderMustache("{{/stray}}", {}).ok());
    EXPECT_EQ(renderMustache("{{#open}}x", {}).error().code, "template_error");
}

}  // namespace
}  // namespace docintel::common
