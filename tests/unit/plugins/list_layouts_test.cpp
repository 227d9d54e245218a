// plugins/shared/field_lists.h in the layouts parsers leave: a lab report's results run into one
// line, a table's rows written "Header: cell | ...", Markdown headings without their "#" that
// open a chunk, a policy's lettered criteria after a numbered upper-case heading, and the lines
// that end a list (another subject's label, a sentence after bullets), a SOAP note's letters;
// items stated by a status or flag without a heading (plugins/shared/stated_items.h), a problem
// written as its abbreviation, and doses written in prose.

#include <gtest/gtest.h>

#include <fstream>

#include "one_passage_doc.h"

#include "shared/field_extractor.h"

namespace docintel::plugins {
namespace {

using test::docOf;

FieldSpec specOf(const std::string& json) {
    return fieldSpecs(nlohmann::json::array({nlohmann::json::parse(json)})).front();
}

std::vector<std::string> texts(const nlohmann::json& list, const std::string& key = "") {
    std::vector<std::string> out;
    for (const auto& item : list) {
        out.push_back(key.empty() ? item["value"].get<std::string>()
                                  : item["value"][key].get<std::string>());
    }
    return out;
}

const char* kLabs = R"({"path": "labs", "type": "list", "item": "measurement",
  "meaning": ["lab results", "labs", "results"], "units": ["mmol/L", "mg/dL", "mIU/L", "ng/dL"]})";

TEST(ListLayouts, ALabReportsResultsRunIntoOneLine) {
    const auto labs = extractList(
        specOf(kLabs), docOf({"REFERENCE LAB\nBASIC METABOLIC PANEL Sodium 131 mmol/L (136-145) L "
                              "Potassium 6.8 mmol/L (3.5-5.1) HH Chloride 99 mmol/L (98-107) "
                              "Glucose 142 mg/dL (70-99) H"}));
    std::map<std::string, std::string> flags;
    for (const auto& l : labs) flags[l["value"]["name"]] = l["value"]["flag"].get<std::string>();
    EXPECT_EQ(flags,
              (std::map<std::string, std::string>{
                  {"Sodium", "L"}, {"Potassium", "H"}, {"Chloride", "N"}, {"Glucose", "H"}}));
}

TEST(ListLayouts, AbbreviatedLabsWithoutUnitsAndNoDateOrDoseForALab) {
    const char* labs_with_names =
        R"({"path": "labs", "type": "list", "item": "measurement", "meaning": ["labs", "results"],
            "units": ["mmol/L", "mg/dL"], "values": {"sodium": ["sodium", "na"],
            "potassium": ["potassium", "k"], "creatinine": ["creatinine", "cr"]}})";
    const auto labs =
        extractList(specOf(labs_with_names),
                    docOf({"Last VS: BP 130/70 P 80 Labs 11/02: Na 139, K 3.9, Cr 1.1\n"
                           "Lab Results (collected 11/02/2026); start lisinopril 10 mg daily.\n"}));
    std::map<std::string, double> values;
    for (const auto& l : labs) values[l["value"]["name"]] = l["value"]["value"].get<double>();
    EXPECT_EQ(values, (std::map<std::string, double>{
                          {"creatinine", 1.1}, {"potassium", 3.9}, {"sodium", 139}}));
    // A label with a bracketed note names its result.
    const auto screening = extractList(
        specOf(kLabs), docOf({"SCREENING\n- Glucose (point of care): 92 mg/dL, fasting.\n"}));
    ASSERT_EQ(screening.size(), 1u);
    EXPECT_EQ(screening[0]["value"]["name"].get<std::string>().rfind("Glucose", 0), 0u);
    EXPECT_EQ(screening[0]["value"]["value"], 92.0);
    const std::string label = "- Hemoglobin (point of care): 12.1 g/dL";
    std::size_t start = 0;
    EXPECT_EQ(nameBefore(label, label.find("12.1"), &start, true), "Hemoglobin");
    EXPECT_EQ(nameBefore(label, label.find("12.1"), &start), "");  // a dose's column label
    // A rate per minute is still a measurement.
    EXPECT_EQ(measurement(specOf(labs_with_names), "RR 18/min")["unit"], "/min");
}

