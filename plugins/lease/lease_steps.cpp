#include "lease_steps.h"

#include <algorithm>
#include <map>
#include <regex>
#include <string_view>

#include "lease_fallbacks.h"
#include "shared/amount_schedule.h"
#include "shared/doc_text.h"
#include "shared/evidence.h"
#include "shared/field_extractor.h"
#include "shared/field_merge.h"

namespace docintel::lease_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::lease {
namespace {

/// The field descriptors of the vertical's workflow `workflow` (its definition's `fields`).
const nlohmann::json& typedFieldsOf(const std::string& workflow) {
    static const auto all = plugins::workflowFields(lease_files::embeddedFiles());
    return plugins::fieldsFor(all, workflow);
}

using plugin::Result;
using plugin::StepInput;
using plugins::DocText;
using plugins::field;
using plugins::missingField;

/// The run's documents with `role` as one text (a clause that a chunk boundary cut reads whole
/// and is cited by its first passage).
Result<DocText> load(plugin::HostServices& host, const StepInput& in, const std::string& role) {
    auto docs = plugins::loadDocTexts(host, in, role);
    if (!docs) return docs.error();
    return plugins::joined(std::move(docs).value());
}

/// "March 31, 2030" → "2030-03-31".
std::string isoFromLong(const std::string& text) {
    static const std::map<std::string, std::string> months = {
        {"january", "01"},   {"february", "02"}, {"march", "03"},    {"april", "04"},
        {"may", "05"},       {"june", "06"},     {"july", "07"},     {"august", "08"},
        {"september", "09"}, {"october", "10"},  {"november", "11"}, {"december", "12"}};
    static const std::regex re(R"(([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4}))");
    std::smatch m;
    if (!std::regex_search(text, m, re)) return text;
    std::string month = m[1].str();
    for (auto& c : month) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto it = months.find(month);
    if (it == months.end()) return text;
    const std::string day = m[2].str().size() == 1 ? "0" + m[2].str() : m[2].str();
    return m[3].str() + "-" + it->second + "-" + day;
}

/// An ISO date moved back by `months` (day clamped to the month's length).
std::string monthsBefore(const std::string& iso, int months) {
    if (iso.size() != 10) return {};
    int y = std::stoi(iso.substr(0, 4));
    int m = std::stoi(iso.substr(5, 2)) - months;
    int d = std::stoi(iso.substr(8, 2));
    while (m < 1) {
        m += 12;
        --y;
    }
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    d = std::min(d, days[m - 1] + (m == 2 && leap ? 1 : 0));
    char out[32];
    std::snprintf(out, sizeof(out), "%04d-%02d-%02d", y, m, d);
    return out;
}

/// Numbered clause headings ("3. BASE RENT.") → [heading, body start, body end).
struct Clause {
    std::string heading;
    std::size_t start = 0;
    std::size_t end = 0;
};

std::vector<Clause> clauses(const std::string& text) {
    static const std::regex heading(R"((?:^|\s)\d{1,2}\.\s+([A-Z][A-Z ,&/]{2,60})\.\s)");
    std::vector<Clause> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), heading);
         it != std::sregex_iterator(); ++it) {
        if (!out.empty()) out.back().end = static_cast<std::size_t>(it->position(0));
        out.push_back({(*it)[1].str(), static_cast<std::size_t>(it->position(0) + it->length(0)),
                       text.size()});
    }
    return out;
}

const Clause* clauseFor(const std::vector<Clause>& all, const std::string& word) {
    for (const auto& c : all) {
        if (c.heading.find(word) != std::string::npos) return &c;
    }
    return nullptr;
}

/// The first match of `re` inside the clause (group `group` is the value), as a field.
nlohmann::json inClause(const DocText& doc, const Clause* clause, const std::regex& re,
                        int group = 0, std::string (*map)(const std::string&) = nullptr) {
    if (clause == nullptr) return missingField();
    const std::string body = doc.text.substr(clause->start, clause->end - clause->start);
    std::smatch m;
    if (!std::regex_search(body, m, re)) return missingField();
    const std::string raw = plugins::trimmed(m[group].str());
    return field(map ? map(raw) : raw,
                 doc.source(clause->start + static_cast<std::size_t>(m.position(0)),
                            static_cast<std::size_t>(m.length(0))),
                 0.9);
}

