// plugins/shared/profile_facts.h, amount_schedule.h and the prose reading of list fields: what a
// document states without a label — the person a résumé is headed with, the role held now, a
// rent that rises by a schedule, problems named in a running sentence — and the message header
// that names an e-mail's sender, not a form's payer.

#include <gtest/gtest.h>

#include "one_passage_doc.h"

#include "shared/amount_schedule.h"
#include "shared/field_extractor.h"
#include "shared/profile_facts.h"

namespace docintel::plugins {
namespace {

DocText docOf(const std::string& text) { return test::onePassageDoc(text); }

std::string personOf(const std::string& text) {
    const auto p = headerPerson(docOf(text));
    return p ? p->value : "";
}

TEST(ProfileFacts, TheNameADocumentIsHeadedWithBeforeItsContactDetails) {
    EXPECT_EQ(personOf("Priya Raman\nSeattle, WA · priya.raman@example.com"), "Priya Raman");
    // A parser folded the contact line into the name's.
    EXPECT_EQ(personOf("Priya Raman Seattle, WA · priya.raman@example.com"), "Priya Raman");
    EXPECT_EQ(personOf("Ann Roe San Diego, CA | (619) 555-0100"), "Ann Roe");
    EXPECT_EQ(personOf("JOHN ROE-SMITH Phoenix, Arizona | (602) 555-0102"), "JOHN ROE-SMITH");
    EXPECT_EQ(personOf("# JANE ROE, RN, BSN\njane.roe@example.org | (614) 555-0173"), "JANE ROE");
    // A posting's title line, a company and a lone word name no person.
    EXPECT_EQ(personOf("ACME FULFILMENT - INTERNAL JOB POSTING IM-2025-07\nTITLE: PLANNER"), "");
    EXPECT_EQ(personOf("Acme Analytics LLC\n225 Main Street, Chicago, IL 60606"), "");
    EXPECT_EQ(personOf("Resume\nann@example.com"), "");
}

TEST(ProfileFacts, TheRoleHeldNow) {
    auto role = [](const std::string& text) {
        const auto r = currentRole(docOf(text));
        return r ? r->first.value + " @ " + r->second : "";
    };
    EXPECT_EQ(role("Experience\nSenior Data Engineer — Northwind Logistics, Seattle, WA\n"
                   "*March 2021 – present*\n- Built pipelines.\n"
                   "Data Engineer — Copperleaf, Portland, OR\n*June 2017 – February 2021*"),
              "Senior Data Engineer @ Northwind Logistics");
    EXPECT_EQ(
        role("Accounts Payable Specialist, Sonoran Supply Co., Tempe, AZ   Jan 2022 - present"),
        "Accounts Payable Specialist @ Sonoran Supply Co.");
    EXPECT_EQ(role("Registered Nurse, Cardiac Unit - Valley Medical Center (since August 2021)"),
              "Registered Nurse, Cardiac Unit @ Valley Medical Center");
    // A line break put back before " - " cut the title from its employer.
    EXPECT_EQ(role("Registered Nurse, Cardiac Unit\n- Valley Medical Center (since August 2021)"),
              "Registered Nurse, Cardiac Unit @ Valley Medical Center");
    EXPECT_EQ(role("Dear Hiring Manager,\nI am currently a UX Designer at Fernleaf Health, where"),
              "UX Designer @ Fernleaf Health");
    EXPECT_EQ(role("Data Analyst — Evergreen, Tacoma | July 2019 – June 2023"), "");
}

TEST(ProfileFacts, TheNameWithASendersAddress) {
    const auto doc = docOf("From: Ingrid Solberg-Achebe <ingrid.sa@corvantis.example>\nTo: HR\n");
    const auto sender = nameWithAddress(doc, "ingrid.sa@corvantis.example");
    ASSERT_TRUE(sender.has_value());
    EXPECT_EQ(sender->value, "Ingrid Solberg-Achebe");
    EXPECT_FALSE(nameWithAddress(doc, "someone@else.example").has_value());
    // "currently a <Title>" without "I am".
    const auto role =
        currentRole(docOf("I endorse Callum Roe, currently a Field Service "
                          "Engineer II on my team."));
    ASSERT_TRUE(role.has_value());
    EXPECT_EQ(role->first.value, "Field Service Engineer II");
}

TEST(ProfileFacts, AnUpperCaseNameEndsWhereTitleCaseWordsBegin) {
    const auto found = typed::names("RUAIRI CASTELLANOS-OBI Phoenix, Arizona");
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front().value, "RUAIRI CASTELLANOS-OBI");
    EXPECT_EQ(typed::names("HARBORVIEW PROPERTIES LLC").front().value, "HARBORVIEW PROPERTIES LLC");
}

TEST(AmountSchedule, ARentThatRisesByFixedSteps) {
    const auto table = amountSchedule(
        docOf("## 2. RENT SCHEDULE\n\n| Period | Monthly Base Rent | Annual Base Rent |\n"
              "|---|---|---|\n| 08/15/2025 – 08/14/2026 | $4,250.00 | $51,000.00 |\n"
              "| 08/15/2026 – 08/14/2027 | $4,420.00 | $53,040.00 |\n\nRent is due monthly."),
        "rent");
    EXPECT_EQ(table["value"],
              "fixed rent schedule: $4,250.00 (08/15/2025 – 08/14/2026); $4,420.00 (08/15/2026 "
              "– 08/14/2027)");
    EXPECT_EQ(table["source"]["page"], 1);
    const auto prose = amountSchedule(
        docOf("Base Rent shall be $3,000.00 per month for Lease Year 1, $3,090.00 per month for "
              "Lease Year 2 and $3,183.00 per month for Lease Year 3."),
        "rent");
    EXPECT_EQ(prose["value"],
              "fixed rent schedule: $3,000.00 (Lease Year 1); $3,090.00 (Lease Year 2); $3,183.00 "
              "(Lease Year 3)");
    // The same rent every year, or amounts of something else, are no escalation.
    EXPECT_TRUE(amountSchedule(docOf("Rent\nYear 1: $4,000.00\nYear 2: $4,000.00"), "rent")["value"]
                    .is_null());
    EXPECT_TRUE(
        amountSchedule(docOf("Allowance\nYear 1: $1,000.00\nYear 2: $2,000.00"), "rent")["value"]
            .is_null());
}

TEST(FieldLists, ItemsNamedInARunningSentenceWhenNoSectionNamesThem) {
    FieldSpec spec;
    spec.path = "problems";
    spec.type = "list";
    spec.key = "description";
    spec.meaning = {"problem list", "assessment"};
    spec.avoid = {"family history"};
    spec.prose = {"history of", "known"};
    const auto list = extractList(
        spec, docOf("Patient reached by phone. Denies vomiting. Known type 2 diabetes and "
                    "hypertension. Allergy list reviewed: none known. Family history of gout."));
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0]["value"]["description"], "type 2 diabetes");
    EXPECT_EQ(list[1]["value"]["description"], "hypertension");
    // A section that names the list wins over sentences.
    const auto section = extractList(spec, docOf("Assessment: Asthma, stable.\nKnown gout."));
    ASSERT_EQ(section.size(), 1u);
    EXPECT_EQ(section[0]["value"]["description"], "Asthma, stable");
}

TEST(FieldUnits, AMessageHeaderNamesItsSender) {
    EXPECT_TRUE(isMessageHeader("From: Ann Roe <ann@example.net>"));
    EXPECT_TRUE(isMessageHeader("Subject: My 2024 tax documents"));
    EXPECT_FALSE(isMessageHeader("W-2 from Lumina Group - box 1 wages $64,980.00"));
}

}  // namespace
}  // namespace docintel::plugins
