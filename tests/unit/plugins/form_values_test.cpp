// Values of forms and letters as the typed extractor reads them (plugins/shared/field_units.h,
// typed_values.h, field_extractor.h): a Title Case label with a bracketed note, a short code
// after its label, a professional corporation's name, an apartment in an address, party
// fields that take only a person's name, a portal export's split name and ticked boxes.

#include <gtest/gtest.h>

#include <fstream>

#include "one_passage_doc.h"

#include "shared/field_extractor.h"

namespace docintel::plugins {
namespace {

nlohmann::json extract(const nlohmann::json& fields, const std::string& text) {
    const DocText doc = test::onePassageDoc(text);
    const auto units = fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fields)) {
        out[spec.path] = extractField(spec, doc, units, {});
    }
    return out;
}

TEST(FormValues, ALabelWithABracketedNoteAndAShortCode) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "box_3", "type": "money", "meaning": ["capital gain", "box 3"]},
      {"path": "box_7", "type": "code", "code": "short", "meaning": ["distribution code"]}
    ])");
    const auto got = extract(fields,
                             "1 Gross distribution ...... 18,500.00 2a Taxable amount ...... "
                             "18,500.00 3 Capital gain (included in box 2a) ...... 0.00 7 "
                             "Distribution code(s) ...... G\n");
    EXPECT_EQ(got["box_3"]["value"], "$0.00");
    EXPECT_EQ(got["box_7"]["value"], "G");
}

TEST(FormValues, LegalFormsAndApartments) {
    EXPECT_EQ(typed::names("and Coastal Pediatric Partners PC, a California professional "
                           "corporation")
                  .front()
                  .value,
              "Coastal Pediatric Partners PC");
    // A clinician's degree other than a physician's is part of the name too.
    EXPECT_EQ(typed::names("Testing psychologist: Mara Lindqvist-Obi, PsyD, licensed").back().value,
              "Mara Lindqvist-Obi, PsyD");
    EXPECT_EQ(typed::names("Dentist: Omar Haddad, DDS").back().value, "Omar Haddad, DDS");
    EXPECT_EQ(typed::addresses("Property: 48 Alder Lane, Apt 3B, Portland, OR 97214").front().value,
              "48 Alder Lane, Apt 3B, Portland, OR 97214");
}

TEST(FormValues, APersonFieldTakesOnlyAPersonsName) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "patient", "type": "party", "person": true, "meaning": ["patient", "member"]},
      {"path": "candidate", "type": "party", "person": true,
       "meaning": ["endorsement of", "endorse"], "avoid": ["from", "director"]}
    ])");
    const auto policy = extract(fields,
                                "COVERAGE CRITERIA: A. THE MEMBER HAS SYMPTOMS OF SLEEP APNEA "
                                "(LOUD SNORING OR WITNESSED APNEAS).\n");
    EXPECT_TRUE(policy["patient"]["value"].is_null()) << policy["patient"].dump();
    const auto memo = extract(fields,
                              "From: Harriet Osei, Director of Field Service Re: Endorsement of "
                              "Callum Ferreira-Nakashima for Regional Service Lead\n");
    EXPECT_EQ(memo["candidate"]["value"], "Callum Ferreira-Nakashima");
    EXPECT_TRUE(typed::personName("Samuel Okafor, MD"));
    EXPECT_FALSE(typed::personName("II. EXCLUSIONS SCREENING OF ASYMPTOMATIC MEMBERS"));
}