/// The clause's first sentence, as a field; missing when it denies the right it is about
/// ("does not give you a right to renew").
nlohmann::json firstSentence(const DocText& doc, const Clause* clause) {
    static const std::regex sentence(R"(^\s*([\s\S]+?\.)(?=\s|$))");
    auto out = inClause(doc, clause, sentence, 1, [](const std::string& s) {
        std::string out;
        for (const char c : s) {
            const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
            if (space && (out.empty() || out.back() == ' ')) continue;
            out += space ? ' ' : c;
        }
        return out;
    });
    if (out["value"].is_string() &&
        plugins::deniesAnyRight(plugins::lowerCase(out["value"].get<std::string>()))) {
        return missingField();
    }
    return out;
}

const std::regex kMoney(R"(\$[\d,]+(?:\.\d{2})?(?:\s+per\s+(?:month|year|annum))?)");
const std::regex kPercent(R"(\d+(?:\.\d+)?%)");
const std::regex kLongDate(R"([A-Z][a-z]+\s+\d{1,2},\s*\d{4})");
const std::regex kExpiration(
    R"(Expiration Date\s+(?:is|shall be)(?:\s+extended)?(?:\s+from\s+[A-Z][a-z]+\s+\d{1,2},\s*\d{4})?(?:\s+to)?\s+([A-Z][a-z]+\s+\d{1,2},\s*\d{4}))");
const std::regex kCommencement(
    R"(Commencement Date\s+(?:is|shall be)\s+([A-Z][a-z]+\s+\d{1,2},\s*\d{4}))");

nlohmann::json keyTerms(const DocText& doc) {
    const auto all = clauses(doc.text);
    static const std::regex parties(
        R"(between\s+([\s\S]+?),?\s+(?:an?\s[^(]*?)?\(\s*"?Landlord"?\s*\),?\s+and\s+([\s\S]+?),?\s+(?:an?\s[^(]*?)?\(\s*"?Tenant"?\s*\))");
    nlohmann::json parties_field = missingField();
    std::smatch m;
    if (std::regex_search(doc.text, m, parties)) {
        parties_field = field(plugins::trimmed(m[1].str()) + " (Landlord); " +
                                  plugins::trimmed(m[2].str()) + " (Tenant)",
                              doc.source(static_cast<std::size_t>(m.position(0)),
                                         static_cast<std::size_t>(m.length(0))),
                              0.9);
    }
    static const std::regex term(
        R"([a-z]+\s+\(\d+\)\s+(?:years?|months?)|\d+\s+(?:years?|months?))");
    static const std::regex law(R"(laws of the State of ([A-Z][a-z]+(?:\s[A-Z][a-z]+)?))");
    const Clause* term_clause = clauseFor(all, "TERM");
    return {{"parties", parties_field},
            {"premises", firstSentence(doc, clauseFor(all, "PREMISES"))},
            {"commencement", inClause(doc, term_clause, kCommencement, 1, isoFromLong)},
            {"expiration", inClause(doc, term_clause, kExpiration, 1, isoFromLong)},
            {"term", inClause(doc, term_clause, term)},
            {"base_rent", inClause(doc, clauseFor(all, "BASE RENT"), kMoney)},
            {"escalations", inClause(doc, clauseFor(all, "ESCALATION"), kPercent)},
            {"security_deposit", inClause(doc, clauseFor(all, "SECURITY DEPOSIT"), kMoney)},
            {"renewal_options", firstSentence(doc, clauseFor(all, "RENEWAL"))},
            {"termination_rights", firstSentence(doc, clauseFor(all, "TERMINATION"))},
            {"permitted_use", firstSentence(doc, clauseFor(all, "PERMITTED USE"))},
            {"assignment_subletting", firstSentence(doc, clauseFor(all, "ASSIGNMENT"))},
            {"maintenance", firstSentence(doc, clauseFor(all, "MAINTENANCE"))},
            {"insurance", firstSentence(doc, clauseFor(all, "INSURANCE"))},
            {"operating_costs", firstSentence(doc, clauseFor(all, "OPERATING COSTS"))},
            {"holdover", firstSentence(doc, clauseFor(all, "HOLDOVER"))},
            {"notices", firstSentence(doc, clauseFor(all, "NOTICES"))},
            {"governing_law", inClause(doc, clauseFor(all, "GOVERNING LAW"), law, 1)}};
}

