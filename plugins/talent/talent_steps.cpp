#include "talent_steps.h"

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string_view>

#include "shared/doc_text.h"
#include "shared/evidence.h"
#include "shared/field_extractor.h"
#include "shared/profile_facts.h"

namespace docintel::talent_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::talent {
namespace {

/// The field descriptors of the vertical's workflow `workflow` (its definition's `fields`).
const nlohmann::json& typedFieldsOf(const std::string& workflow) {
    static const auto all = plugins::workflowFields(talent_files::embeddedFiles());
    return plugins::fieldsFor(all, workflow);
}

using plugin::Result;
using plugin::StepInput;
using plugins::DocText;
using plugins::field;
using plugins::missingField;

const char* kJobDescription = "job_description_id";

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

/// Replaces each `from` in `text` by `to` (of the same length).
void replaceSameLength(std::string& text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

/// Headings that open a section (a line that starts with one of these, short, no full stop).
const std::vector<std::string> kHeadings = {"summary",
                                            "profile",
                                            "skills",
                                            "technical skills",
                                            "skills and proficiency",
                                            "core skills",
                                            "experience",
                                            "professional experience",
                                            "work experience",
                                            "employment history",
                                            "work history",
                                            "career history",
                                            "prior experience",
                                            "education",
                                            "certifications",
                                            "languages",
                                            "volunteer",
                                            "performance",
                                            "project evidence",
                                            "projects",
                                            "development plan",
                                            "about the role",
                                            "responsibilities",
                                            "required qualifications",
                                            "minimum qualifications",
                                            "requirements",
                                            "preferred qualifications",
                                            "nice to have",
                                            "compensation and benefits",
                                            "benefits"};

// ---------------------------------------------------------------------------------------
// Sections of resumes, employee records and job descriptions.

std::string headingOf(const std::string& line) { return plugins::headingOf(line, kHeadings); }

std::vector<DocText::Line> section(const DocText& doc, const std::vector<std::string>& names) {
    return plugins::section(doc, kHeadings, names);
}

using plugins::bullets;

// ---------------------------------------------------------------------------------------
// Profile.

const std::vector<std::string> kLabels = {"Employee Name",
                                          "Candidate Name",
                                          "Name",
                                          "Employee ID",
                                          "Email",
                                          "Phone",
                                          "Current Title",
                                          "Title",
                                          "Department",
                                          "Manager",
                                          "Hire Date",
                                          "Total Experience",
                                          "Years of Experience",
                                          "Target Role",
                                          "Location"};

std::optional<plugins::Labeled> labeled(const DocText& doc,
                                        std::initializer_list<const char*> labels) {
    for (const char* l : labels) {
        if (auto found = plugins::labeled(doc.passages, l, kLabels)) return found;
    }
    return std::nullopt;
}

const std::map<std::string, int> kLevels = {{"beginner", 1}, {"basic", 1},        {"novice", 1},
                                            {"familiar", 1}, {"intermediate", 2}, {"proficient", 2},
                                            {"working", 2},  {"advanced", 3},     {"strong", 3},
                                            {"expert", 4},   {"specialist", 4}};

/// Degree levels: 1 associate, 2 bachelor, 3 master, 4 doctorate.
int degreeLevel(const std::string& text) {
    static const std::vector<std::pair<std::regex, int>> levels = {
        {std::regex(R"(\b(?:Ph\.?\s?D|Doctor(?:ate)? of)\b)", std::regex::icase), 4},
        {std::regex(R"(\b(?:Master|M\.S\.|M\.Sc\b|M\.A\.|MBA\b|M\.Eng\b))"), 3},
        {std::regex(R"(\bmaster(?:'s)? degree)", std::regex::icase), 3},
        {std::regex(R"(\b(?:Bachelor|B\.S\.|B\.Sc\b|B\.A\.|B\.Eng\b|BS\b|BA\b))"), 2},
        {std::regex(R"(\bbachelor)", std::regex::icase), 2},
        {std::regex(R"(\bAssociate(?:'s)? (?:of|degree)\b|\bA\.A\.S?\.)", std::regex::icase), 1}};
    for (const auto& [re, level] : levels) {
        if (std::regex_search(text, re)) return level;
    }
    return 0;
}

const char* degreeName(int level) {
    switch (level) {
        case 1:
            return "associate";
        case 2:
            return "bachelor";
        case 3:
            return "master";
        case 4:
            return "doctorate";
        default:
            return "none";
    }
}

Result<nlohmann::json> profile(plugin::HostServices& host, const StepInput& run) {
    // A posting names the role and the employer, not a candidate.
    const StepInput in = plugins::withoutRole(run, kJobDescription);
    auto docs = plugins::loadDocTexts(host, in, "primary", kHeadings);
    if (!docs) return docs.error();
    nlohmann::json name = missingField(), email = missingField(), title = missingField(),
                   employer = missingField(), years = missingField(), education = missingField(),
                   degree = missingField(), employee_id = missingField(),
                   performance = missingField();
    nlohmann::json skills = nlohmann::json::array();
    std::set<std::string> seen_skills;

    static const std::regex email_re(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)");
    static const std::regex years_re(
        R"((\d{1,2})\+?\s+years?\s+of\s+(?:[a-z-]+\s+){0,2}experience)", std::regex::icase);
    static const std::regex number_re(R"(\d{1,2})");
    static const std::regex skill_re(
        R"(^\s*([A-Za-z][A-Za-z0-9+#./ -]*?)\s*\(\s*([A-Za-z]+)\s*(?:[,;][^)]*)?\)\s*$)");
    static const std::regex review_re(R"((\d{4}) annual review:\s*([^.\n]+))", std::regex::icase);

    for (const auto& doc : *docs) {
        auto src = [&](std::size_t pos, std::size_t len, std::size_t max = 120) {
            return doc.source(pos, len, max);
        };
        if (name["value"].is_null()) {
            if (auto l = labeled(doc, {"Employee Name", "Candidate Name", "Name"})) {
                name = plugins::labeledField(l);
            } else if (const auto person = plugins::headerPerson(doc)) {
                // A résumé or letter headed with its person's name and contact details.
                name = field(person->value, src(person->pos, person->len), 0.8);
            }
        }
        std::smatch m;
        if (email["value"].is_null() && std::regex_search(doc.text, m, email_re)) {
            email = field(
                m.str(0),
                src(static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0))),
                0.95);
        }
        if (name["value"].is_null() && email["value"].is_string()) {
            // A message from the candidate: the name with its sender's address.
            if (const auto sender = plugins::nameWithAddress(doc, email["value"])) {
                name = field(sender->value, src(sender->pos, sender->len), 0.75);
            }
        }
        if (title["value"].is_null()) {
            if (auto l = labeled(doc, {"Current Title", "Title"})) {
                title = plugins::labeledField(l);
            } else if (const auto role = plugins::currentRole(doc)) {
                // The entry whose dates run to the present, or "I am currently a ...".
                const auto& [held, at] = *role;
                title = field(held.value, src(held.pos, held.len), 0.85);
                if (!at.empty()) employer = field(at, src(held.pos, held.len), 0.8);
            }
        }
        if (years["value"].is_null()) {
            if (auto l = labeled(doc, {"Total Experience", "Years of Experience"})) {
                std::smatch n;
                if (std::regex_search(l->value, n, number_re)) {
                    years = plugins::labeledField(
                        l, [&](const std::string&) { return nlohmann::json(std::stoi(n.str(0))); });
                }
            } else if (std::regex_search(doc.text, m, years_re)) {
                years = field(std::stoi(m[1].str()),
                              src(static_cast<std::size_t>(m.position(0)),
                                  static_cast<std::size_t>(m.length(0))),
                              0.85);
            }
        }
        if (education["value"].is_null()) {
            for (const auto& line : section(doc, {"education"})) {
                const std::string t = plugins::trimmed(line.text);
                if (t.empty()) continue;
                education = field(t, src(line.pos, line.text.size()), 0.85);
                const int level = degreeLevel(t);
                degree = level > 0 ? field(degreeName(level), src(line.pos, line.text.size()), 0.85)
                                   : missingField();
                break;
            }
        }
        if (employee_id["value"].is_null()) {
            employee_id = plugins::labeledField(labeled(doc, {"Employee ID"}));
        }
        if (performance["value"].is_null() && std::regex_search(doc.text, m, review_re)) {
            performance = field(
                m[1].str() + ": " + plugins::trimmed(m[2].str()),
                src(static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0))),
                0.85);
        }

