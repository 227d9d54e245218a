// plugins/shared/field_extractor.h, field_units.h and typed_values.h on the lease forms our
// samples do not use: a ground lease's "Ground Lessor", a residential lease's "Residents", an
// estoppel certificate's "The undersigned, X ("Tenant")", a renewal the lease denies, run-in
// "Section 7.01 Caption." clauses, clause numbers beside amounts, several suites, an "Attn:"
// line inside a notice address; an abstract's table of numbered terms, a word processor's table
// whose first row is data, a right denied or struck, a letter's subject line, a page's footer
// inside an article, a notice phrase with the landlord's other names.

#include <gtest/gtest.h>

#include "one_passage_doc.h"

#include "shared/field_extractor.h"

namespace docintel::plugins {
namespace {

nlohmann::json extract(const nlohmann::json& fields, const std::string& text) {
    DocText doc = test::onePassageDoc(text);
    doc.text += "\n";
    const auto units = fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fields)) {
        out[spec.path] = extractField(spec, doc, units, {});
    }
    return out;
}

const auto kParties = nlohmann::json::parse(R"([
  {"path": "parties", "type": "party", "meaning": ["parties", "landlord", "tenant"],
   "roles": ["landlord", "tenant"],
   "role_words": {"landlord": ["lessor", "ground lessor"],
                  "tenant": ["lessee", "ground lessee", "residents"]}}
])");

// A lease's maintenance clause: a text field read from the clauses of its article.
const auto kMaintenance = nlohmann::json::parse(R"([
  {"path": "maintenance", "type": "text",
   "meaning": ["maintenance and repairs", "maintain", "repairs", "maintenance", "repair"]}
])");

TEST(LeaseForms, APartyNamedByAnotherWordForItsRole) {
    EXPECT_EQ(extract(kParties,
                      "THIS GROUND LEASE is made by and between HARLOW LAND TRUST COMPANY, a "
                      "Nebraska corporation (\"Ground Lessor\"), and BLUESTEM INN HOSPITALITY, "
                      "LLC, a Delaware limited liability company (\"Ground Lessee\").\n"
                      "Notices to Ground Lessor: Harlow Land Trust Company, 1450 Farnam "
                      "Street.\n")["parties"]["value"],
              "HARLOW LAND TRUST COMPANY (Landlord); BLUESTEM INN HOSPITALITY, LLC (Tenant)");
    EXPECT_EQ(extract(kParties,
                      "Landlord: Ines Marlow (\"we\", \"us\")\n"
                      "Residents: Tomas Renner and Ada Renner (\"you\")\n")["parties"]["value"],
              "Ines Marlow (Landlord); Tomas Renner and Ada Renner (Tenant)");
}

TEST(LeaseForms, ASentencesOpeningWordIsNoParty) {
    EXPECT_EQ(extract(kParties,
                      "And to: Ridgeway Arcade Holdings LP (\"Landlord\")\n"
                      "The undersigned, Fairmount Family Dental, P.C. (\"Tenant\"), "
                      "certifies to Lender and Landlord as follows:\n")["parties"]["value"],
              "Ridgeway Arcade Holdings LP (Landlord); Fairmount Family Dental, P.C. "
              "(Tenant)");
}

TEST(LeaseForms, AnArticlesClausesAreReadTogether) {
    const auto got = extract(kMaintenance,
                             "ARTICLE 7 - REPAIRS AND MAINTENANCE\n"
                             "7.1 Tenant. Tenant shall keep the storefront and the loading dock in "
                             "good repair.\n"
                             "7.2 Landlord. Landlord shall repair the roof and the structure.\n"
                             "ARTICLE 8 - INSURANCE\n"
                             "8.1 Tenant shall carry liability insurance.\n");
    // Each party's clause, and nothing of the next article.
    EXPECT_EQ(got["maintenance"]["value"],
              "7.1 Tenant. Tenant shall keep the storefront and the loading dock in good repair. "
              "7.2 Landlord. Landlord shall repair the roof and the structure.");
}