Result<nlohmann::json> abstractStep(plugin::HostServices& host, const StepInput& in) {
    auto doc = load(host, in, "primary");
    if (!doc) return doc.error();
    // The typed fields find every term by meaning; the clause rules add evidence.
    auto typed_fields =
        plugins::extractTypedFields(host, in, typedFieldsOf(in.workflow), {"abstract."});
    if (!typed_fields) return typed_fields.error();
    nlohmann::json out{{"abstract", keyTerms(*doc)}};
    plugins::mergeTypedFields(out, *typed_fields);
    auto& abstract = out["abstract"];
    const auto units = plugins::fieldUnits(*doc);
    // A rent that rises by a schedule of amounts escalates without a percentage, and one that
    // is reviewed to market rent without either.
    if (abstract["escalations"]["value"].is_null()) {
        abstract["escalations"] = plugins::amountSchedule(*doc, "rent");
    }
    if (abstract["escalations"]["value"].is_null()) {
        abstract["escalations"] = rentReview(*doc, units);
    }
    // A letter agreement names no role: its signatories are the parties.
    if (abstract["parties"]["value"].is_null()) abstract["parties"] = signingParties(*doc);
    // A clause that charges a defined term ("the Service Charge Percentage") states the figure
    // the Particulars give it.
    for (const char* key :
         {"renewal_options", "termination_rights", "permitted_use", "assignment_subletting",
          "maintenance", "insurance", "operating_costs"}) {
        auto& value = abstract[key]["value"];
        if (value.is_string()) value = withDefinedFigures(value.get<std::string>(), units);
    }
    return out;
}

nlohmann::json dated(const std::string& date, const std::string& event, nlohmann::json source,
                     double confidence) {
    return field({{"date", date}, {"event", event}}, std::move(source), confidence);
}