TEST(FormValues, APortalExportsSplitNameTickedBoxesAndDateOnlyFields) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "patient.name", "type": "party", "person": true,
       "meaning": ["patient name", "member name", "patient", "member", "name"],
       "avoid": ["provider", "npi"]},
      {"path": "urgency", "type": "enumeration", "meaning": ["urgency", "review type"],
       "values": {"expedited": ["urgent", "expedited"], "standard": ["standard", "routine"]}},
      {"path": "service", "type": "text", "meaning": ["service", "procedure"],
       "avoid": ["place of service"]}
    ])");
    const auto got = extract(fields,
                             "-- Member Information --\n"
                             "Member Last Name .......... HALVORSEN-ADEYEMI\n"
                             "Member First Name ......... ROSALIND\n"
                             "Member MI ................. K\n"
                             "-- Servicing Facility --\n"
                             "Facility Name ............. Lakeview Surgical Hospital\n"
                             "Place of Service .......... 21 - Inpatient Hospital\n"
                             "Review Type ............... [ ] Urgent/Expedited  [X] Standard\n"
                             "Service From Date ......... 01/19/2027\n"
                             "Procedure Code(s) ......... 27130 - Arthroplasty, hip\n");
    EXPECT_EQ(got["patient.name"]["value"], "ROSALIND K HALVORSEN-ADEYEMI");
    EXPECT_EQ(got["urgency"]["value"], "standard");
    EXPECT_EQ(got["service"]["value"], "27130 - Arthroplasty, hip");
    EXPECT_FALSE(typed::personName("Lakeview Surgical Hospital"));
    EXPECT_TRUE(uncheckedBox("[ ] Urgent/Expedited", 12));
    EXPECT_FALSE(uncheckedBox("[x] Urgent/Expedited", 12));
}

TEST(FormValues, ARuleValueThatRanOnIntoTheNextCellKeepsItsOwnCell) {
    nlohmann::json result = {
        {"patient", {{"name", field("ROE, ANN B | SEX: F |", {{"page", 1}}, 0.9)}}}};
    mergeTypedFields(result, {{"patient.name", missingField()}});
    EXPECT_EQ(result["patient"]["name"]["value"], "ROE, ANN B");
}

TEST(FormValues, AClauseSentenceYieldsToTheTypedValueItHolds) {
    nlohmann::json result = {
        {"holdover", field("If Tenant holds over, Tenant shall pay 150% of the Base Rent.",
                           {{"page", 3}}, 0.9)},
        {"name", field("Ada Quill (Ms.) Jones", {{"page", 1}}, 0.9)}};
    mergeTypedFields(result, {{"holdover", field("150%", {{"page", 3}}, 0.6)},
                              {"name", field("Ada Quill", {{"page", 1}}, 0.6)}});
    EXPECT_EQ(result["holdover"]["value"], "150%");
    EXPECT_EQ(result["name"]["value"], "Ada Quill (Ms.) Jones");  // a name with a note
}

TEST(FormValues, ANameThatEndsBeforeAShortCodesLabel) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "patient.name", "type": "party", "person": true,
       "meaning": ["member name", "member"], "avoid": ["provider"]},
      {"path": "patient.date_of_birth", "type": "date", "meaning": ["date of birth", "dob"]},
      {"path": "patient.member_id", "type": "code", "code": "id", "meaning": ["member id"]}
    ])");
    // "Vasquez-Oakes DOB:" reads like "Member ID:", but the name ends before the code.
    const auto got = extract(fields, "Member: Theodora Vasquez-Oakes DOB: 05/23/1969\n");
    EXPECT_EQ(got["patient.name"]["value"], "Theodora Vasquez-Oakes");
    EXPECT_EQ(got["patient.date_of_birth"]["value"], "1969-05-23");
    const auto folded = extract(fields, "Name: Ann Roe Member ID: XY-12345\n");
    EXPECT_EQ(folded["patient.member_id"]["value"], "XY-12345");
}

TEST(FormValues, AParsedTablesColumnNamesStateNoValue) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "requested_service.description", "type": "text",
       "meaning": ["service requested", "service"]}
    ])");
    // A DOCX table as the parser writes it: the first row names the columns the rows label.
    const auto got = extract(fields,
                             "CPT | Service | Units\n"
                             "CPT: 97110 | Service: Therapeutic exercise, each 15 minutes | "
                             "Units: 12\n");
    EXPECT_EQ(got["requested_service.description"]["value"],
              "Therapeutic exercise, each 15 minutes");
}

TEST(FormValues, AMemberNumberPrintedInGroups) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "patient.member_id", "type": "code", "code": "id",
       "meaning": ["member id", "subscriber id"], "avoid": ["npi"]}
    ])");
    const auto got = extract(fields,
                             "Member ID: QHP 0613 2290 07\n"
                             "Subscriber: Ann Roe, subscriber ID QHP 0613 2290 01\n");
    EXPECT_EQ(got["patient.member_id"]["value"], "QHP 0613 2290 07");
    // Three groups of digits are a phone number as often as not.
    EXPECT_TRUE(typed::codes("call 800 555 0161", "id").empty());
}