TEST(LeaseForms, AClauseIsReadWhole) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "operating_costs", "type": "text",
       "meaning": ["operating expenses", "pro rata share", "taxes"]}
    ])");
    // The share is stated in the clause's second sentence.
    const auto got = extract(fields,
                             "ARTICLE 4 - ADDITIONAL RENT\n"
                             "4.1 Charges. Tenant shall pay its Pro Rata Share of Real Estate "
                             "Taxes. Tenant's Pro Rata Share is three percent (3%).\n");
    EXPECT_EQ(got["operating_costs"]["value"],
              "4.1 Charges. Tenant shall pay its Pro Rata Share of Real Estate Taxes. Tenant's "
              "Pro Rata Share is three percent (3%).");
}

TEST(LeaseForms, ATerminationRightTheLeaseDeniesIsNone) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "termination", "type": "text",
       "meaning": ["early termination", "right to terminate", "terminate", "termination"]}
    ])");
    // The phrase itself names the right ("right to terminate") that "has no" denies.
    EXPECT_TRUE(extract(fields,
                        "ARTICLE 9 - EXTENSION OPTION\n"
                        "9.2 Tenant has no right to terminate this Lease before the Expiration "
                        "Date.\n")["termination"]["value"]
                    .is_null());
    EXPECT_FALSE(
        extract(fields, "9.2 Tenant has the right to terminate this Lease on 90 days' notice.\n")
            ["termination"]["value"]
                .is_null());
}

TEST(LeaseForms, ARenewalTheLeaseDeniesIsNone) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "renewal", "type": "text", "meaning": ["option to renew", "renew", "extend"]}
    ])");
    EXPECT_TRUE(
        extract(
            fields,
            "This lease does not give you a right to renew it. If we want to offer "
            "you a new lease, we will tell you 60 days before the end date.\n")["renewal"]["value"]
            .is_null());
    EXPECT_TRUE(deniesAnyRight("tenant has no option to extend the term."));
    // A right granted on a condition is stated, not denied.
    EXPECT_FALSE(deniesAnyRight("tenant has no right to assign without landlord's consent."));
    EXPECT_EQ(
        extract(
            fields,
            "Tenant has one option to extend the term for five (5) years.\n")["renewal"]["value"],
        "Tenant has one option to extend the term for five (5) years.");
}

TEST(LeaseForms, ARunInSectionCaptionStaysWithItsSentence) {
    const std::string line =
        "Section 4.01 Permitted Use. The Land shall be used for a hotel of not fewer than 120 "
        "guest rooms and for no other purpose. Section 7.01 Assignment and Subletting. Ground "
        "Lessee may assign this Lease to an entity that owns at least five (5) hotels; any other "
        "assignment requires Ground Lessor's prior written consent, which shall not be "
        "unreasonably withheld.";
    std::vector<std::string> got;
    for (const auto& [s, n] : sentences(line)) got.push_back(line.substr(s, n));
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[1].rfind("Section 7.01 Assignment and Subletting. Ground Lessee may", 0), 0u);
}

TEST(LeaseForms, AClauseNumberIsNoAmountAndSuitesAndAttentionLinesKeepTheAddress) {
    EXPECT_TRUE(typed::money("adjusted under Section 3.02 of this Lease").empty());
    EXPECT_EQ(typed::money("paid: 3,906.10").size(), 1u);
    ASSERT_EQ(typed::addresses("Lease of 740 Liberty Avenue, Suites 2 and 3, Pittsburgh, PA 15222")
                  .size(),
              1u);
    EXPECT_EQ(typed::addresses("Lease of 740 Liberty Avenue, Suites 2 and 3, Pittsburgh, PA 15222")
                  .front()
                  .value,
              "740 Liberty Avenue, Suites 2 and 3, Pittsburgh, PA 15222");
    const auto fields = nlohmann::json::parse(R"([
      {"path": "notices", "type": "address", "meaning": ["notices", "notices to landlord"]}
    ])");
    EXPECT_EQ(
        extract(fields,
                "Notices to Ground Lessor: Harlow Land Trust Company, Attn: Real Estate "
                "Trust Officer, 300 Dodge Street, Suite 900, Omaha, Nebraska 68102.\n")["notices"]
                                                                                       ["value"],
        "300 Dodge Street, Suite 900, Omaha, Nebraska 68102");
}