        // Skills with levels: "Python (expert) · SQL (advanced)" under a Skills heading; a
        // wrapped line is read as one.
        const auto skill_lines = section(doc, {"skills", "technical skills", "core skills"});
        if (skill_lines.empty()) continue;
        const std::size_t begin = skill_lines.front().pos;
        const std::size_t end = skill_lines.back().pos + skill_lines.back().text.size();
        // Items are separated by "·", "•", "|", ";" or ","; the separators are replaced by
        // "|" padded to their length, so that offsets stay those of the document.
        std::string block = doc.text.substr(begin, end - begin);
        replaceSameLength(block, "\xC2\xB7", "| ");
        replaceSameLength(block, "\xE2\x80\xA2", "|  ");
        for (auto& c : block) {
            if (c == '\n') c = ' ';
        }
        static const std::regex sep(R"([|;,])");
        std::size_t from = 0;
        auto take = [&](std::size_t a, std::size_t b) {
            const std::string item = block.substr(a, b - a);
            std::smatch s;
            if (!std::regex_match(item, s, skill_re)) return;
            const std::string level_word = lower(s[2].str());
            const auto level = kLevels.find(level_word);
            if (level == kLevels.end()) return;
            const std::string skill = plugins::trimmed(s[1].str());
            if (skill.empty() || !seen_skills.insert(lower(skill)).second) return;
            const std::size_t at = begin + a + static_cast<std::size_t>(s.position(1));
            const std::size_t len = item.find(')') + 1 - static_cast<std::size_t>(s.position(1));
            skills.push_back(
                field({{"name", skill}, {"level", level_word}}, src(at, len, len), 0.9));
        };
        for (auto it = std::sregex_iterator(block.begin(), block.end(), sep);
             it != std::sregex_iterator(); ++it) {
            take(from, static_cast<std::size_t>(it->position(0)));
            from = static_cast<std::size_t>(it->position(0) + it->length(0));
        }
        take(from, block.size());
    }
    nlohmann::json candidate = {{"name", name},
                                {"email", email},
                                {"current_title", title},
                                {"current_employer", employer},
                                {"years_experience", years},
                                {"education", education},
                                {"degree_level", degree}};
    if (in.workflow == "employee_mobility") {
        candidate["employee_id"] = employee_id;
        candidate["latest_performance_review"] = performance;
    }
    nlohmann::json out{{"candidate", candidate}, {"skills", skills}};
    // The typed fields find the candidate's contact and experience by meaning in any layout,
    // and the skills in any layout (a list under a heading, a table column, a line of items)
    // when the rule above (skills with levels) found none.
    auto typed_fields =
        plugins::extractTypedFields(host, in, typedFieldsOf(in.workflow), {"candidate.", "skills"});
    if (!typed_fields) return typed_fields.error();
    plugins::mergeTypedFields(out, *typed_fields);
    // Years of experience are a whole number of years in this packet ("8 years" → 8).
    auto& years_field = out["candidate"]["years_experience"];
    if (years_field["value"].is_string()) {
        static const std::regex whole(R"(^(\d+) years$)");
        std::smatch m;
        const std::string v = years_field["value"].get<std::string>();
        years_field["value"] =
            std::regex_match(v, m, whole) ? nlohmann::json(std::stoi(m[1].str())) : nullptr;
        if (years_field["value"].is_null()) years_field = plugins::missingField();
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Requirements.

/// "experience" (a number of years), "education" (a degree) or "skill".
std::string categoryOf(const std::string& requirement, int* years, int* degree) {
    static const std::regex years_re(R"((\d{1,2})\+?\s*(?:or more\s+)?years?)", std::regex::icase);
    static const std::regex degree_re(
        R"(\b(?:degree|bachelor|master|ph\.?\s?d|doctorate|diploma)\b)", std::regex::icase);
    std::smatch m;
    if (std::regex_search(requirement, m, years_re)) {
        *years = std::stoi(m[1].str());
        return "experience";
    }
    if (std::regex_search(requirement, degree_re)) {
        *degree = std::max(2, degreeLevel(requirement));
        return "education";
    }
    return "skill";
}

Result<nlohmann::json> requirements(plugin::HostServices& host, const StepInput& in) {
    auto docs = plugins::loadDocTexts(host, in, kJobDescription, kHeadings);
    if (!docs) return docs.error();
    nlohmann::json required = nlohmann::json::array(), preferred = nlohmann::json::array(),
                   items = nlohmann::json::array();
    nlohmann::json role = {{"title", missingField()},
                           {"department", missingField()},
                           {"requisition_id", missingField()},
                           {"location", missingField()}};
    static const std::vector<std::string> labels = {
        "Job Title",       "Position",       "Department",    "Location",
        "Employment Type", "Requisition ID", "Hiring Manager"};
    for (const auto& doc : *docs) {
        auto lab = [&](const char* l) {
            return plugins::labeledField(plugins::labeled(doc.passages, l, labels));
        };
        if (role["title"]["value"].is_null()) {
            role["title"] = lab("Job Title");
            if (role["title"]["value"].is_null()) role["title"] = lab("Position");
            role["department"] = lab("Department");
            role["requisition_id"] = lab("Requisition ID");
            role["location"] = lab("Location");
        }
        for (const auto& [kind, names] :
             std::vector<std::pair<std::string, std::vector<std::string>>>{
                 {"required",
                  {"required qualifications", "minimum qualifications", "requirements"}},
                 {"preferred", {"preferred qualifications", "nice to have"}}}) {
            for (const auto& item : bullets(section(doc, names))) {
                int years = 0, degree = 0;
                const std::string category = categoryOf(item.text, &years, &degree);
                nlohmann::json entry = {{"text", item.text},
                                        {"kind", kind},
                                        {"category", category},
                                        {"source", doc.source(item.pos, item.len)}};
                if (category == "experience") entry["min_years"] = years;
                if (category == "education") entry["min_degree"] = degreeName(degree);
                (kind == "required" ? required : preferred).push_back(item.text);
                items.push_back(std::move(entry));
            }
        }
    }
    if (items.empty()) {
        // The typed lists read the requirements under any heading that states them ("Must
        // have", "Desired") and in any list layout.
        auto typed_fields =
            plugins::extractTypedFields(host, in, typedFieldsOf(in.workflow), {"requirements."});
        if (!typed_fields) return typed_fields.error();
        for (const auto& [path, list] : *typed_fields) {
            const std::string kind = path == "requirements.preferred" ? "preferred" : "required";
            for (const auto& f : list) {
                if (!f.is_object() || !f["value"].is_string()) continue;
                const std::string text = f["value"].get<std::string>();
                int years = 0, degree = 0;
                const std::string category = categoryOf(text, &years, &degree);
                nlohmann::json entry = {{"text", text},
                                        {"kind", kind},
                                        {"category", category},
                                        {"source", f["source"]}};
                if (category == "experience") entry["min_years"] = years;
                if (category == "education") entry["min_degree"] = degreeName(degree);
                (kind == "required" ? required : preferred).push_back(text);
                items.push_back(std::move(entry));
            }
        }
    }
    if (items.empty()) {
        return plugin::Error::unprocessable(
            "no_requirements",
            "the job description has no Required or Preferred Qualifications section");
    }
    return nlohmann::json{
        {"role", role},
        {"requirements", {{"required", required}, {"preferred", preferred}, {"items", items}}}};
}

// ---------------------------------------------------------------------------------------
// Assessment.

/// A sentence or bullet of the candidate's documents: the unit evidence is cited at.
struct Segment {
    const DocText* doc = nullptr;
    std::size_t pos = 0;
    std::size_t len = 0;
    std::string text;
    std::set<std::string> words;  ///< lower-cased
};

std::set<std::string> wordSet(const std::string& text) {
    std::set<std::string> out;
    std::string w;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '#') {
            w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!w.empty()) {
            out.insert(w);
            w.clear();
        }
    }
    if (!w.empty()) out.insert(w);
    return out;
}

