#pragma once

// Conversation templates: the fields a guided conversation collects (docs/conversations.md
// "Templates"). Four built-in templates and the validation of a workspace's custom ones. Pure;
// thread-safe.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::conversations {

constexpr const char* kDefaultTemplateId = "customer-knowledge-capture";
constexpr std::size_t kMaxTemplateFields = 30;
constexpr std::size_t kMaxLabelLength = 120;

/// One field a conversation collects. `question` is optional (custom templates); built-in
/// fields take their localised question from languages.h.
struct TemplateField {
    std::string key;
    std::string label;
    bool required = false;
    std::string question;
};

struct Template {
    std::string id;
    std::string name;
    std::string description;
    std::vector<TemplateField> fields;
    bool built_in = false;

    /// The field with `key`; nullptr when there is none.
    const TemplateField* find(std::string_view key) const;
    /// Keys of the required fields, in template order.
    std::vector<std::string> requiredKeys() const;
};

/// The four built-in templates, the default (customer-knowledge-capture) first.
const std::vector<Template>& builtInTemplates();
/// The built-in template `id`; nullptr when there is none.
const Template* findBuiltInTemplate(std::string_view id);

/// A custom template from its JSON {id?, name, description?, fields:[{key, label, required?,
/// question?}]}: name 1..120, 1..30 fields, keys matching ^[a-z][a-z0-9_]{0,63}$ and unique,
/// labels 1..120 characters, required a boolean, question ≤ 500; an id (optional, lower-case
/// letters, digits and dashes, ≤ 64) may not be a built-in one. Otherwise a 422
/// `validation_error` listing every problem under ["body", ...].
plugin::Result<Template> parseTemplate(const nlohmann::json& body);

/// {id, name, description, built_in, fields:[{key, label, required, question?}]}.
nlohmann::json templateJson(const Template& t);

/// The template named `id` (empty = the default) among the built-ins and `custom`; 404
/// `not_found` otherwise.
plugin::Result<Template> resolveTemplate(std::string_view id, const std::vector<Template>& custom);

}  // namespace docintel::conversations
