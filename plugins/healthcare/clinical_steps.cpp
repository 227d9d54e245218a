#include "clinical_steps.h"

#include <cmath>
#include <map>
#include <regex>
#include <string_view>

#include "shared/doc_text.h"
#include "shared/evidence.h"
#include "shared/field_extractor.h"
#include "shared/json_text.h"
#include "shared/list_pieces.h"

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

using plugin::Result;
using plugin::StepInput;
using plugins::DocText;
using plugins::field;
using plugins::missingField;
using plugins::trimmed;

const std::vector<std::string> kHeadings = {"problem list",
                                            "problems",
                                            "active problems",
                                            "medications",
                                            "current medications",
                                            "medication list",
                                            "allergies",
                                            "vital signs",
                                            "vitals",
                                            "laboratory results",
                                            "lab results",
                                            "labs",
                                            "preventive care",
                                            "health maintenance",
                                            "assessment and plan",
                                            "assessment",
                                            "plan",
                                            "social history",
                                            "follow-up",
                                            "primary care visit note"};

const std::vector<std::string> kLabels = {"Visit Date",    "Patient Name", "Patient",
                                          "Date of Birth", "DOB",          "MRN",
                                          "Provider",      "Visit Type",   "Chief Complaint"};

std::vector<DocText::Line> section(const DocText& doc, const std::vector<std::string>& names) {
    return plugins::section(doc, kHeadings, names);
}

/// Items of a list section: its bullets, or its non-empty lines when it has none.
std::vector<plugins::Item> listItems(const DocText& doc, const std::vector<std::string>& names) {
    const auto lines = section(doc, names);
    auto items = plugins::bullets(lines);
    if (!items.empty()) return items;
    for (const auto& l : lines) {
        const std::string t = trimmed(l.text);
        if (!t.empty()) items.push_back({t, l.pos + l.text.find(t.front()), t.size()});
    }
    return items;
}

double number(const std::string& s) {
    try {
        return std::stod(s);
    } catch (...) {
        return 0;
    }
}

/// `v` with runs of white space as one space.
std::string squeezed(const std::string& v) {
    std::string out;
    for (const char c : v) {
        const bool space = std::isspace(static_cast<unsigned char>(c));
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : c;
    }
    return trimmed(out);
}

/// MM/DD/YYYY → YYYY-MM-DD; MM/YYYY → YYYY-MM.
std::string isoish(const std::string& v) {
    static const std::regex full(R"(\d{1,2}/\d{1,2}/\d{4})");
    static const std::regex month(R"((\d{1,2})/(\d{4}))");
    std::smatch m;
    if (std::regex_search(v, m, full)) return plugins::isoDate(m.str());
    if (std::regex_search(v, m, month)) {
        return m[2].str() + "-" + (m[1].length() == 1 ? "0" : "") + m[1].str();
    }
    return v;
}