TEST(FormValues, ARequestsCodesOneALineOrOneARow) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "cpt_codes", "type": "code", "code": "cpt", "list": true,
       "meaning": ["cpt code", "cpt", "hcpcs"]},
      {"path": "icd10_codes", "type": "code", "code": "icd10", "list": true,
       "meaning": ["icd-10", "diagnosis"]}
    ])");
    const auto lines = extract(fields,
                               "APPROVED: knee arthroscopy\n"
                               "CPT 29881-RT meniscectomy, medial\n"
                               "CPT 29877-RT chondroplasty CPT 29880 both menisci\n"
                               "ICD-10: S83.241A\n"
                               "Valid for 90 days from 01/04/2027.\n");
    EXPECT_EQ(lines["cpt_codes"]["value"], nlohmann::json::array({"29881", "29877", "29880"}));
    // A DOCX table as the parser writes it: each row labels its code with the column's name.
    const auto rows = extract(fields,
                              "ICD-10 | Description\n"
                              "ICD-10: F90.0 | Description: ADHD, inattentive\n"
                              "ICD-10: F81.0 | Description: reading disorder\n");
    EXPECT_EQ(rows["icd10_codes"]["value"], nlohmann::json::array({"F90.0", "F81.0"}));
}

TEST(FormValues, ACodeListRunsOnUnderItsLabelAndAfterALabelsRest) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "icd10_codes", "type": "code", "code": "icd10", "list": true,
       "meaning": ["icd-10", "diagnosis"]}
    ])");
    // A typed summary: the label's value goes on over indented lines under it.
    const auto indented = extract(fields,
                                  "ICD-10-CM:     M75.121 (complete tear, right shoulder,\n"
                                  "               not specified as traumatic)\n"
                                  "               M75.41 (impingement, right shoulder)\n"
                                  "Date of surgery: not yet scheduled\n"
                                  "History of E11.9 noted.\n");
    EXPECT_EQ(indented["icd10_codes"]["value"], nlohmann::json::array({"M75.121", "M75.41"}));
    // A DOCX table whose rows label each code "ICD-10-CM".
    const auto rows = extract(fields,
                              "ICD-10-CM | C34.12 - malignant neoplasm of upper lobe\n"
                              "ICD-10-CM | C79.51 - secondary malignant neoplasm of bone\n");
    EXPECT_EQ(rows["icd10_codes"]["value"], nlohmann::json::array({"C34.12", "C79.51"}));
}

TEST(FormValues, APolicysTitleIsTheLineUnderItsKind) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "policy.title", "type": "text",
       "meaning": ["medical policy", "coverage policy", "policy title", "coverage guideline"],
       "avoid": ["policy number"]}
    ])");
    const auto policy = extract(fields,
                                "MEDICAL COVERAGE POLICY\n"
                                "Home Oxygen Concentrators for Chronic Lung Disease\n"
                                "Policy number: ABC-123\n"
                                "Approved by the Medical Policy Committee.\n");
    EXPECT_EQ(policy["policy.title"]["value"],
              "Home Oxygen Concentrators for Chronic Lung Disease");
    const auto guideline = extract(fields,
                                   "Lakeview Health \xE2\x80\x94 Behavioral Health Clinical "
                                   "Coverage Guideline for Commercial and Exchange Plans\n"
                                   "Applied Behavior Analysis for Autism Spectrum Disorder\n"
                                   "Guideline number: LVH-07\n");
    EXPECT_EQ(guideline["policy.title"]["value"],
              "Applied Behavior Analysis for Autism Spectrum Disorder");
    // A sentence under the kind's line is no title.
    EXPECT_FALSE(titleCase("This policy describes when a device is covered"));
}

