// Request and rental forms as the typed extractor reads them with the workflows' own field
// descriptors (plugins/shared/form_marks.h, typed_values.h, field_units.h, field_meaning.h,
// code_lists.h): blanks filled in between underscores, clinicians' chained credentials, a name
// written last name first, a label a form answers with tick boxes, a "Name:" row under another
// person's heading, a caption over tick boxes, a heading that is the field's phrase alone and
// codes numbered under their label; and leases' co-tenants, a post office box for notices, a rent
// per square foot beside the annual rent, a recital's date and a denied right's exceptions.

#include <gtest/gtest.h>

#include "workflow_fields.h"

namespace docintel::plugins {
namespace {

using test::fieldsOf;
using test::values;

nlohmann::json extract(const nlohmann::json& fields, const std::string& text) {
    DocText doc = test::onePassageDoc(text);
    fillInBlanks(doc.text);
    const auto units = fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fields)) {
        if (spec.type == "list") continue;
        out[spec.path] = extractField(spec, doc, units, {});
    }
    return out;
}

TEST(FormValues, FilledInBlanksReadAsTheirValuesAndTheTextKeepsItsLength) {
    std::string text =
        "between __Mara Quell__ (\"Owner\") and _ Tobin Ash__ (\"Resident\"). Rent $__875.00__ "
        "per month from __04/01/2027__.\nURGENT __ ROUTINE _X_ file_name_v2\n";
    const std::size_t size = text.size();
    fillInBlanks(text);
    EXPECT_EQ(text.size(), size);
    EXPECT_NE(text.find("between Mara Quell     (\"Owner\")"), std::string::npos) << text;
    EXPECT_NE(text.find("and Tobin Ash     (\"Resident\")"), std::string::npos) << text;
    EXPECT_NE(text.find("Rent $875.00     per month from 04/01/2027    ."), std::string::npos)
        << text;
    // A tick mark between underscores, an empty blank and a name with underscores stay.
    EXPECT_NE(text.find("URGENT __ ROUTINE _X_ file_name_v2"), std::string::npos) << text;
}

TEST(FormValues, ARentalFormsBlanksGiveItsTermsAndItsOwnerIsTheLandlord) {
    const auto got = extract(
        fieldsOf("lease/lease_intelligence.workflow.json"),
        "1. PARTIES. This agreement is between __Mara Quell__ (\"Owner\") and __Tobin Ash__ "
        "(\"Resident\").\n2. DWELLING. Owner rents to Resident the dwelling at __41 Lark Lane, "
        "Unit 2, Eugene, Oregon 97401__.\n3. TERM. The term begins on __04/01/2027__ and ends on "
        "__03/31/2028__.\n4. RENT. Resident will pay $__875.00__ per month.\n");
    EXPECT_EQ(got["abstract.parties"]["value"], "Mara Quell (Landlord); Tobin Ash (Tenant)");
    EXPECT_EQ(got["abstract.premises"]["value"], "41 Lark Lane, Unit 2, Eugene, Oregon 97401");
    EXPECT_EQ(got["abstract.commencement"]["value"], "2027-04-01");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2028-03-31");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$875.00 per month");
}

TEST(FormValues, CredentialsInitialsAndANameWrittenLastNameFirst) {
    EXPECT_EQ(values(typed::names("Therapist: Lena Park, MS, CCC-SLP NPI")),
              (std::vector<std::string>{"Therapist", "Lena Park, MS, CCC-SLP", "NPI"}));
    EXPECT_EQ(values(typed::names("Ann R. Roe-Lee")), std::vector<std::string>{"Ann R. Roe-Lee"});
    // "MS" before a ZIP code is a state.
    EXPECT_EQ(values(typed::names("Jackson, MS 39201")), std::vector<std::string>{"Jackson"});
    EXPECT_TRUE(typed::invertedName("Quill-Roe, Ada May"));
    EXPECT_FALSE(typed::invertedName("Ada Quill, MD"));
    EXPECT_TRUE(typed::personName("Quill-Roe, Ada May"));
}

TEST(FormValues, ARequisitionsNameTickedAnswersCaptionAndNumberedCodes) {
    const auto got = extract(fieldsOf("healthcare/healthcare_prior_auth.workflow.json"),
                             "Patient name (last, first, middle): Quill-Roe, Ada May\n"
                             "Patient: no prior testing.\n"
                             "Ordering physician: Dr. Omar Lind, MD\n"
                             "B. Test selection (tick one)\n"
                             "[X] Factor V Leiden genotyping\n"
                             "[ ] Prothrombin gene analysis\n"
                             "Prior authorization required by the payer: [X] Yes [ ] No\n"
                             "Primary insurance: Birchwood Health Plan\n"
                             "Diagnosis codes (ICD-10-CM), in order:\n"
                             "1. Z83.2 Family history of blood disorder\n"
                             "2. I82.409 Deep vein thrombosis\n");
    EXPECT_EQ(got["patient.name"]["value"], "Quill-Roe, Ada May");
    EXPECT_EQ(got["patient.payer"]["value"], "Birchwood Health Plan");
    EXPECT_EQ(got["requested_service.description"]["value"], "[X] Factor V Leiden genotyping");
    EXPECT_EQ(got["requested_service.icd10_codes"]["value"], (nlohmann::json{"Z83.2", "I82.409"}));
}