Result<nlohmann::json> extractClinical(plugin::HostServices& host, const StepInput& in) {
    auto docs = plugins::loadDocTexts(host, in, "primary", kHeadings);
    if (!docs) return docs.error();
    nlohmann::json patient = {
        {"name", missingField()}, {"date_of_birth", missingField()}, {"mrn", missingField()}};
    nlohmann::json visit = {{"date", missingField()},
                            {"provider", missingField()},
                            {"chief_complaint", missingField()}};
    nlohmann::json problems = nlohmann::json::array(), medications = nlohmann::json::array(),
                   allergies = nlohmann::json::array(), vitals = nlohmann::json::array(),
                   labs = nlohmann::json::array(), preventive = nlohmann::json::array();

    static const std::regex icd(R"(\(([A-TV-Z]\d{2}(?:\.[0-9A-Z]{1,4})?)\)\s*$)");
    static const std::regex med(
        R"(^([A-Za-z][A-Za-z /-]*?)\s+(\d+(?:\.\d+)?\s*(?:mg|mcg|g|mL|units|IU|%))\b\s*(.*)$)");

    for (const auto& doc : *docs) {
        auto lab_field = [&](std::initializer_list<const char*> labels, auto map) {
            for (const char* l : labels) {
                if (auto f = plugins::labeled(doc.passages, l, kLabels)) {
                    return plugins::labeledField(f, map);
                }
            }
            return missingField();
        };
        auto text = [](const std::string& v) { return nlohmann::json(squeezed(v)); };
        // A labelled date in any form ("5 August 1956"); what reads as no date is none.
        auto date = [](const std::string& v) {
            if (const auto found = plugins::typed::dates(v); !found.empty()) {
                return found.front().value;
            }
            const std::string iso = isoish(v);
            return iso == v ? nlohmann::json(nullptr) : nlohmann::json(iso);
        };
        if (patient["name"]["value"].is_null()) {
            patient["name"] = lab_field({"Patient Name", "Patient"}, text);
            patient["date_of_birth"] = lab_field({"Date of Birth", "DOB"}, date);
            patient["mrn"] = lab_field({"MRN"}, text);
            visit["date"] = lab_field({"Visit Date"}, date);
            visit["provider"] = lab_field({"Provider"}, text);
            visit["chief_complaint"] = lab_field({"Chief Complaint"}, text);
            for (auto* f : {&patient["date_of_birth"], &visit["date"]}) {
                if ((*f)["value"].is_null()) *f = missingField();
            }
        }
        for (const auto& item : listItems(doc, {"problem list", "problems", "active problems"})) {
            std::smatch m;
            nlohmann::json value = {{"description", item.text}, {"icd10", nullptr}};
            if (std::regex_search(item.text, m, icd)) {
                value = {{"description", trimmed(item.text.substr(0, m.position(0)))},
                         {"icd10", m[1].str()}};
            }
            problems.push_back(field(value, doc.source(item.pos, item.len), 0.9));
        }
        for (const auto& item :
             listItems(doc, {"medications", "current medications", "medication list"})) {
            std::smatch m;
            nlohmann::json value = {{"name", item.text}, {"dose", nullptr}, {"sig", nullptr}};
            if (std::regex_search(item.text, m, med)) {
                value = {{"name", trimmed(m[1].str())},
                         {"dose", trimmed(m[2].str())},
                         {"sig", trimmed(m[3].str())}};
            }
            medications.push_back(field(value, doc.source(item.pos, item.len), 0.9));
        }
        for (const auto& item : listItems(doc, {"allergies"})) {
            if (plugins::saysNotAssessed(item.text)) continue;  // "Not reviewed at this visit"
            // "Penicillin: throat swelling (1989). Shellfish: hives.": one allergy a sentence.
            for (const auto& piece : plugins::labelledSentences(item.text)) {
                const auto colon = piece.find(':');
                nlohmann::json value = {
                    {"substance", trimmed(piece.substr(0, colon))},
                    {"reaction", colon == std::string::npos
                                     ? nlohmann::json(nullptr)
                                     : nlohmann::json(trimmed(piece.substr(colon + 1)))}};
                allergies.push_back(field(value, doc.source(item.pos, item.len), 0.9));
            }
        }
        // Vitals: known names with a value and unit, on lines or run together.
        {
            const auto [text, begin] = plugins::block(doc, section(doc, {"vital signs", "vitals"}));
            static const std::regex vital(
                R"(\b(Blood Pressure|BP|Heart Rate|Pulse|Temperature|Temp|Respiratory Rate|Oxygen Saturation|SpO2|Weight|Height|BMI|Pain Score)\s*:\s*(\d+(?:\.\d+)?(?:/\d+)?)\s*(%|[A-Za-z][A-Za-z0-9/]*)?)",
                std::regex::icase);
            for (auto it = std::sregex_iterator(text.begin(), text.end(), vital);
                 it != std::sregex_iterator(); ++it) {
                const auto& m = *it;
                vitals.push_back(field({{"name", m[1].str()},
                                        {"value", m[2].str()},
                                        {"unit", m[3].matched ? m[3].str() : std::string()}},
                                       doc.source(begin + static_cast<std::size_t>(m.position(0)),
                                                  static_cast<std::size_t>(m.length(0))),
                                       0.9));
            }
        }
        // Labs: "Name: value unit (reference lo-hi) FLAG", one after another.
        {
            const auto [text, begin] =
                plugins::block(doc, section(doc, {"laboratory results", "lab results", "labs"}));
            static const std::regex lab(
                R"(([A-Za-z][A-Za-z0-9 ,/'-]*?)\s*:\s*([<>]?\d+(?:\.\d+)?)\s*([^\s(]*)\s*(?:\(reference\s+([^)]*)\))?(?:\s+(HH|LL|H|L|A)\b)?)");
            for (auto it = std::sregex_iterator(text.begin(), text.end(), lab);
                 it != std::sregex_iterator(); ++it) {
                const auto& m = *it;
                const double value = number(m[2].str());
                const std::string reference = trimmed(m[4].str());
                std::string flag = m[5].str();
                if (flag.empty() && !reference.empty()) {
                    // No printed flag: compare with the reference range "lo-hi".
                    static const std::regex range(R"(([\d.]+)\s*-\s*([\d.]+))");
                    std::smatch r;
                    if (std::regex_search(reference, r, range)) {
                        flag = value > number(r[2].str())
                                   ? "H"
                                   : (value < number(r[1].str()) ? "L" : "N");
                    }
                }
                labs.push_back(field({{"name", trimmed(m[1].str())},
                                      {"value", value},
                                      {"unit", m[3].str()},
                                      {"reference", reference.empty() ? nlohmann::json(nullptr)
                                                                      : nlohmann::json(reference)},
                                      {"flag", flag.empty() ? "N" : flag}},
                                     doc.source(begin + static_cast<std::size_t>(m.position(0)),
                                                static_cast<std::size_t>(m.length(0))),
                                     0.9));
            }
        }
        // Preventive care: "Item: status" pairs; an item starts with a capital letter.
        {
            const auto [text, begin] =
                plugins::block(doc, section(doc, {"preventive care", "health maintenance"}));
            static const std::regex label(R"((?:^|\s)([A-Z][A-Za-z0-9 '-]{2,60}?):\s)");
            std::vector<std::pair<std::size_t, std::size_t>> starts;  // label start, value start
            for (auto it = std::sregex_iterator(text.begin(), text.end(), label);
                 it != std::sregex_iterator(); ++it) {
                starts.emplace_back(static_cast<std::size_t>(it->position(1)),
                                    static_cast<std::size_t>(it->position(0) + it->length(0)));
            }
            for (std::size_t k = 0; k < starts.size(); ++k) {
                const std::size_t end = k + 1 < starts.size() ? starts[k + 1].first : text.size();
                const std::string item =
                    trimmed(text.substr(starts[k].first, starts[k].second - starts[k].first));
                const std::string status =
                    trimmed(text.substr(starts[k].second, end - starts[k].second));
                preventive.push_back(
                    field({{"item", item.substr(0, item.find(':'))}, {"status", status}},
                          doc.source(begin + starts[k].first, end - starts[k].first), 0.85));
            }
        }
    }
    nlohmann::json out{{"patient", patient},     {"visit", visit},
                       {"problems", problems},   {"medications", medications},
                       {"allergies", allergies}, {"vitals", vitals},
                       {"labs", labs},           {"preventive_care", preventive}};
    // The typed fields find the patient's identity and the clinical lists by meaning and value
    // type in any layout; the section rules above add evidence.
    auto typed_fields = plugins::extractTypedFields(host, in, typedFieldsOf(in.workflow), {""});
    if (!typed_fields) return typed_fields.error();
    plugins::mergeTypedFields(out, *typed_fields);
    return out;
}