Result<nlohmann::json> datesAndRisks(plugin::HostServices& host, const StepInput& in) {
    auto doc = load(host, in, "primary");
    if (!doc) return doc.error();
    const auto& abstract = in.packet.at("abstract");
    nlohmann::json dates = nlohmann::json::array();
    for (const auto& [key, event] : std::vector<std::pair<std::string, std::string>>{
             {"commencement", "Commencement"}, {"expiration", "Expiration"}}) {
        const auto& f = abstract.at(key);
        if (f["value"].is_string()) {
            dates.push_back(dated(f["value"], event, f["source"], f["confidence"]));
        }
    }
    // Notice deadlines: "at least N (N) months before the Expiration Date" / "effective as of".
    static const std::regex renewal(R"((\d+)\)?\s+months\s+before the Expiration Date)");
    const auto& expiration = abstract.at("expiration");
    std::smatch m;
    if (expiration["value"].is_string() && std::regex_search(doc->text, m, renewal)) {
        dates.push_back(dated(monthsBefore(expiration["value"], std::stoi(m[1].str())),
                              "Renewal notice deadline",
                              doc->source(static_cast<std::size_t>(m.position(0)),
                                          static_cast<std::size_t>(m.length(0))),
                              0.8));
    }
    static const std::regex termination(
        R"(terminate this Lease effective as of ([A-Z][a-z]+\s+\d{1,2},\s*\d{4})[^.]*?(\d+)\)?\s+months'?\s+prior written notice)");
    if (std::regex_search(doc->text, m, termination)) {
        const std::string effective = isoFromLong(m[1].str());
        const auto src = doc->source(static_cast<std::size_t>(m.position(0)),
                                     static_cast<std::size_t>(m.length(0)));
        dates.push_back(dated(monthsBefore(effective, std::stoi(m[2].str())),
                              "Termination notice deadline", src, 0.8));
        dates.push_back(dated(effective, "Early termination date", src, 0.8));
    }
    std::stable_sort(dates.begin(), dates.end(), [](const auto& a, const auto& b) {
        return a["value"]["date"].template get<std::string>() <
               b["value"]["date"].template get<std::string>();
    });

    nlohmann::json flags = nlohmann::json::array();
    const std::vector<std::pair<std::regex, std::string>> rules = {
        {std::regex("may relocate Tenant", std::regex::icase),
         "Relocation clause: Landlord may move Tenant to other space"},
        {std::regex("personal guaranty", std::regex::icase),
         "Personal guaranty of Tenant's obligations"},
        {std::regex(R"((1[5-9]\d|[2-9]\d\d)% of the Base Rent)", std::regex::icase),
         "Holdover rent at 150% or more of Base Rent"},
        {std::regex("termination fee", std::regex::icase),
         "Early termination right with a termination fee"},
        {std::regex("without Landlord's prior written consent", std::regex::icase),
         "Assignment and subletting need Landlord's consent"},
        {std::regex("automatic(ally)? renew", std::regex::icase), "Automatic renewal"}};
    for (const auto& [re, flag] : rules) {
        if (std::regex_search(doc->text, re)) flags.push_back(flag);
    }

    nlohmann::json obligations = nlohmann::json::array();
    static const std::regex tenant_shall(R"(Tenant shall[\s\S]*?\.(?=\s|$))");
    for (auto it = std::sregex_iterator(doc->text.begin(), doc->text.end(), tenant_shall);
         it != std::sregex_iterator() && obligations.size() < 12; ++it) {
        std::string s = plugins::excerpt(it->str(), 0, it->length(0), 400);
        if (std::find(obligations.begin(), obligations.end(), s) == obligations.end()) {
            obligations.push_back(s);
        }
    }
    return nlohmann::json{
        {"critical_dates", dates}, {"risk_flags", flags}, {"obligations", obligations}};
}

Result<nlohmann::json> amendmentStep(plugin::HostServices& host, const StepInput& in) {
    nlohmann::json changes = nlohmann::json::array();
    auto doc = load(host, in, "amendment_document_id");
    if (!doc) return doc.error();
    if (doc->passages.empty()) return nlohmann::json{{"amendment_changes", changes}};
    const auto amended = keyTerms(*doc);
    const auto& original = in.packet.at("abstract");
    for (const auto& [term, f] : amended.items()) {
        if (f["value"].is_null() || term == "parties") continue;
        const auto& before = original.value(term, missingField());
        // The abstract holds the typed value that the clause's sentence states.
        if (before["value"] == f["value"] || plugins::holdsTyped(f["value"], before["value"])) {
            continue;
        }
        changes.push_back({{"term", term},
                           {"original", before["value"]},
                           {"amended", f["value"]},
                           {"source", f["source"]}});
    }
    return nlohmann::json{{"amendment_changes", changes}};
}

}  // namespace

void registerLeaseSteps(plugin::Registrar& registrar, plugin::HostServices& host) {
    const std::string prefix = "lease.lease_intelligence.";
    plugin::HostServices* h = &host;
    registrar.addWorkflowStep({prefix + "abstract", "Lease abstract",
                               [h](const StepInput& in) { return abstractStep(*h, in); }});
    registrar.addWorkflowStep({prefix + "dates_and_risks",
                               "Critical dates, clause and risk flags, obligations",
                               [h](const StepInput& in) { return datesAndRisks(*h, in); }});
    registrar.addWorkflowStep({prefix + "amendment", "Amendment comparison",
                               [h](const StepInput& in) { return amendmentStep(*h, in); }});
}

}  // namespace docintel::lease