TEST(LeaseForms, AnAbstractTablesRowIsReadAsItsTermAndValue) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "parties", "type": "party", "meaning": ["parties", "landlord", "tenant"],
       "roles": ["landlord", "tenant"]},
      {"path": "base_rent", "type": "money", "meaning": ["base rent", "rent"]},
      {"path": "termination", "type": "text", "meaning": ["early termination", "terminate"]}
    ])");
    // As a Markdown parser writes a table of numbered rows with a reference column.
    const auto got = extract(fields,
                             "No. | Item | Summary | Lease ref.\n"
                             "No.: 1 | Item: Landlord | Summary: Fenwick Quarry Estates, LLC | "
                             "Lease ref.: Recitals\n"
                             "No.: 2 | Item: Tenant | Summary: Lowry Orchard Vets, PC | Lease "
                             "ref.: Recitals\n"
                             "No.: 3 | Item: Base Rent (Lease Year 1) | Summary: $61,200.00 per "
                             "year | Lease ref.: 5.1\n"
                             "No.: 4 | Item: Parking rent | Summary: $450.00 | Lease ref.: 5.6\n"
                             "No.: 5 | Item: Early termination | Summary: None | Lease ref.: -\n");
    EXPECT_EQ(got["parties"]["value"],
              "Fenwick Quarry Estates, LLC (Landlord); Lowry Orchard Vets, PC (Tenant)");
    // "Base Rent (Lease Year 1):" is a label with a note; "None" says there is no right.
    EXPECT_EQ(got["base_rent"]["value"], "$61,200.00 per year");
    EXPECT_TRUE(got["termination"]["value"].is_null());
    // The same table in pipes.
    const auto piped = extract(fields,
                               "| # | Item | Summary |\n|---|---|---|\n"
                               "| 1 | Landlord | Fenwick Quarry Estates, LLC |\n"
                               "| 2 | Tenant | Lowry Orchard Vets, PC |\n");
    EXPECT_EQ(piped["parties"]["value"],
              "Fenwick Quarry Estates, LLC (Landlord); Lowry Orchard Vets, PC (Tenant)");
}

TEST(LeaseForms, OnlyANumberedRowReadsAsItsTermAndValue) {
    EXPECT_EQ(labelledRow({"4", "Premises", "Suite 140", "1.1"}), "Premises: Suite 140");
    EXPECT_EQ(labelledRow({"No. 2", "Tenant", "Lowry Orchard Vets, PC"}),
              "Tenant: Lowry Orchard Vets, PC");
    // Columns without a row number are named by their headers, not by the first cell.
    EXPECT_EQ(labelledRow({"Dividend income", "1099-DIV", "1,204.16"}), "");
    EXPECT_EQ(labelledRow({"1", "2", "Wages", "85,000.00"}), "");
}

TEST(LeaseForms, ATableWhoseFirstRowIsDataLendsNoLabels) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "termination", "type": "text", "meaning": ["break option", "break date"]}
    ])");
    // A word processor's two-column particulars: the parser took the first row for a header
    // and prefixed every later cell with it.
    const auto got = extract(
        fields,
        "Property | the ground floor shop known as 12 Tanner Row, York, with the yard behind it\n"
        "Property: Break Date | the ground floor shop known as 12 Tanner Row, York, with the yard "
        "behind it: 30 June 2031\n"
        "6. BREAK OPTION\n"
        "6.1 The Tenant may end this Lease on the Break Date by giving at least six months' "
        "written notice.\n");
    EXPECT_EQ(got["termination"]["value"],
              "6.1 The Tenant may end this Lease on the Break Date by giving at least six months' "
              "written notice.");
}