TEST(FormValues, APriorAuthsProviderServiceAndDateByTheWorkflowsOwnDescriptors) {
    std::ifstream in(DOCINTEL_SOURCE_DIR
                     "/workflows/healthcare/healthcare_prior_auth.workflow.json");
    const auto fields = nlohmann::json::parse(in)["fields"];
    // The referring provider is not the one who requests; a psychologist is a provider.
    const auto request = extract(fields,
                                 "Referring provider: Dana Whitfield, MD, family medicine\n"
                                 "Testing psychologist: Rowan Adebayo-Lind, PsyD\n"
                                 "Therapy sessions: March 3, 2027 and March 10, 2027\n");
    EXPECT_EQ(request["provider.name"]["value"], "Rowan Adebayo-Lind, PsyD");
    EXPECT_EQ(request["requested_service.planned_date"]["value"], "2027-03-03");
    // A drug's request plans its first infusion or dose, not a service date.
    const auto drug = extract(fields,
                              "Date of request: December 2, 2026\n"
                              "Number of doses requested: 6\n"
                              "First infusion date: December 9, 2026\n");
    EXPECT_EQ(drug["requested_service.planned_date"]["value"], "2026-12-09");
    // A determination names the service it approves.
    const auto notice = extract(fields,
                                "Member: Ann Roe\nReview: standard pre-service\n"
                                "APPROVED: lumbar epidural steroid injection at L4-L5\n");
    EXPECT_NE(notice["requested_service.description"]["value"].get<std::string>().find(
                  "epidural steroid injection"),
              std::string::npos)
        << notice["requested_service.description"].dump();
}

TEST(FormValues, AFaxFormsTwoDigitYearsBoxesAfterOptionsAndEmptyLabels) {
    std::ifstream in(DOCINTEL_SOURCE_DIR
                     "/workflows/healthcare/healthcare_prior_auth.workflow.json");
    const auto fields = nlohmann::json::parse(in)["fields"];
    const auto fax = extract(fields,
                             "PINE HOLLOW HEALTH PLAN - UM INTAKE SHEET\n"
                             "MEMBER: DALGLIESH, ORLA  DOB: 11/02/49\n"
                             "ORDERING MD: DR. FENWICK ASARE-LOWE (CARDIOLOGY) ORDERING MD NPI:\n"
                             "SITE: NORTHRIDGE HEART CENTER SITE NPI: 1234567893\n"
                             "DX: I48.91 ATRIAL FIBRILLATION, UNSPEC\n"
                             "I10 ESSENTIAL HYPERTENSION\n"
                             "REVIEW: STAT __ ROUTINE _X_\n"
                             "DATE OF SERVICE: 2/3/27\n");
    EXPECT_EQ(fax["patient.date_of_birth"]["value"], "1949-11-02");
    EXPECT_EQ(fax["requested_service.planned_date"]["value"], "2027-02-03");
    EXPECT_EQ(fax["patient.payer"]["value"], "PINE HOLLOW HEALTH PLAN");
    EXPECT_EQ(fax["provider.name"]["value"], "DR. FENWICK ASARE-LOWE");
    // The site's NPI is not the ordering physician's, who left the box empty.
    EXPECT_TRUE(fax["provider.npi"]["value"].is_null()) << fax["provider.npi"].dump();
    EXPECT_EQ(fax["requested_service.icd10_codes"]["value"],
              nlohmann::json::array({"I48.91", "I10"}))
        << fax["requested_service.icd10_codes"].dump();
    EXPECT_EQ(fax["urgency"]["value"], "standard") << fax["urgency"].dump();
}

TEST(FormValues, TickBoxesBeforeOrAfterTheirOptions) {
    EXPECT_TRUE(uncheckedBox("PRIORITY: STAT __ ROUTINE _X_", 10, 4));
    EXPECT_FALSE(uncheckedBox("PRIORITY: STAT __ ROUTINE _X_", 18, 7));
    EXPECT_TRUE(uncheckedBox("Priority: STAT [ ] Routine [x]", 10, 4));
    // Boxes before their options, after a label of dotted leaders.
    EXPECT_FALSE(uncheckedBox("Review ...... [ ] Expedited  [X] Standard", 33, 8));
    EXPECT_TRUE(uncheckedBox("Review ...... [ ] Expedited  [X] Standard", 18, 9));
}

