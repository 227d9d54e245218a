#include "conversations/templates.h"

#include <regex>
#include <set>

#include "conversations/text.h"
#include "shared/problems.h"

namespace docintel::conversations {

using nlohmann::json;

const TemplateField* Template::find(std::string_view key) const {
    for (const auto& f : fields) {
        if (f.key == key) return &f;
    }
    return nullptr;
}

std::vector<std::string> Template::requiredKeys() const {
    std::vector<std::string> out;
    for (const auto& f : fields) {
        if (f.required) out.push_back(f.key);
    }
    return out;
}

const std::vector<Template>& builtInTemplates() {
    static const std::vector<Template> all = {
        {kDefaultTemplateId,
         "Customer knowledge capture",
         "Capture what a customer tells you: the information, who they are, the subject, what "
         "they ask for and what happens next.",
         {{"information_provided", "Information provided", true, ""},
          {"customer_identity", "Customer identity", false, ""},
          {"subject", "Subject", false, ""},
          {"requested_action", "Requested action", false, ""},
          {"follow_up_actions", "Follow-up actions", false, ""}},
         true},
        {"general-guided-conversation",
         "General guided conversation",
         "A guided conversation that records its purpose, key facts, decisions and follow-ups.",
         {{"purpose", "Purpose", true, ""},
          {"key_facts", "Key facts", true, ""},
          {"decisions", "Decisions", false, ""},
          {"follow_up_actions", "Follow-up actions", true, ""}},
         true},
        {"customer-intake",
         "Customer intake",
         "Take in a new request: who is asking, what they need, how urgent it is and how to "
         "follow up.",
         {{"participant_name", "Participant name", true, ""},
          {"request_summary", "Request summary", true, ""},
          {"urgency", "Urgency", false, ""},
          {"preferred_follow_up", "Preferred follow-up", true, ""}},
         true},
        {"expert-interview",
         "Expert interview",
         "Interview an expert about a topic: their expertise, examples, risks and "
         "recommendations.",
         {{"topic", "Topic", true, ""},
          {"expertise", "Expertise", true, ""},
          {"examples", "Examples", true, ""},
          {"risks", "Risks", false, ""},
          {"recommendations", "Recommendations", true, ""}},
         true},
    };
    return all;
}

const Template* findBuiltInTemplate(std::string_view id) {
    for (const auto& t : builtInTemplates()) {
        if (t.id == id) return &t;
    }
    return nullptr;
}

namespace {

json at(std::initializer_list<json> parts) { return json(parts); }

/// A string member `name` of `obj` (absent = ""), its length checked against [min, max].
std::string stringMember(const json& obj, const char* name, std::size_t min, std::size_t max,
                         const json& loc, shared::Problems& problems) {
    if (!obj.contains(name) || obj.at(name).is_null()) {
        if (min > 0) problems.add(loc, "Field required", "missing");
        return {};
    }
    if (!obj.at(name).is_string()) {
        problems.add(loc, "Input should be a valid string", "string_type");
        return {};
    }
    std::string value = trim(obj.at(name).get<std::string>());
    const std::size_t n = utf8Length(value);
    if (n < min) {
        problems.add(loc, "String should have at least " + std::to_string(min) + " character",
                     "string_too_short");
    } else if (n > max) {
        problems.add(loc, "String should have at most " + std::to_string(max) + " characters",
                     "string_too_long");
    }
    return value;
}

}  // namespace

plugin::Result<Template> parseTemplate(const json& body) {
    if (!body.is_object()) {
        return shared::validationError(at({"body"}), "Input should be a valid dictionary",
                                       "dict_type");
    }
    shared::Problems problems;
    Template t;
    if (body.contains("id") && !body.at("id").is_null()) {
        static const std::regex id_re("^[a-z0-9][a-z0-9-]{0,63}$");
        if (!body.at("id").is_string() ||
            !std::regex_match(body.at("id").get<std::string>(), id_re)) {
            problems.add(at({"body", "id"}),
                         "Template id must be lower-case letters, digits and dashes (at most 64)",
                         "string_pattern_mismatch");
        } else {
            t.id = body.at("id").get<std::string>();
            if (findBuiltInTemplate(t.id) != nullptr) {
                problems.add(at({"body", "id"}), "Template id is taken by a built-in template");
            }
        }
    }
    t.name = stringMember(body, "name", 1, kMaxLabelLength, at({"body", "name"}), problems);
    t.description =
        stringMember(body, "description", 0, 2000, at({"body", "description"}), problems);
    if (!body.contains("fields") || !body.at("fields").is_array()) {
        problems.add(at({"body", "fields"}), "Input should be a valid list", "list_type");
        return problems.error();
    }
    const json& fields = body.at("fields");
    if (fields.empty() || fields.size() > kMaxTemplateFields) {
        problems.add(at({"body", "fields"}), "A template has 1 to 30 fields",
                     fields.empty() ? "too_short" : "too_long");
    }
    static const std::regex key_re("^[a-z][a-z0-9_]{0,63}$");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const json& f = fields[i];
        if (!f.is_object()) {
            problems.add(at({"body", "fields", i}), "Input should be a valid dictionary",
                         "dict_type");
            continue;
        }
        TemplateField field;
        field.key = stringMember(f, "key", 1, 64, at({"body", "fields", i, "key"}), problems);
        if (!field.key.empty()) {
            if (!std::regex_match(field.key, key_re)) {
                problems.add(at({"body", "fields", i, "key"}),
                             "Key must match ^[a-z][a-z0-9_]{0,63}$", "string_pattern_mismatch");
            } else if (!seen.insert(field.key).second) {
                problems.add(at({"body", "fields", i, "key"}), "Duplicate field key");
            }
        }
        field.label = stringMember(f, "label", 1, kMaxLabelLength,
                                   at({"body", "fields", i, "label"}), problems);
        if (f.contains("required") && !f.at("required").is_null()) {
            if (f.at("required").is_boolean()) {
                field.required = f.at("required").get<bool>();
            } else {
                problems.add(at({"body", "fields", i, "required"}),
                             "Input should be a valid boolean", "bool_type");
            }
        }
        field.question =
            stringMember(f, "question", 0, 500, at({"body", "fields", i, "question"}), problems);
        t.fields.push_back(std::move(field));
    }
    if (!problems.empty()) return problems.error();
    return t;
}

json templateJson(const Template& t) {
    json fields = json::array();
    for (const auto& f : t.fields) {
        json item = {{"key", f.key}, {"label", f.label}, {"required", f.required}};
        if (!f.question.empty()) item["question"] = f.question;
        fields.push_back(std::move(item));
    }
    return {{"id", t.id},
            {"name", t.name},
            {"description", t.description},
            {"built_in", t.built_in},
            {"fields", std::move(fields)}};
}

plugin::Result<Template> resolveTemplate(std::string_view id, const std::vector<Template>& custom) {
    if (id.empty()) id = kDefaultTemplateId;
    if (const Template* t = findBuiltInTemplate(id)) return *t;
    for (const auto& t : custom) {
        if (t.id == id) return t;
    }
    return plugin::Error::notFound("Conversation template not found");
}

}  // namespace docintel::conversations