TEST(ListLayouts, ALabelThatOpensASentenceOfAParagraph) {
    const auto allergies = extractList(
        specOf(R"({"path": "allergies", "type": "list", "item": "text", "key": "substance",
                   "meaning": ["allergies", "allergic to"]})"),
        docOf({"INDICATIONS\n"
               "Admitted with abdominal pain and fever. Allergies: sulfa (rash) and latex "
               "(hives), so the prep was done with iodine-free solution. Consent was signed.\n"}));
    EXPECT_EQ(texts(allergies, "substance"),
              (std::vector<std::string>{"sulfa (rash)", "latex (hives)"}));
}

TEST(ListLayouts, ATableRowOfRecordsIsOneRecord) {
    const auto labs = extractList(
        specOf(kLabs), docOf({"O\nTest | Result | Units | Reference\n"
                              "Test: TSH | Result: 7.8 | Units: mIU/L | Reference: 0.4-4.0\n"
                              "Test: Free T4 | Result: 0.8 | Units: ng/dL | Reference: 0.9-1.7"}));
    ASSERT_EQ(labs.size(), 2u);
    EXPECT_EQ(labs[0]["value"]["name"], "TSH");
    EXPECT_EQ(labs[0]["value"]["value"], 7.8);
    EXPECT_EQ(labs[0]["value"]["flag"], "H");
    EXPECT_EQ(labs[1]["value"]["flag"], "L");
    const auto meds = extractList(
        specOf(R"({"path": "medications", "type": "list", "item": "dose",
                   "meaning": ["medications", "medication"], "avoid": ["allergies"]})"),
        docOf({"Medication Reconciliation\nPatient: Ann Roe | DOB: 29 Feb 1944 | Allergies: "
               "Sulfa\nMedication | Dose | Frequency\n"
               "Medication: Furosemide | Dose: 40 mg | Frequency: once daily"}));
    ASSERT_EQ(meds.size(), 1u);
    EXPECT_EQ(meds[0]["value"]["name"], "Furosemide");
    EXPECT_EQ(meds[0]["value"]["dose"], "40 mg");
}

TEST(ListLayouts, AShortLineThatOpensAChunkIsAHeading) {
    const auto problems = extractList(
        specOf(R"({"path": "problems", "type": "list", "item": "text", "key": "description",
                   "meaning": ["health conditions", "problems"]})"),
        docOf({"Your health conditions\nHigh blood pressure\nPrediabetes",
               "Your medicines\nAmlodipine 5 mg, one tablet daily"}));
    EXPECT_EQ(texts(problems, "description"),
              (std::vector<std::string>{"High blood pressure", "Prediabetes"}));
}

TEST(ListLayouts, ATypedFieldReadsAShortLineThatOpensAChunkAsItsHeading) {
    // A Markdown or PDF heading block ("## Assessment") reaches the plugin without its "#", but
    // the chunker starts a chunk at it.
    const auto doc = docOf({"Patient: Ann Roe\nSeen for back pain.",
                            "Assessment\n1. Lumbar radiculopathy (M54.16).\n2. Obesity (E66.9)."});
    const auto spec = specOf(R"({"path": "codes", "type": "code", "code": "icd10", "list": true,
                                "meaning": ["diagnosis codes", "assessment"]})");
    const auto units = fieldUnits(doc);
    auto codes = extractField(spec, doc, units, {})["value"].get<std::vector<std::string>>();
    std::sort(codes.begin(), codes.end());
    EXPECT_EQ(codes, (std::vector<std::string>{"E66.9", "M54.16"}));
    EXPECT_TRUE(isHeadingLine("-- Member Information -------", "-- Member Information -------"));
}