TEST(LeaseForms, ADeniedOrStruckRightOutweighsAPassingMention) {
    const auto renewal = nlohmann::json::parse(R"([
      {"path": "renewal", "type": "text",
       "meaning": ["option to renew", "renewal", "renew", "extension", "extend"]}
    ])");
    EXPECT_TRUE(extract(renewal,
                        "1.2 \"Term\" includes any extension of it by operation of law.\n"
                        "8. NO RENEWAL\n"
                        "8.1 The Tenant has no right to renew this Lease or to extend the "
                        "Term.\n")["renewal"]["value"]
                    .is_null());
    const auto termination = nlohmann::json::parse(R"([
      {"path": "termination", "type": "text",
       "meaning": ["early termination", "terminate", "termination"]}
    ])");
    EXPECT_TRUE(extract(termination,
                        "4. Termination. The early termination right in Section 19 of the Lease "
                        "is hereby deleted for the extended term.\n")["termination"]["value"]
                    .is_null());
    // A condition that names a removal is no striking of the right.
    EXPECT_FALSE(extract(termination,
                         "Landlord may terminate this Lease if the signage is removed without "
                         "consent.\n")["termination"]["value"]
                     .is_null());
    // An address is no right: "no option to purchase the Premises" leaves the Premises stated.
    const auto premises = nlohmann::json::parse(R"([
      {"path": "premises", "type": "address", "meaning": ["premises", "re:"]}
    ])");
    EXPECT_EQ(extract(premises,
                      "Re: Lease of 77 Foundry Row, Suite 4, Lowell, MA 01852 (the \"Premises\")\n"
                      "Tenant has no option to purchase the Premises.\n")["premises"]["value"],
              "77 Foundry Row, Suite 4, Lowell, MA 01852");
}

TEST(LeaseForms, ALettersSubjectLineNamesThePremisesOnAnyStreetKind) {
    EXPECT_EQ(typed::addresses("at 310 Old Canton Pike, Dayton, Ohio 45402").front().value,
              "310 Old Canton Pike, Dayton, Ohio 45402");
    const auto premises = nlohmann::json::parse(R"([
      {"path": "premises", "type": "address", "meaning": ["premises", "re:"]}
    ])");
    EXPECT_EQ(extract(premises,
                      "MERIDEN YARD LLC\n"
                      "9 Harbor Crescent, Unit 1, Salem, MA 01970\n"
                      "Re: Extension of Lease - Suite 12, 480 Mill Pike, Salem, MA 01970\n"
                      "This letter extends the Lease for two years.\n")["premises"]["value"],
              "Suite 12, 480 Mill Pike, Salem, MA 01970");
}

TEST(LeaseForms, APagesFooterDoesNotCutAnArticle) {
    const auto got = extract(kMaintenance,
                             "ARTICLE 4 - BUILDING, MAINTENANCE AND REPAIRS\n"
                             "Section 4.01 Building. Lessee shall build a warehouse by 2028.\n"
                             "Page 3 of 7\n"
                             "Section 4.02 Upkeep. Lessee shall keep the roofs and the structure "
                             "in good repair. Lessor has no duty to repair anything.\n"
                             "ARTICLE 5 - INSURANCE\n");
    // The footer is no clause, and the clause's second sentence stays with it.
    EXPECT_EQ(got["maintenance"]["value"],
              "Section 4.01 Building. Lessee shall build a warehouse by 2028. Section 4.02 Upkeep. "
              "Lessee shall keep the roofs and the structure in good repair. Lessor has no duty to "
              "repair anything.");
}

TEST(LeaseForms, APhraseThatNamesARoleReadsWithTheRolesOtherWords) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "notices", "type": "address", "meaning": ["notices", "notices to landlord"],
       "role_words": {"landlord": ["lessor", "head lessor"]}}
    ])");
    EXPECT_EQ(fieldSpecs(fields).front().meaning,
              (std::vector<std::string>{"notices", "notices to landlord", "notices to lessor",
                                        "notices to head lessor"}));
    EXPECT_EQ(
        extract(fields,
                "Notices to Head Lessor: Ambrose Estates Ltd, Attn: Company Secretary, "
                "40 King Street, Suite 3, Hull, MA 02045.\n"
                "Notices to Lessee: Nettle Foods Inc, 12 Mill Lane, Hull, MA 02045.\n")["notices"]
                                                                                       ["value"],
        "40 King Street, Suite 3, Hull, MA 02045");
}

TEST(LeaseForms, AUnitOfTheBuildingKeepsTheUnitBeforeTheStreet) {
    EXPECT_EQ(typed::addresses("Premises: Bay 4 and Unit C of the Building, 55 Dock Road, Tacoma, "
                               "Washington 98421")
                  .front()
                  .value,
              "Unit C, 55 Dock Road, Tacoma, Washington 98421");
}

}  // namespace
}  // namespace docintel::plugins