/// Splits each document at bullets, line-leading headings and sentence ends.
std::vector<Segment> segments(const std::vector<DocText>& docs) {
    std::vector<Segment> out;
    for (const auto& doc : docs) {
        std::size_t start = 0;
        const std::string& t = doc.text;
        auto emit = [&](std::size_t end) {
            std::string s = t.substr(start, end - start);
            for (auto& c : s) {
                if (c == '\n') c = ' ';
            }
            const std::string trimmed = plugins::trimmed(s);
            if (trimmed.size() >= 12) {
                const std::size_t lead = s.find(trimmed.front());
                out.push_back({&doc, start + lead, trimmed.size(), trimmed, wordSet(trimmed)});
            }
            start = end;
        };
        for (std::size_t i = 0; i < t.size(); ++i) {
            const char c = t[i];
            const bool sentence_end = c == '.' &&
                                      (i + 1 == t.size() || t[i + 1] == ' ' || t[i + 1] == '\n') &&
                                      i > 0 && std::islower(static_cast<unsigned char>(t[i - 1]));
            if (sentence_end) {
                emit(i + 1);
            } else if (c == '\n') {
                // A new bullet, a heading or a label starts a new segment.
                const std::size_t eol = t.find('\n', i + 1);
                const std::string next =
                    t.substr(i + 1, (eol == std::string::npos ? t.size() : eol) - i - 1);
                const bool bullet =
                    !next.empty() && (next[0] == '-' || startsWith(next, "\xE2\x80\xA2"));
                if (bullet || !headingOf(next).empty() ||
                    !headingOf(t.substr(start, i - start)).empty() ||
                    next.find(':') != std::string::npos) {
                    emit(i);
                }
            }
        }
        emit(t.size());
    }
    return out;
}