TEST(FormValues, AValueThatSaysThereIsNoneAndALabelForAnotherSubject) {
    EXPECT_TRUE(statesNoneYet(" Not yet issued; the plan confirmed eligibility by phone"));
    EXPECT_TRUE(statesNoneYet(" | pending"));
    EXPECT_TRUE(statesNoneYet(" N/A"));
    EXPECT_FALSE(statesNoneYet(" NH-4471-02 (pending renewal)"));
    std::ifstream in(DOCINTEL_SOURCE_DIR
                     "/workflows/healthcare/healthcare_prior_auth.workflow.json");
    const auto fields = nlohmann::json::parse(in)["fields"];
    const auto request = extract(fields,
                                 "Member ID: Not yet issued (eligibility call ref ELG-55120)\n"
                                 "Date of surgery: to be determined after approval\n"
                                 "Facility NPI: 1234567893\n");
    EXPECT_TRUE(request["patient.member_id"]["value"].is_null())
        << request["patient.member_id"].dump();
    EXPECT_TRUE(request["requested_service.planned_date"]["value"].is_null());
    EXPECT_TRUE(request["provider.npi"]["value"].is_null()) << request["provider.npi"].dump();
    // A DOCX table whose first row the parser took for a header: every reading of the row
    // that says there is none is none.
    const auto row = extract(fields,
                             "Name | Jonas Ebbesen-Amari\n"
                             "Name: Subscriber ID | Jonas Ebbesen-Amari: Pending. He joined the "
                             "plan on 01/01/2027 and the member card is not printed (ref "
                             "QX-20931).\n");
    EXPECT_TRUE(row["patient.member_id"]["value"].is_null()) << row["patient.member_id"].dump();
}

TEST(FormValues, ATypedFormsRowsTheirCodesOnTheLinesUnderAndAServiceInItsLabel) {
    std::ifstream in(DOCINTEL_SOURCE_DIR
                     "/workflows/healthcare/healthcare_prior_auth.workflow.json");
    const auto fields = nlohmann::json::parse(in)["fields"];
    // A plain-text form as the parser writes its aligned label and value columns.
    const auto form = extract(fields,
                              "Review type: | Standard pre-service\n"
                              "Service under review: Laparoscopic cholecystectomy\n"
                              "CPT: | 47562 (laparoscopic cholecystectomy)\n"
                              "47563 (with cholangiography, if needed)\n"
                              "ICD-10-CM: | K80.10 (calculus of gallbladder with chronic\n"
                              "cholecystitis) K81.1 (chronic cholecystitis)\n"
                              "Date of surgery: | pending approval\n");
    EXPECT_EQ(form["requested_service.cpt_codes"]["value"],
              nlohmann::json::array({"47562", "47563"}));
    EXPECT_EQ(form["requested_service.icd10_codes"]["value"],
              nlohmann::json::array({"K80.10", "K81.1"}));
    EXPECT_EQ(form["requested_service.description"]["value"], "Laparoscopic cholecystectomy");
    EXPECT_TRUE(form["requested_service.planned_date"]["value"].is_null());
}

TEST(FormValues, ASectionsHeadingSaysWhoseNameItsRowsGive) {
    std::ifstream in(DOCINTEL_SOURCE_DIR
                     "/workflows/healthcare/healthcare_prior_auth.workflow.json");
    const auto fields = nlohmann::json::parse(in)["fields"];
    // A DOCX form of two-column tables, one under each heading; every chunk opens at its
    // heading, and the parser took each table's first row for a header.
    std::vector<DocText> parts;
    parts.push_back(test::onePassageDoc("SPECIALTY DRUG REQUEST\n"));
    parts.push_back(test::onePassageDoc(
        "Member\nName | Ines Okafor-Brandt\nName: Plan | Ines Okafor-Brandt: Juniper Health\n"));
    parts.push_back(
        test::onePassageDoc("Prescribing physician\nName | Tomas Ferreira-Holm, MD\n"
                            "Name: NPI | Tomas Ferreira-Holm, MD: 1234567893\n"));
    parts.push_back(
        test::onePassageDoc("Medication requested\nFrom: Juniper Infusion Services\n"
                            "Drug | adalimumab 40 mg subcutaneous every 2 weeks\n"));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        parts[i].passages[0].chunk_id = "c" + std::to_string(i + 1);
    }
    const DocText doc = joined(std::move(parts));
    const auto units = fieldUnits(doc);
    nlohmann::json got = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fields)) {
        got[spec.path] = extractField(spec, doc, units, {});
    }
    EXPECT_EQ(got["patient.name"]["value"], "Ines Okafor-Brandt");
    EXPECT_EQ(got["provider.name"]["value"], "Tomas Ferreira-Holm, MD");
    // A letter's sender line names no service.
    EXPECT_NE(got["requested_service.description"]["value"].dump().find("adalimumab"),
              std::string::npos)
        << got["requested_service.description"].dump();
}

}  // namespace
}  // namespace docintel::plugins