TEST(ListLayouts, LetteredCriteriaAfterANumberedUpperCaseHeading) {
    const auto criteria = extractList(
        specOf(R"({"path": "criteria", "type": "list", "item": "text", "key": "text",
                   "meaning": ["coverage criteria", "criteria"], "avoid": ["exclusions"]})"),
        docOf({"PLAN MEDICAL POLICY: SLEEP TESTING\nI. COVERAGE CRITERIA IN-LAB TESTING IS "
               "CONSIDERED MEDICALLY NECESSARY WHEN ALL OF THE FOLLOWING ARE MET: A. THE MEMBER "
               "HAS SYMPTOMS OF SLEEP APNEA. B. AN EPWORTH SCORE OF 10 OR GREATER IS DOCUMENTED.\n"
               "II. EXCLUSIONS SCREENING OF ASYMPTOMATIC MEMBERS IS NOT COVERED."}));
    EXPECT_EQ(texts(criteria, "text"),
              (std::vector<std::string>{"THE MEMBER HAS SYMPTOMS OF SLEEP APNEA",
                                        "AN EPWORTH SCORE OF 10 OR GREATER IS DOCUMENTED"}));
}

TEST(ListLayouts, AListEndsAtAnotherSubjectsLabelOrASentenceAfterItsBullets) {
    const auto required = specOf(R"({"path": "requirements.required", "type": "list",
        "item": "text", "meaning": ["requirements", "need"], "avoid": ["bonus"]})");
    EXPECT_EQ(texts(extractList(required, docOf({"Requirements\nAdvanced SQL\nLooker or Tableau\n"
                                                 "Salary: $72,000 - $85,000"}))),
              (std::vector<std::string>{"Advanced SQL", "Looker or Tableau"}));
    EXPECT_EQ(texts(extractList(required, docOf({"What they need:\n- strong SQL\n- Playwright\n"
                                                 "It would be a bonus if you have ISTQB."}))),
              (std::vector<std::string>{"strong SQL", "Playwright"}));
    const auto preferred = specOf(R"({"path": "requirements.preferred", "type": "list",
        "item": "text", "meaning": ["preferred", "bonus"], "prose": ["bonus if you have"]})");
    EXPECT_EQ(texts(extractList(preferred, docOf({"What they need:\n- strong SQL\n"
                                                  "It would be a bonus if you have ISTQB "
                                                  "certification or banking experience."}))),
              std::vector<std::string>{"ISTQB certification or banking experience"});
}

TEST(ListLayouts, ASoapNotesLetterHeadingIsItsSection) {
    // "A" (or "A/P") is the assessment of a SOAP note, as a heading line or a label.
    const auto problems = specOf(R"({"path": "problems", "type": "list", "item": "text",
        "key": "description", "meaning": ["problems", "diagnoses", "assessment", "impression"],
        "avoid": ["family history"]})");
    EXPECT_EQ(texts(extractList(problems, docOf({"S: Knee pain for three weeks.\n"
                                                 "O: Effusion of the right knee.\n"
                                                 "A/P:\n"
                                                 "1. Right knee osteoarthritis (M17.11)\n"
                                                 "2. Obesity (E66.9)\n"})),
                    "description"),
              (std::vector<std::string>{"Right knee osteoarthritis (M17.11)", "Obesity (E66.9)"}));
    EXPECT_EQ(texts(extractList(problems, docOf({"S: Cough.\nO: Clear lungs.\n"
                                                 "A: Acute bronchitis; mild intermittent asthma.\n"
                                                 "P: Supportive care."})),
                    "description"),
              (std::vector<std::string>{"Acute bronchitis", "mild intermittent asthma"}));
    const auto codes = specOf(R"({"path": "icd10_codes", "type": "code", "code": "icd10",
        "list": true, "meaning": ["diagnosis codes", "diagnosis", "assessment"]})");
    const auto doc =
        docOf({"S: Knee pain.\nO: Effusion, BMI 31.\nA\nRight knee osteoarthritis "
               "M17.11\nObesity E66.9\nP\nRefer to orthopaedics."});
    auto got =
        extractField(codes, doc, fieldUnits(doc), {})["value"].get<std::vector<std::string>>();
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<std::string>{"E66.9", "M17.11"}));  // not the plan's
}