/// Words that say how much of something a requirement wants, not what.
const std::set<std::string> kGeneric = {
    "experience", "experienced", "proficiency",  "proficient",    "skills",    "skill",
    "hands",      "familiarity", "familiar",     "background",    "including", "related",
    "knowledge",  "ability",     "strong",       "advanced",      "expert",    "expertise",
    "solid",      "deep",        "working",      "understanding", "using",     "with",
    "other",      "data",        "building",     "running",       "large",     "scale",
    "systems",    "years",       "professional", "equivalent",    "preferred", "required",
    "plus",       "apache",      "amazon",       "microsoft",     "google",    "platforms",
    "platform",   "tools",       "tool"};

/// The requirement's words that name what it asks for (at least 2 letters, not generic).
std::vector<std::string> terms(const std::string& requirement) {
    static const std::set<std::string> stop = {"and", "or",   "the", "a",    "an",   "of",
                                               "in",  "on",   "for", "to",   "as",   "at",
                                               "by",  "from", "e.g", "such", "like", "etc"};
    std::vector<std::string> out;
    for (const auto& w : wordSet(requirement)) {
        if (w.size() < 2 || stop.count(w) || kGeneric.count(w)) continue;
        if (std::all_of(w.begin(), w.end(),
                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
            continue;
        }
        out.push_back(w);
    }
    return out;
}

/// Technologies a requirement names: capitalised words after its first (not vendor names).
std::vector<std::string> technologies(const std::string& requirement) {
    std::vector<std::string> out;
    static const std::regex word(R"([A-Za-z][A-Za-z0-9+#]*)");
    bool first = true;
    for (auto it = std::sregex_iterator(requirement.begin(), requirement.end(), word);
         it != std::sregex_iterator(); ++it) {
        const std::string w = it->str();
        if (first) {
            first = false;
            continue;
        }
        if (!std::isupper(static_cast<unsigned char>(w[0]))) continue;
        if (kGeneric.count(lower(w))) continue;
        out.push_back(lower(w));
    }
    return out;
}

bool prefixIn(const std::set<std::string>& words, const std::string& term) {
    const std::string stem =
        term.size() > 5 ? term.substr(0, std::max<std::size_t>(5, term.size() - 3)) : term;
    const auto it = words.lower_bound(stem);
    return it != words.end() && it->compare(0, stem.size(), stem) == 0;
}

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
    double dot = 0, na = 0, nb = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        dot += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    return na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0;
}