std::string lower(std::string s) { return plugins::lowerCase(std::move(s)); }

bool mentions(const nlohmann::json& list, const char* key, const std::regex& re) {
    for (const auto& f : list) {
        const auto& v = shared::memberAt(f, {"value", key});
        if (v.is_string() && std::regex_search(v.get_ref<const std::string&>(), re)) return true;
    }
    return false;
}

const nlohmann::json* labNamed(const nlohmann::json& labs, const std::regex& re) {
    for (const auto& f : labs) {
        if (std::regex_search(shared::textOf(shared::memberAt(f, {"value"}), "name"), re)) {
            return &f;
        }
    }
    return nullptr;
}

/// Appends to `list` each string item of the extracted list field `stated` (an item field or a
/// plain string) that `list` does not hold yet.
void appendStated(nlohmann::json& list, const nlohmann::json& stated) {
    for (const auto& f : stated) {
        const auto& v = f.is_object() && f.contains("value") ? f["value"] : f;
        if (v.is_string() && std::find(list.begin(), list.end(), v) == list.end()) {
            list.push_back(v);
        }
    }
}

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", v);
    return buf;
}

Result<nlohmann::json> assessClinical(const StepInput& in) {
    const auto& p = in.packet;
    const auto& problems = p.value("problems", nlohmann::json::array());
    const auto& meds = p.value("medications", nlohmann::json::array());
    const auto& labs = p.value("labs", nlohmann::json::array());
    const auto& vitals = p.value("vitals", nlohmann::json::array());
    const auto& preventive = p.value("preventive_care", nlohmann::json::array());
    const std::string visit = shared::textOf(shared::memberAt(p, {"visit", "date"}), "value");
    const int visit_year = visit.size() >= 4 ? std::atoi(visit.substr(0, 4).c_str()) : 0;

    static const std::regex diabetes(R"(diabetes|\bE1[01]\.)", std::regex::icase);
    static const std::regex ckd(R"(chronic kidney disease|\bN18\.)", std::regex::icase);
    static const std::regex htn(R"(hypertension|\bI10\b)", std::regex::icase);
    static const std::regex nsaid(
        R"(\b(?:ibuprofen|naproxen|diclofenac|meloxicam|celecoxib|ketorolac)\b)",
        std::regex::icase);
    static const std::regex acei(R"(\b(?:\w+pril|\w+sartan)\b)", std::regex::icase);
    static const std::regex metformin(R"(\bmetformin\b)", std::regex::icase);
    const bool has_diabetes =
        mentions(problems, "description", diabetes) || mentions(problems, "icd10", diabetes);
    const bool has_ckd = mentions(problems, "description", ckd) || mentions(problems, "icd10", ckd);
    const bool has_htn = mentions(problems, "description", htn) || mentions(problems, "icd10", htn);

    nlohmann::json gaps = nlohmann::json::array(), risks = nlohmann::json::array();
    auto labValue = [&](const char* pattern) -> std::optional<double> {
        const auto* f = labNamed(labs, std::regex(pattern, std::regex::icase));
        if (f == nullptr) return std::nullopt;
        // A result that is not a number ("<0.01", "pending") is no figure to compare.
        const auto& value = shared::memberAt(*f, {"value", "value"});
        if (!value.is_number()) return std::nullopt;
        return value.get<double>();
    };
    if (auto a1c = labValue(R"(a1c)"); has_diabetes && a1c && *a1c >= 8.0) {
        gaps.push_back("Diabetes above goal: hemoglobin A1c " + fmt(*a1c) + "% (goal below 8%)");
    }
    for (const auto& v : vitals) {
        const auto& vital = shared::memberAt(v, {"value"});
        if (!std::regex_search(shared::textOf(vital, "name"),
                               std::regex("blood pressure", std::regex::icase))) {
            continue;
        }
        const std::string bp = shared::textOf(vital, "value");
        const auto slash = bp.find('/');
        if (slash == std::string::npos) continue;
        const double sys = number(bp.substr(0, slash)), dia = number(bp.substr(slash + 1));
        if (has_htn && (sys >= 140 || dia >= 90)) {
            gaps.push_back("Blood pressure above goal: " + bp + " mmHg (goal below 140/90)");
        }
    }
    // Preventive items: overdue by age of the last date, or not done.
    for (const auto& f : preventive) {
        const auto& entry = shared::memberAt(f, {"value"});
        const std::string item = shared::textOf(entry, "item");
        const std::string status = shared::textOf(entry, "status");
        const std::string l = lower(item) + " " + lower(status);
        static const std::regex year(R"((?:\d{1,2}/)?(\d{4}))");
        std::smatch y;
        const int last = std::regex_search(status, y, year) ? std::stoi(y[1].str()) : 0;
        const bool not_done = l.find("not on file") != std::string::npos ||
                              l.find("not given") != std::string::npos ||
                              l.find("not done") != std::string::npos ||
                              l.find("declined") != std::string::npos;
        int interval = 0;
        if (l.find("eye exam") != std::string::npos) interval = has_diabetes ? 1 : 0;
        if (l.find("colonoscopy") != std::string::npos ||
            l.find("colorectal") != std::string::npos) {
            interval = 10;
        }
        if (l.find("completed today") != std::string::npos) continue;
        if (not_done) {
            gaps.push_back(item + ": " + status);
        } else if (interval > 0 && last > 0 && visit_year > 0 && visit_year - last > interval) {
            gaps.push_back(item + " overdue: last " + std::to_string(last));
        }
    }

    // Safety: drug-disease and drug-drug-lab combinations.
    const bool on_nsaid = mentions(meds, "name", nsaid);
    const bool on_acei = mentions(meds, "name", acei);
    const auto egfr = labValue(R"(egfr)");
    const auto potassium = labValue(R"(potassium)");
    if (on_nsaid && (has_ckd || (egfr && *egfr < 60))) {
        risks.push_back("NSAID with reduced kidney function (eGFR " +
                        (egfr ? fmt(*egfr) : std::string("unknown")) +
                        "): avoid NSAIDs in chronic kidney disease");
    }
    if (on_nsaid && on_acei) {
        risks.push_back(
            "NSAID with an ACE inhibitor or ARB: risk of kidney injury and high potassium");
    }
    if (potassium && *potassium > 5.0 && on_acei) {
        risks.push_back("Potassium " + fmt(*potassium) +
                        " mmol/L on an ACE inhibitor or ARB: recheck before adding agents that "
                        "raise potassium");
    }
    if (egfr && mentions(meds, "name", metformin) && *egfr < 45) {
        risks.push_back("Metformin with eGFR " + fmt(*egfr) + ": reduce the dose or stop");
    }
    static const std::regex dizzy(R"(dizz|light-?headed|faint|syncope|fall)", std::regex::icase);
    static const std::regex antihypertensive(
        R"(\b(?:\w+pril|\w+sartan|\w+olol|\w+dipine|hydrochlorothiazide|chlorthalidone|furosemide)\b)",
        std::regex::icase);
    const auto& complaint = shared::memberAt(p, {"visit", "chief_complaint", "value"});
    if (complaint.is_string() && std::regex_search(complaint.get<std::string>(), dizzy) &&
        mentions(meds, "name", antihypertensive)) {
        risks.push_back(
            "Light-headedness or dizziness on blood pressure medication: check orthostatic "
            "vitals; fall risk");
    }
    for (const auto& a : p.value("allergies", nlohmann::json::array())) {
        const auto& allergy = shared::memberAt(a, {"value"});
        if (!allergy.is_object()) continue;
        const std::string substance = shared::textOf(allergy, "substance");
        const std::string reaction = allergy.contains("reaction") && allergy["reaction"].is_string()
                                         ? allergy["reaction"].get<std::string>()
                                         : std::string("reaction not recorded");
        risks.push_back("Allergy: " + substance + " (" + reaction + ")");
    }

    // The care gaps and risks the document states ("Things you are due for", "HIGH FALL RISK"),
    // read by meaning in the extraction step, after the ones derived from the record unless
    // one of those says the same.
    appendStated(gaps, p.value("care_gaps", nlohmann::json::array()));
    appendStated(risks, p.value("risk_flags", nlohmann::json::array()));

    // PHI: which identifiers the packet carries.
    nlohmann::json phi = nlohmann::json::array();
    std::string identifiers;
    for (const auto& [key, label] :
         std::vector<std::pair<std::string, std::string>>{{"name", "patient name"},
                                                          {"date_of_birth", "date of birth"},
                                                          {"mrn", "medical record number"}}) {
        if (!p["patient"][key]["value"].is_null()) {
            identifiers += (identifiers.empty() ? "" : ", ") + label;
        }
    }
    if (!identifiers.empty()) {
        phi.push_back("Contains protected health information: " + identifiers +
                      ". Share only with the patient and the care team.");
    }
    phi.push_back(
        "Diagnoses, medications and laboratory results are PHI when linked to the patient.");
    return nlohmann::json{{"care_gaps", gaps}, {"risk_flags", risks}, {"phi_notes", phi}};
}

}  // namespace

void registerClinicalSteps(plugin::Registrar& registrar, plugin::HostServices& host) {
    const std::string prefix = "healthcare.healthcare_clinical.";
    plugin::HostServices* h = &host;
    registrar.addWorkflowStep({prefix + "extract_clinical",
                               "Problems, medications, allergies, vitals and labs",
                               [h](const StepInput& in) { return extractClinical(*h, in); }});
    registrar.addWorkflowStep({prefix + "assess", "Care gaps, risk and safety flags, PHI notes",
                               [](const StepInput& in) { return assessClinical(in); }});
}

}  // namespace docintel::healthcare
