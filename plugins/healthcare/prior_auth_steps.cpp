#include "prior_auth_steps.h"

#include <map>
#include <regex>
#include <string_view>

#include "shared/code_lists.h"
#include "shared/evidence.h"
#include "shared/field_extractor.h"

namespace docintel::healthcare_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::healthcare {
namespace {

/// The field descriptors of the vertical's workflow `workflow` (its definition's `fields`).
const nlohmann::json& typedFieldsOf(const std::string& workflow) {
    static const auto all = plugins::workflowFields(healthcare_files::embeddedFiles());
    return plugins::fieldsFor(all, workflow);
}

using plugin::Passage;
using plugin::Result;
using plugin::StepInput;
using plugins::field;
using plugins::labeled;
using plugins::labeledField;
using plugins::missingField;

const std::vector<std::string> kRequestLabels = {"Date of Request",
                                                 "Patient Name",
                                                 "Patient",
                                                 "Date of Birth",
                                                 "DOB",
                                                 "Member ID",
                                                 "Health Plan",
                                                 "Payer",
                                                 "Ordering Provider",
                                                 "Requesting Provider",
                                                 "NPI",
                                                 "Urgency",
                                                 "Requested Service",
                                                 "CPT Code",
                                                 "CPT Codes",
                                                 "HCPCS Code",
                                                 "Diagnosis Codes (ICD-10)",
                                                 "Diagnosis Codes",
                                                 "ICD-10 Codes",
                                                 "Planned Date of Service",
                                                 "Site of Service",
                                                 "Attestation"};

/// Passages of the run's documents with `role` ("primary" or an input name).
Result<std::vector<Passage>> passagesOf(plugin::HostServices& host, const StepInput& in,
                                        const std::string& role) {
    auto* finder = host.evidence();
    if (!finder) return plugin::Error::unavailable("evidence_unavailable", "no evidence finder");
    std::vector<Passage> out;
    for (const auto& d : in.documents) {
        if (d.role != role) continue;
        auto p = finder->passages(d.document_id);
        if (!p) return p.error();
        out.insert(out.end(), p->begin(), p->end());
    }
    return out;
}

std::optional<plugins::Labeled> firstLabeled(const std::vector<Passage>& passages,
                                             std::initializer_list<const char*> labels) {
    for (const char* l : labels) {
        if (auto found = labeled(passages, l, kRequestLabels)) return found;
    }
    return std::nullopt;
}

// All matches of `re` in `text`, in order, without repeats.
nlohmann::json codes(const std::string& text, const std::regex& re) {
    nlohmann::json out = nlohmann::json::array();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
         ++it) {
        const std::string code = it->str();
        if (std::find(out.begin(), out.end(), code) == out.end()) out.push_back(code);
    }
    return out;
}

/// The service a code table's row describes after `code` (codeRowWords), with its source.
nlohmann::json itemDescribed(const std::vector<Passage>& passages, const std::string& code) {
    for (const auto& p : passages) {
        if (const auto row = plugins::codeRowWords(p.text, code)) {
            return plugins::field(row->value, plugins::sourceOf(p, row->pos, row->len), 0.6);
        }
    }
    return plugins::missingField();
}

Result<nlohmann::json> extractRequest(plugin::HostServices& host, const StepInput& in) {
    auto passages = passagesOf(host, in, "primary");
    if (!passages) return passages.error();
    const auto& ps = *passages;
    static const std::regex cpt(R"(\b(?:\d{5}|[A-V]\d{4})\b)");
    static const std::regex icd(R"(\b[A-TV-Z]\d{2}(?:\.[0-9A-Z]{1,4})?\b)");

    // A name label's value that names no one ("Patient: no personal history of cancer", "...
    // by the payer: [X] Yes [ ] No") is a sentence or a form's question, not the name.
    auto named = [](std::optional<plugins::Labeled> found) {
        if (found && (!plugins::tickBoxes(found->value).empty() ||
                      plugins::typed::names(found->value).empty())) {
            found.reset();
        }
        return found;
    };
    const auto name = named(firstLabeled(ps, {"Patient Name", "Patient"}));
    const auto dob = firstLabeled(ps, {"Date of Birth", "DOB"});
    auto member = firstLabeled(ps, {"Member ID"});
    // "Member ID: pending (application ...)": an identifier not yet issued is none, and so is
    // one without a digit ("Member ID: see attached copy of member card").
    if (member && (plugins::statesNoneYet(member->value) ||
                   member->value.find_first_of("0123456789") == std::string::npos)) {
        member.reset();
    }
    const auto payer = named(firstLabeled(ps, {"Health Plan", "Payer"}));
    const auto provider = named(firstLabeled(ps, {"Ordering Provider", "Requesting Provider"}));
    const auto npi = firstLabeled(ps, {"NPI"});
    const auto service = firstLabeled(ps, {"Requested Service"});
    const auto cpt_line = firstLabeled(ps, {"CPT Code", "CPT Codes", "HCPCS Code"});
    const auto icd_line =
        firstLabeled(ps, {"Diagnosis Codes (ICD-10)", "Diagnosis Codes", "ICD-10 Codes"});
    const auto planned = firstLabeled(ps, {"Planned Date of Service"});
    const auto urgency = firstLabeled(ps, {"Urgency"});

    auto firstToken = [](const std::string& v) {
        // "CUH 7720-4418-02": an identifier's groups of digits after a space are part of it.
        static const std::regex id(R"([A-Za-z0-9][A-Za-z0-9\-]*(?: [0-9][A-Za-z0-9\-]*)*)");
        std::smatch m;
        return std::regex_search(v, m, id) ? nlohmann::json(m.str()) : nlohmann::json(v);
    };
    auto date = [](const std::string& v) {
        // The first date the label's value states, in any way of writing one ("03/14/58 SEX:
        // F", "December 9, 2026").
        const auto found = plugins::typed::dates(v);
        return found.empty() ? nlohmann::json(v) : found.front().value;
    };
    nlohmann::json urgency_field =
        urgency
            ? labeledField(
                  urgency,
                  [](const std::string& v) {
                      static const std::regex fast("expedit|urgent|emergen", std::regex::icase);
                      return nlohmann::json(std::regex_search(v, fast) ? "expedited" : "standard");
                  })
            : field("standard", nullptr, 0.5);
    nlohmann::json out{
        {"patient",
         {{"name", labeledField(name)},
          {"date_of_birth", labeledField(dob, date)},
          {"member_id", labeledField(member, firstToken)},
          {"payer", labeledField(payer)}}},
        {"provider", {{"name", labeledField(provider)}, {"npi", labeledField(npi, firstToken)}}},
        {"requested_service",
         {{"description", labeledField(service)},
          {"cpt_codes",
           cpt_line ? labeledField(cpt_line, [&](const std::string& v) { return codes(v, cpt); })
                    : field(nlohmann::json::array(), nullptr, 0)},
          {"icd10_codes",
           icd_line ? labeledField(icd_line, [&](const std::string& v) { return codes(v, icd); })
                    : field(nlohmann::json::array(), nullptr, 0)},
          {"planned_date", labeledField(planned, date)}}},
        {"urgency", urgency_field}};
    // The typed fields find the request's terms by meaning in any layout; the labels above add
    // evidence.
    auto typed_fields =
        plugins::extractTypedFields(host, in, typedFieldsOf(in.workflow),
                                    {"patient.", "provider.", "requested_service.", "urgency"});
    if (!typed_fields) return typed_fields.error();
    plugins::mergeTypedFields(out, *typed_fields);
    // A request that names its items only in a code table ("E0784 External insulin infusion
    // pump (patch pump) 1 YES") describes its service there: by the first requested code's words.
    auto& description = out["requested_service"]["description"];
    const auto& requested = out["requested_service"]["cpt_codes"]["value"];
    if (description["value"].is_null() && requested.is_array() && !requested.empty() &&
        requested.front().is_string()) {
        description = itemDescribed(ps, requested.front().get<std::string>());
    }
    return out;
}

/// Criteria records from the typed `criteria` list (items under a heading that states them, in
/// any layout): numbered in order, required unless the text calls itself optional.
nlohmann::json typedCriteria(const nlohmann::json& items) {
    nlohmann::json criteria = nlohmann::json::array();
    static const std::regex optional(R"(\boptional\b|^or\b)", std::regex::icase);
    for (const auto& item : items) {
        const std::string text = item["value"].value("text", "");
        if (text.empty()) continue;
        criteria.push_back({{"id", std::to_string(criteria.size() + 1)},
                            {"text", text},
                            {"required", !std::regex_search(text, optional)},
                            {"source", item["source"]},
                            {"status", missingField()},
                            {"evidence", nlohmann::json::array()}});
    }
    return criteria;
}

Result<nlohmann::json> extractPolicy(plugin::HostServices& host, const StepInput& in) {
    auto passages = passagesOf(host, in, "policy_document_ids");
    if (!passages) return passages.error();
    const auto& ps = *passages;
    static const std::vector<std::string> labels = {"Medical Policy", "Policy Number",
                                                    "Effective Date", "Applies to"};
    const auto title = labeled(ps, "Medical Policy", labels);
    const auto number = labeled(ps, "Policy Number", labels);

    static const std::regex criterion(R"(Criterion\s+(\d+)\s*\((required|optional)\)\s*:\s*)",
                                      std::regex::icase);
    nlohmann::json criteria = nlohmann::json::array();
    for (const auto& p : ps) {
        std::vector<std::smatch> found;
        for (auto it = std::sregex_iterator(p.text.begin(), p.text.end(), criterion);
             it != std::sregex_iterator(); ++it) {
            found.push_back(*it);
        }
        for (std::size_t i = 0; i < found.size(); ++i) {
            const auto start = static_cast<std::size_t>(found[i].position(0));
            const auto text_start = start + static_cast<std::size_t>(found[i].length(0));
            std::size_t end = i + 1 < found.size()
                                  ? static_cast<std::size_t>(found[i + 1].position(0))
                                  : p.text.size();
            end = std::min(end, p.text.find('\n', text_start));
            const std::string text = plugins::trimmed(p.text.substr(text_start, end - text_start));
            std::string id = found[i][1].str();
            criteria.push_back({{"id", id},
                                {"text", text},
                                {"required", plugins::trimmed(found[i][2].str()) != "optional" &&
                                                 found[i][2].str() != "Optional"},
                                {"source", plugins::sourceOf(p, start, end - start)},
                                {"status", missingField()},
                                {"evidence", nlohmann::json::array()}});
        }
    }
    nlohmann::json out{
        {"policy", {{"title", labeledField(title)}, {"policy_number", labeledField(number)}}},
        {"criteria", criteria}};
    // The typed fields read the policy's terms and criteria by meaning in any layout; the labels
    // and "Criterion N (required):" lines above add evidence.
    auto typed_fields =
        plugins::extractTypedFields(host, in, typedFieldsOf(in.workflow), {"policy.", "criteria"});
    if (!typed_fields) return typed_fields.error();
    if (const auto it = typed_fields->find("criteria"); it != typed_fields->end()) {
        if (criteria.empty()) out["criteria"] = typedCriteria(it->second);
        typed_fields->erase(it);
    }
    plugins::mergeTypedFields(out, *typed_fields);
    return out;
}

Result<nlohmann::json> mapEvidence(plugin::HostServices& host, const StepInput& in) {
    auto* finder = host.evidence();
    if (!finder) return plugin::Error::unavailable("evidence_unavailable", "no evidence finder");
    std::vector<std::string> primary;
    for (const auto& d : in.documents) {
        if (d.role == "primary") primary.push_back(d.document_id);
    }
    nlohmann::json criteria = in.packet.value("criteria", nlohmann::json::array());
    for (auto& c : criteria) {
        const auto words = plugins::contentWords(c.value("text", ""));
        plugin::EvidenceQuery query;
        query.document_ids = primary;
        query.keywords = words;
        query.limit = 3;
        auto hits = finder->find(query);
        if (!hits) return hits.error();
        nlohmann::json evidence = nlohmann::json::array();
        for (const auto& h : *hits) {
            if (h.score < 0.34) continue;
            const auto [pos, len] = plugins::bestSentence(h.text, words);
            evidence.push_back(plugins::sourceOf(h, pos, len));
        }
        const double score = hits->empty() ? 0.0 : hits->front().score;
        std::string status = "missing_evidence";
        if (score >= 0.5) {
            status = "met";
        } else if (score >= 0.34) {
            status = "needs_clarification";
        }
        nlohmann::json source = evidence.empty() ? nlohmann::json(nullptr) : evidence.front();
        c["status"] = field(status, source, status == "missing_evidence" ? 1.0 - score : score);
        c["evidence"] = evidence;
    }
    return nlohmann::json{{"criteria", criteria}};
}

std::string valueText(const nlohmann::json& f) {
    if (!f.is_object() || !f.contains("value")) return {};
    const auto& v = f["value"];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_array()) {
        std::string out;
        for (const auto& x : v) out += (out.empty() ? "" : ", ") + x.get<std::string>();
        return out;
    }
    return v.is_null() ? std::string() : v.dump();
}