TEST(ListLayouts, CareGapsStatedByTheirStatusWithoutAHeadingThatNamesThem) {
    const auto gaps = specOf(R"({"path": "care_gaps", "type": "list", "item": "text",
        "meaning": ["care gaps", "overdue"], "avoid": ["completed", "due to"],
        "values": {"not done": ["not given", "not yet given"], "due": ["due"],
                   "deferred": ["deferred", "declined"]}})");
    EXPECT_EQ(
        texts(
            extractList(gaps, docOf({"Vaccines\nGiven today: Tdap.\nDeferred until after the trip: "
                                     "hepatitis A dose 2 and typhoid; she will call to book them. "
                                     "Shingles vaccine not yet given; offered and declined, will "
                                     "think it over.\nZoster vaccine not given - due.\nFatigue "
                                     "due to poor sleep.\nColonoscopy completed 2021."}))),
        (std::vector<std::string>{"hepatitis A dose 2", "typhoid", "Shingles vaccine not yet given",
                                  "Zoster vaccine not given - due"}));
    // A section that names the gaps gives them; the statuses elsewhere are not read.
    EXPECT_EQ(texts(extractList(gaps, docOf({"Care gaps: mammogram\nFlu vaccine not given."}))),
              (std::vector<std::string>{"mammogram"}));
}

TEST(ListLayouts, RiskFlagsStatedInTheDocumentAndNotWhenDenied) {
    const auto risks = specOf(R"({"path": "risk_flags", "type": "list", "item": "text",
        "meaning": ["risk flags", "precautions"], "avoid": ["low", "no"],
        "values": {"fall risk": ["fall risk", "risk of falls"],
                   "aspiration risk": ["aspiration risk", "aspiration precautions"],
                   "bleeding risk": ["bleeding risk"]}})");
    EXPECT_EQ(texts(extractList(risks, docOf({"Diet: soft, thin liquids. Aspiration "
                                              "precautions.\nAt HIGH RISK OF FALLS - bed alarm "
                                              "on.\nLow bleeding risk.\nNo fall risk at home."}))),
              (std::vector<std::string>{"aspiration risk (Aspiration precautions)",
                                        "At HIGH RISK OF FALLS - bed alarm on"}));
}

TEST(ListLayouts, AProblemWrittenAsItsAbbreviationIsReadAsTheProblemItNames) {
    const auto problems = specOf(R"({"path": "problems", "type": "list", "item": "text",
        "key": "description", "meaning": ["dx", "problems"],
        "values": {"hypertension": ["htn"], "type 2 diabetes": ["dm2", "t2dm"]}})");
    EXPECT_EQ(texts(extractList(problems, docOf({"Dx: T2DM; HTN; CHF exacerbation with HTN "
                                                 "urgency"})),
                    "description"),
              (std::vector<std::string>{"type 2 diabetes (T2DM)", "hypertension (HTN)",
                                        "CHF exacerbation with HTN urgency"}));
}

TEST(ListLayouts, MedicationsInProseWithTheDoseSetOffByACommaOrATopicalsStrength) {
    const auto meds = specOf(R"({"path": "medications", "type": "list", "item": "dose",
        "meaning": ["medications", "meds"]})");
    const auto got = extractList(
        meds, docOf({"Wheezes with colds and uses a fluticasone inhaler, 44 mcg per puff, 2 "
                     "puffs twice daily. Rash on the hands treated with triamcinolone 0.1% "
                     "ointment twice daily. Insulin 10 units, 5 units at night. SpO2 97%."}));
    std::vector<std::string> names, doses;
    for (const auto& m : got) {
        names.push_back(m["value"]["name"]);
        doses.push_back(m["value"]["dose"]);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"fluticasone inhaler", "triamcinolone", "Insulin"}));
    EXPECT_EQ(doses, (std::vector<std::string>{"44 mcg", "0.1%", "10 units"}));
}

TEST(ListLayouts, AMeasurementInARowOfATableUnderAnotherHeading) {
    const auto vitals = specOf(R"({"path": "vitals", "type": "list", "item": "measurement",
        "meaning": ["vital signs"], "values": {"weight": ["weight", "wt"], "height": ["height"]}})");
    std::vector<std::string> names;
    for (const auto& v :
         extractList(vitals, docOf({"Growth\nMeasure: Weight | Value: 21.4 kg | Percentile: 55th\n"
                                    "Measure: Height | Value: 114 cm | Percentile: 60th\n"
                                    "Measure: Head | Value: 51 cm | Percentile: 40th"}))) {
        names.push_back(v["value"]["name"]);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"weight", "height"}));
}