TEST(FormValues, AnIntakeRecordsCallerIsNeitherThePatientNorTheProvider) {
    const auto got = extract(fieldsOf("healthcare/healthcare_prior_auth.workflow.json"),
                             "CALLER\nName: Pia Sorensen, scheduler\nLine: provider services\n\n"
                             "MEMBER\nMember: Ada R. Quill-Roe\nChild: \n\n"
                             "ORDERING PHYSICIAN\nDr. Omar Lind, neurology, NPI 1234567893\n\n"
                             "EXAM REQUESTED\nCPT 70553 - MRI brain without and with contrast\n");
    EXPECT_EQ(got["patient.name"]["value"], "Ada R. Quill-Roe");
    EXPECT_EQ(got["provider.name"]["value"], "Dr. Omar Lind");
    EXPECT_EQ(got["requested_service.description"]["value"],
              "CPT 70553 - MRI brain without and with contrast");
}

TEST(FormValues, AChildsFormItsStartDateAndAPendingMemberId) {
    const auto got = extract(fieldsOf("healthcare/healthcare_prior_auth.workflow.json"),
                             "Child: Nico Fairweather-Ode DOB: 02/03/2021\n"
                             "Member ID: pending (application APP-2026-1)\n"
                             "Requesting therapist: Lena Park, MS, CCC-SLP NPI: 1234567893\n"
                             "Start date: 02/01/2027\n");
    EXPECT_EQ(got["patient.name"]["value"], "Nico Fairweather-Ode");
    EXPECT_TRUE(got["patient.member_id"]["value"].is_null()) << got["patient.member_id"].dump();
    EXPECT_EQ(got["provider.name"]["value"], "Lena Park, MS, CCC-SLP");
    EXPECT_EQ(got["requested_service.planned_date"]["value"], "2027-02-01");
}

TEST(FormValues, CoTenantsAPostOfficeBoxAndARentPerSquareFoot) {
    const auto got = extract(
        fieldsOf("lease/lease_intelligence.workflow.json"),
        "1. PARTIES. This agreement is between __Mara Quell__ (\"Owner\") and __Tobin Ash and "
        "Lise Ash__ (\"Resident\").\n2. NOTICES to Owner: __Mara Quell, PO Box 118, Bend, Oregon "
        "97701__.\n| Space | Suite 210, Fir Court, 80 Tenth Avenue South, Bend, Oregon 97702 |\n"
        "| Annual base rent | $28.00 per RSF ($84,000.00 per year) |\n");
    EXPECT_EQ(got["abstract.parties"]["value"],
              "Mara Quell (Landlord); Tobin Ash and Lise Ash (Tenant)");
    EXPECT_EQ(got["abstract.notices"]["value"], "PO Box 118, Bend, Oregon 97701");
    EXPECT_EQ(got["abstract.premises"]["value"],
              "Suite 210, Fir Court, 80 Tenth Avenue South, Bend, Oregon 97702");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$84,000.00 per year");
}

TEST(FormValues, ARecitalsDateAndARightDeniedButForCasualty) {
    const auto got = extract(
        fieldsOf("lease/lease_intelligence.workflow.json"),
        "WHEREAS, the space was formerly leased to Kiln Works under a lease that expired on "
        "May 31, 2027;\n2. TERM. The term of this Lease shall be three (3) years, beginning on "
        "the 1st day of July, 2027 and ending at midnight on the 30th day of June, 2030.\n"
        "9. TERMINATION. Tenant has no right to terminate this Lease before the end of the term "
        "for any reason other than casualty or condemnation as provided in Section 12.\n");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2030-06-30");
    EXPECT_TRUE(got["abstract.termination_rights"]["value"].is_null())
        << got["abstract.termination_rights"].dump();
    // An exception that is a right of its own still grants one.
    EXPECT_FALSE(deniedRight("tenant has no right to terminate unless landlord fails to deliver.",
                             std::string("tenant has no right to ").size()));
    EXPECT_TRUE(deniedRight("tenant has no right to terminate other than for casualty.",
                            std::string("tenant has no right to ").size()));
}

}  // namespace
}  // namespace docintel::plugins