Result<nlohmann::json> assess(const StepInput& in) {
    const auto& p = in.packet;
    nlohmann::json gaps = nlohmann::json::array();
    nlohmann::json risks = nlohmann::json::array();
    nlohmann::json actions = nlohmann::json::array();
    const std::vector<std::pair<std::string, nlohmann::json>> key_fields = {
        {"patient name", p["patient"]["name"]},
        {"member ID", p["patient"]["member_id"]},
        {"CPT/HCPCS code", p["requested_service"]["cpt_codes"]},
        {"ICD-10 diagnosis code", p["requested_service"]["icd10_codes"]}};
    bool fields_complete = true;
    for (const auto& [label, f] : key_fields) {
        if (valueText(f).empty()) {
            fields_complete = false;
            gaps.push_back("The request does not state the " + label + ".");
            actions.push_back("Add the " + label + " to the request.");
        }
    }
    int required = 0, required_met = 0;
    std::string narrative;
    const std::string patient = valueText(p["patient"]["name"]);
    narrative = (patient.empty() ? std::string("The patient") : patient) + " is referred for " +
                valueText(p["requested_service"]["description"]) + " (CPT " +
                valueText(p["requested_service"]["cpt_codes"]) + ") for " +
                valueText(p["requested_service"]["icd10_codes"]) + ".";
    for (const auto& c : p.value("criteria", nlohmann::json::array())) {
        const bool is_required = c.value("required", false);
        const std::string status = valueText(c["status"]);
        if (is_required) ++required;
        if (status == "met") {
            if (is_required) ++required_met;
            const auto& src = c["status"]["source"];
            if (src.is_object()) {
                narrative += " " + src.value("excerpt", "") + " (page " +
                             std::to_string(src.value("page", 1)) + ").";
            }
            continue;
        }
        if (!is_required) continue;
        const std::string text = c.value("text", "");
        if (status == "needs_clarification") {
            risks.push_back("Criterion " + c.value("id", "?") +
                            " is only partly supported: " + text);
            actions.push_back("Clarify in the record how criterion " + c.value("id", "?") +
                              " is met: " + text);
        } else {
            gaps.push_back("No documentation found for criterion " + c.value("id", "?") + ": " +
                           text);
            actions.push_back("Obtain documentation for criterion " + c.value("id", "?") + ": " +
                              text);
        }
    }
    if (valueText(p["urgency"]) == "expedited") {
        risks.push_back("Expedited review is requested; confirm the clinical urgency.");
    }
    const bool ready = fields_complete && required > 0 && required_met == required;
    std::string decision = "not_supported_by_available_docs";
    if (ready) {
        decision = "ready_for_human_review";
        actions.push_back("Have a reviewer approve the packet and submit it to " +
                          valueText(p["patient"]["payer"]) + ".");
    } else if (required_met > 0) {
        decision = "needs_more_information";
    }
    return nlohmann::json{{"gaps", gaps},
                          {"risks", risks},
                          {"ready_for_submission", ready},
                          {"medical_necessity_narrative", narrative},
                          {"recommended_decision", decision},
                          {"next_actions", actions}};
}

}  // namespace

void registerPriorAuthSteps(plugin::Registrar& registrar, plugin::HostServices& host) {
    const std::string prefix = "healthcare.healthcare_prior_auth.";
    plugin::HostServices* h = &host;
    registrar.addWorkflowStep({prefix + "extract_request",
                               "Patient, provider, requested service, codes and urgency",
                               [h](const StepInput& in) { return extractRequest(*h, in); }});
    registrar.addWorkflowStep({prefix + "extract_policy", "Payer policy and its criteria",
                               [h](const StepInput& in) { return extractPolicy(*h, in); }});
    registrar.addWorkflowStep({prefix + "map_evidence", "Evidence per criterion",
                               [h](const StepInput& in) { return mapEvidence(*h, in); }});
    registrar.addWorkflowStep({prefix + "assess", "Gaps, readiness, narrative, recommendation",
                               [](const StepInput& in) { return assess(in); }});
}

}  // namespace docintel::healthcare