TEST(ListLayouts, LabelledItemLinesOfADiagnosesSectionAreItemsHoweverLong) {
    const auto spec = specOf(R"({"path": "problems", "type": "list", "item": "text",
        "key": "description", "meaning": ["problems", "diagnoses"]})");
    const auto doc = docOf({"DISCHARGE NOTE\nPatient: Ann Roe Age: 70",
                            "Diagnoses\nPrincipal: community-acquired pneumonia of the right lower "
                            "lobe.\nSecondary: chronic heart failure with reduced ejection "
                            "fraction; type 2 diabetes; gout.",
                            "Hospital course\nShe came in with cough and fever for three days and "
                            "was admitted to the ward."});
    EXPECT_EQ(texts(extractList(spec, doc), "description"),
              (std::vector<std::string>{"community-acquired pneumonia of the right lower lobe",
                                        "chronic heart failure with reduced ejection fraction",
                                        "type 2 diabetes", "gout"}));
}

TEST(ListLayouts, ADoseInMilliequivalentsIsNoLabAndSentencesOfLabelledAllergies) {
    const auto labs = specOf(R"({"path": "labs", "type": "list", "item": "measurement",
        "meaning": ["labs"], "values": {"chloride": ["chloride", "cl"],
        "glucose": ["glucose", "fingerstick glucose"]}})");
    // "KCl 20 mEq" is a dose (a concentration is per litre); "Cl 101 mEq/L" a result.
    EXPECT_TRUE(measurement(labs, "potassium chloride 20 mEq").is_null());
    EXPECT_EQ(measurement(labs, "Cl 101 mEq/L")["value"], 101.0);
    const auto found = measurements(labs, "Fingerstick glucose 188 mg/dL (H)");
    ASSERT_FALSE(found.empty());
    for (const auto& f : found) EXPECT_EQ(f.value["name"], "glucose");
    EXPECT_EQ(labelledSentences("Latex: rash (2019). Iodine: hives."),
              (std::vector<std::string>{"Latex: rash (2019).", "Iodine: hives."}));
    EXPECT_EQ(labelledSentences("Sulfa drugs - hives. Tolerates cephalexin."),
              std::vector<std::string>{"Sulfa drugs - hives. Tolerates cephalexin."});
}

TEST(ListLayouts, ATypedLabTheRulesNamedMoreCloselyIsNotAddedAgain) {
    nlohmann::json result = {
        {"labs", nlohmann::json::array({nlohmann::json{
                     {"value", {{"name", "Fasting Glucose"}, {"value", 168.0}}}}})}};
    const std::map<std::string, nlohmann::json> typed = {
        {"labs", nlohmann::json::array(
                     {nlohmann::json{{"value", {{"name", "glucose"}, {"value", 168.0}}}},
                      nlohmann::json{{"value", {{"name", "glucose"}, {"value", 240.0}}}},
                      nlohmann::json{{"value", {{"name", "hemoglobin"}, {"value", 13.1}}}}})}};
    mergeTypedFields(result, typed);
    ASSERT_EQ(result["labs"].size(), 3u) << result.dump();
    EXPECT_EQ(result["labs"][1]["value"]["name"], "glucose");
    EXPECT_EQ(result["labs"][1]["value"]["value"], 240.0);
    EXPECT_EQ(result["labs"][2]["value"]["name"], "hemoglobin");
}

TEST(ListLayouts, AFallStatedAsAnEventIsAFallRisk) {
    std::ifstream in(DOCINTEL_SOURCE_DIR "/workflows/healthcare/healthcare_clinical.workflow.json");
    for (const auto& f : nlohmann::json::parse(in)["fields"]) {
        if (f["path"] != "risk_flags") continue;
        const auto spec = fieldSpecs(nlohmann::json::array({f})).front();
        EXPECT_EQ(texts(extractList(spec, docOf({"Concerns: lives alone; one fall at home last "
                                                 "spring.\nNo falls since."}))),
                  std::vector<std::string>{"one fall at home last spring"});
    }
}

}  // namespace
}  // namespace docintel::plugins