/// The level a requirement asks for (1 beginner … 4 expert).
int levelWanted(const std::string& requirement) {
    const auto words = wordSet(requirement);
    for (const char* w : {"advanced", "expert", "expertise", "strong", "deep", "extensive"}) {
        if (words.count(w)) return 3;
    }
    for (const char* w : {"familiarity", "familiar", "exposure", "basic", "awareness"}) {
        if (words.count(w)) return 1;
    }
    return 2;
}

double credit(const std::string& status) {
    if (status == "met") return 1.0;
    if (status == "partial") return 0.5;
    if (status == "unclear") return 0.25;
    return 0.0;
}

/// Similarity at or above which a requirement is "unclear" rather than "missing" when no word
/// of it appears in the candidate's documents.
constexpr double kUnclearSimilarity = 0.55;

Result<nlohmann::json> assess(plugin::HostServices& host, const StepInput& in) {
    auto docs = plugins::loadDocTexts(host, in, "primary", kHeadings);
    if (!docs) return docs.error();
    const auto segs = segments(*docs);
    const auto& items = in.packet.at("requirements").at("items");
    const auto& cand = in.packet.at("candidate");
    const auto& skills = in.packet.value("skills", nlohmann::json::array());

    // The encoder compares each requirement with each segment (by meaning, for evidence the
    // words miss); without one, word evidence alone decides.
    std::vector<std::string> texts;
    for (const auto& item : items) texts.push_back(item.at("text").get<std::string>());
    for (const auto& s : segs) texts.push_back(s.text);
    std::vector<std::vector<float>> vectors;
    if (auto v = host.embed(texts)) {
        vectors = std::move(v).value();
    } else {
        host.log("talent", "warning", "event=encoder_unavailable run_id=" + in.run_id);
    }
    auto similarity = [&](std::size_t item, std::size_t seg) {
        if (vectors.size() != texts.size()) return 0.0;
        return cosine(vectors[item], vectors[items.size() + seg]);
    };

    const int years = cand["years_experience"]["value"].is_number_integer()
                          ? cand["years_experience"]["value"].get<int>()
                          : -1;
    const std::string degree_value = cand["degree_level"]["value"].is_string()
                                         ? cand["degree_level"]["value"].get<std::string>()
                                         : "none";
    int degree = 0;
    for (int l = 1; l <= 4; ++l) {
        if (degree_value == degreeName(l)) degree = l;
    }

    nlohmann::json assessments = nlohmann::json::array();
    double req_credit = 0, pref_credit = 0, exp_credit = 1, edu_credit = 1;
    int req_count = 0, pref_count = 0;
    bool has_exp = false, has_edu = false;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        const std::string text = item.at("text");
        const std::string kind = item.at("kind");
        const std::string category = item.at("category");
        const auto req_words = wordSet(text);
        std::string status = "missing";
        std::string basis;
        double confidence = 0.6;
        nlohmann::json evidence = nlohmann::json::array();

        // The segment most like the requirement among those that `accept`.
        auto best = [&](auto accept) -> std::pair<int, double> {
            int at = -1;
            double top = -1;
            for (std::size_t s = 0; s < segs.size(); ++s) {
                if (!accept(segs[s])) continue;
                const double sim = similarity(i, s);
                if (sim > top) {
                    top = sim;
                    at = static_cast<int>(s);
                }
            }
            return {at, top};
        };
        auto cite = [&](int s) {
            if (s < 0) return;
            const Segment& seg = segs[static_cast<std::size_t>(s)];
            const auto src = seg.doc->source(seg.pos, seg.len, seg.len);
            if (std::find(evidence.begin(), evidence.end(), src) == evidence.end()) {
                evidence.push_back(src);
            }
        };

        if (category == "experience") {
            const int want = item.value("min_years", 0);
            has_exp = kind == "required" || has_exp;
            if (years < 0) {
                status = "unclear";
                basis = "years of experience not stated";
            } else {
                status = years >= want ? "met" : (years * 2 >= want ? "partial" : "missing");
                basis =
                    std::to_string(years) + " years stated; " + std::to_string(want) + " required";
                confidence = 0.9;
                if (cand["years_experience"]["source"].is_object()) {
                    evidence.push_back(cand["years_experience"]["source"]);
                }
            }
            if (kind == "required") {
                exp_credit = want > 0 ? std::min(1.0, std::max(0, years) / double(want)) : 1.0;
            }
        } else if (category == "education") {
            const std::string want_name = item.value("min_degree", "bachelor");
            int want = 2;
            for (int l = 1; l <= 4; ++l) {
                if (want_name == degreeName(l)) want = l;
            }
            has_edu = kind == "required" || has_edu;
            if (degree == 0) {
                status = cand["education"]["value"].is_null() ? "missing" : "unclear";
                basis = "no degree found";
            } else {
                status = degree >= want ? "met" : (degree + 1 == want ? "partial" : "missing");
                basis = std::string(degreeName(degree)) + " degree; " + want_name + " required";
                confidence = 0.85;
                evidence.push_back(cand["education"]["source"]);
            }
            if (kind == "required") edu_credit = credit(status);
        } else {
            // A listed skill the requirement names.
            const nlohmann::json* skill = nullptr;
            for (const auto& s : skills) {
                const std::string name = s["value"].value("name", "");
                bool all = false;
                for (const auto& w : wordSet(name)) {
                    if (kGeneric.count(w)) continue;
                    all = req_words.count(w) > 0;
                    if (!all) break;
                }
                if (all) {
                    skill = &s;
                    break;
                }
            }
            if (skill) {
                const std::string level = (*skill)["value"].value("level", "");
                const int have = kLevels.count(level) ? kLevels.at(level) : 2;
                const int want = levelWanted(text);
                status = have >= want ? "met" : "partial";
                basis = (*skill)["value"].value("name", "") + " (" + level + ") listed";
                if (have < want) basis += "; the role asks for a higher level";
                confidence = 0.9;
                evidence.push_back((*skill)["source"]);
                const auto name_words = wordSet((*skill)["value"].value("name", ""));
                // The strongest other passage that names the skill backs the listing.
                const auto [s, sim] = best([&](const Segment& seg) {
                    if (seg.text.find('(') != std::string::npos &&
                        seg.text.find(')') != std::string::npos && seg.text.size() < 400 &&
                        seg.words.count("expert") + seg.words.count("advanced") +
                                seg.words.count("intermediate") + seg.words.count("beginner") >
                            0) {
                        return false;  // the skills list itself
                    }
                    for (const auto& w : name_words) {
                        if (!kGeneric.count(w) && seg.words.count(w)) return true;
                    }
                    return false;
                });
                (void)sim;
                cite(s);
            } else {
                const auto tech = technologies(text);
                const auto words = terms(text);
                if (!tech.empty()) {
                    // Named technologies that are not listed skills: mentioned in the
                    // documents at most makes a partial match.
                    const auto [s, sim] = best([&](const Segment& seg) {
                        for (const auto& t : tech) {
                            if (seg.words.count(t)) return true;
                        }
                        return false;
                    });
                    if (s >= 0) {
                        status = "partial";
                        basis = "mentioned in the documents but not a listed skill";
                        confidence = 0.7;
                        cite(s);
                    }
                } else if (!words.empty()) {
                    // The segment that covers most of the requirement's words.
                    int at = -1;
                    double cover = 0;
                    for (std::size_t s = 0; s < segs.size(); ++s) {
                        std::size_t n = 0;
                        for (const auto& w : words) n += prefixIn(segs[s].words, w) ? 1 : 0;
                        const double c = double(n) / double(words.size());
                        if (c > cover + 1e-9 ||
                            (at >= 0 && std::fabs(c - cover) < 1e-9 && c > 0 &&
                             similarity(i, s) > similarity(i, static_cast<std::size_t>(at)))) {
                            cover = c;
                            at = static_cast<int>(s);
                        }
                    }
                    if (cover >= 0.5) {
                        status = "met";
                        confidence = cover;
                    } else if (cover > 0) {
                        status = "partial";
                        confidence = 0.6;
                    }
                    if (at >= 0) {
                        basis = std::to_string(static_cast<int>(std::round(cover * 100))) +
                                "% of the requirement's terms in one passage";
                        cite(at);
                    }
                }
                if (status == "missing") {
                    const auto [s, sim] = best([](const Segment&) { return true; });
                    if (s >= 0 && sim >= kUnclearSimilarity) {
                        status = "unclear";
                        basis = "related passage by meaning; no direct mention";
                        confidence = sim;
                        cite(s);
                    } else {
                        basis = "no evidence in the documents";
                        confidence = 0.6;
                    }
                }
            }
            if (kind == "required") {
                req_credit += credit(status);
                ++req_count;
            }
        }
        if (kind == "preferred") {
            pref_credit += credit(status);
            ++pref_count;
        }
        nlohmann::json source = evidence.empty() ? nlohmann::json(nullptr) : evidence.front();
        assessments.push_back({{"requirement", text},
                               {"kind", kind},
                               {"category", category},
                               {"status", field(status, source, confidence)},
                               {"basis", basis},
                               {"evidence", evidence}});
    }
    if (!has_exp) exp_credit = 1;
    if (!has_edu) edu_credit = 1;
    const double req = req_count ? req_credit / req_count : 1.0;
    const double pref = pref_count ? pref_credit / pref_count : 1.0;
    const double raw = 70 * req + 15 * pref + 10 * exp_credit + 5 * edu_credit;
    const int score = static_cast<int>(std::lround(std::min(100.0, std::max(0.0, raw))));

    nlohmann::json strengths = nlohmann::json::array(), gaps = nlohmann::json::array();
    int req_met = 0, req_total = 0, pref_met = 0, pref_total = 0;
    bool required_gap = false;
    for (const auto& a : assessments) {
        const std::string s = a["status"]["value"];
        const bool required = a["kind"] == "required";
        (required ? req_total : pref_total) += 1;
        if (s == "met") {
            (required ? req_met : pref_met) += 1;
            if (required) strengths.push_back(a["requirement"]);
        } else {
            std::string requirement = a["requirement"];
            if (!requirement.empty() && requirement.back() == '.') requirement.pop_back();
            gaps.push_back(requirement + " (" + s + ")");
            required_gap = required_gap || required;
        }
    }
    const bool mobility = in.workflow == "employee_mobility";
    std::string recommendation;
    if (score >= 75 && !required_gap) {
        recommendation = mobility ? "ready_to_move" : "advance_to_interview";
    } else if (score >= 60) {
        recommendation = mobility ? "ready_with_development" : "consider_with_gaps";
    } else {
        recommendation = mobility ? "not_ready" : "do_not_advance";
    }
    std::string rationale =
        "Match score " + std::to_string(score) + "/100: " + std::to_string(req_met) + " of " +
        std::to_string(req_total) + " required and " + std::to_string(pref_met) + " of " +
        std::to_string(pref_total) + " preferred qualifications met";
    if (years >= 0) rationale += "; " + std::to_string(years) + " years of experience";
    if (degree > 0) rationale += "; " + std::string(degreeName(degree)) + " degree";
    rationale += ".";
    if (!gaps.empty()) {
        rationale += " Gaps: ";
        for (std::size_t g = 0; g < gaps.size(); ++g) {
            rationale += (g ? "; " : "") + gaps[g].get<std::string>();
        }
        rationale += ".";
    }
    return nlohmann::json{{"assessments", assessments},
                          {"match_score", score},
                          {"score_breakdown",
                           {{"required", std::round(70 * req * 10) / 10},
                            {"preferred", std::round(15 * pref * 10) / 10},
                            {"experience", std::round(10 * exp_credit * 10) / 10},
                            {"education", std::round(5 * edu_credit * 10) / 10}}},
                          {"recommendation", recommendation},
                          {"recommendation_rationale", rationale},
                          {"strengths", strengths},
                          {"gaps", gaps}};
}

}  // namespace

void registerTalentSteps(plugin::Registrar& registrar, plugin::HostServices& host) {
    plugin::HostServices* h = &host;
    for (const std::string workflow : {"talent_readiness", "employee_mobility"}) {
        const std::string prefix = "talent." + workflow + ".";
        registrar.addWorkflowStep({prefix + "profile", "Candidate profile and skills with levels",
                                   [h](const StepInput& in) { return profile(*h, in); }});
        registrar.addWorkflowStep({prefix + "requirements",
                                   "Role requirements, required and preferred",
                                   [h](const StepInput& in) { return requirements(*h, in); }});
        registrar.addWorkflowStep({prefix + "assess",
                                   "Assessment per requirement, match score, recommendation",
                                   [h](const StepInput& in) { return assess(*h, in); }});
    }
}

}  // namespace docintel::talent
