// The typed extractor with the workflows' own field descriptors on forms of other kinds and
// countries than our samples': a storage licence in its own words (licensor, licence period,
// licence fee), an Australian reference schedule (Terminating Date, Further Term, a bank
// guarantee, "Level 2," before the street, a state and a four-digit postcode), a student lease
// whose term "begins ... and ends" and whose rent is a total paid in monthly instalments, numbered
// DOCX headings; request forms with a yes/no tick question, a capitals heading with a note,
// chained credentials with a slash, a role written like a name and a folded "Name: ... DOB:"
// line; a nursing note whose labels OCR folded into one line and a section that was not
// reviewed; an English tenancy in pounds, a billboard site on a numbered highway, a co-working
// membership's words, names written last name first before another field; a marina slip, a
// solar ground lease and a guaranty that recites its lease; a code table and a vitals table
// that OCR left as lines, a member's own appeal letter, a letter addressed to the plan, a
// clause headed "LAW.", a school nurse's record, a flattened discharge medication table.

#include <gtest/gtest.h>

#include <map>

#include "workflow_fields.h"

#include "shared/code_lists.h"

namespace docintel::plugins {
namespace {

using test::extract;
using test::kClinical;
using test::kLease;
using test::kPriorAuth;
using test::values;

std::vector<std::string> listed(const nlohmann::json& field, const std::string& key) {
    std::vector<std::string> out;
    for (const auto& item : field["value"]) out.push_back(item["value"][key].get<std::string>());
    return out;
}

TEST(OtherForms, AddressesOfOtherCountriesAndAUnitNamedFirst) {
    auto addresses = [](const std::string& text) {
        std::vector<std::string> out;
        for (const auto& f : typed::addresses(text)) out.push_back(f.value.get<std::string>());
        return out;
    };
    EXPECT_EQ(
        addresses("Premises: Shop 4, Saltbush Arcade, 12 Wattle Parade, Glenelg SA 5045 "
                  "(about 60 square metres)"),
        std::vector<std::string>{"Shop 4, Saltbush Arcade, 12 Wattle Parade, Glenelg SA 5045"});
    EXPECT_EQ(addresses("Notices: Level 2, 80 King William Street, Adelaide SA 5000"),
              std::vector<std::string>{"Level 2, 80 King William Street, Adelaide SA 5000"});
    EXPECT_EQ(addresses("at 7 Mill Close, Harrowby HB4 2QT"),
              std::vector<std::string>{"7 Mill Close, Harrowby HB4 2QT"});
    EXPECT_EQ(addresses("Unit 12, 440 Front Street West, Toronto, ON M5V 3K2"),
              std::vector<std::string>{"Unit 12, 440 Front Street West, Toronto, ON M5V 3K2"});
    // A year after a state is no postcode.
    EXPECT_EQ(addresses("signed at 9 Elm Street, Peoria, Illinois 2027"),
              std::vector<std::string>{"9 Elm Street"});
}

TEST(OtherForms, ALicenceInItsOwnWords) {
    const auto got = extract(
        kLease, {"SELF-STORAGE LICENCE AGREEMENT\n"
                 "Licensor: Quarry Lane Storage LLC, 100 Dock Road, Aurora, Illinois 60505\n"
                 "Licensee: Bellhaven Print Shop, Inc.\n"
                 "1. LICENSED AREA. Bay 3, Building 1, Quarry Lane Storage, 100 Dock Road, "
                 "Aurora, Illinois 60505.\n"
                 "2. LICENCE PERIOD. March 1, 2027 to February 29, 2028 (12 months).\n"
                 "3. LICENCE FEE. $2,100.00 per month, in advance. The fee rises by 3% on "
                 "March 1, 2028.\n"
                 "4. EARLY END. Either party may end this licence on 60 days' written notice.\n"
                 "5. GOODS LEFT BEHIND. Storage after the period ends is charged at 150% of the "
                 "last monthly fee.\n"});
    EXPECT_EQ(got["abstract.parties"]["value"],
              "Quarry Lane Storage LLC (Landlord); Bellhaven Print Shop, Inc. (Tenant)");
    EXPECT_EQ(got["abstract.premises"]["value"],
              "Bay 3, Building 1, Quarry Lane Storage, 100 Dock Road, Aurora, Illinois 60505");
    EXPECT_EQ(got["abstract.commencement"]["value"], "2027-03-01");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2028-02-29");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$2,100.00 per month");
    EXPECT_EQ(got["abstract.escalations"]["value"], "3%");
    EXPECT_NE(got["abstract.termination_rights"]["value"].get<std::string>().find("may end"),
              std::string::npos);
    EXPECT_EQ(got["abstract.holdover"]["value"], "150%");
}

TEST(OtherForms, AnAustralianReferenceSchedule) {
    const auto got =
        extract(kLease, {"| Item | Particulars |\n"
                         "|---|---|\n"
                         "| 1. Lessor | Saltbush Arcade Pty Ltd |\n"
                         "| 2. Lessee | Corella Books Pty Ltd |\n"
                         "| 3. Premises | Shop 4, Saltbush Arcade, 12 Wattle Parade, Glenelg SA "
                         "5045 |\n"
                         "| 4. Commencement Date | 1 September 2027 |\n"
                         "| 5. Terminating Date | 31 August 2030 |\n"
                         "| 6. Further Term | One further term of three years |\n"
                         "| 7. Security | Bank guarantee for $9,000.00 |\n"
                         "| 8. Lessor's Address for Notices | Level 2, 80 King William Street, "
                         "Adelaide SA 5000 |\n"});
    EXPECT_EQ(got["abstract.premises"]["value"],
              "Shop 4, Saltbush Arcade, 12 Wattle Parade, Glenelg SA 5045");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2030-08-31");
    EXPECT_EQ(got["abstract.security_deposit"]["value"], "$9,000.00");
    EXPECT_NE(got["abstract.renewal_options"]["value"].get<std::string>().find("three years"),
              std::string::npos);
    EXPECT_EQ(got["abstract.notices"]["value"],
              "Level 2, 80 King William Street, Adelaide SA 5000");
}

TEST(OtherForms, AStudentLeasesTermRangeInstalmentsAndNumberedHeadings) {
    const auto got = extract(
        kLease,
        {"| Term | Details |\n"
         "|---|---|\n"
         "| Lease Term | Begins August 20, 2027 at 12:00 noon and ends July 31, 2028 at 12:00 "
         "noon |\n"
         "| Total Contract Rent | $9,600.00, payable in 12 monthly installments of $800.00 due "
         "on the 1st of each month from August 1, 2027 through July 1, 2028 |",
         "6. Early Termination", "Resident may end this Lease on 60 days' written notice.",
         "8. No Renewal Right", "This Lease gives Resident no right to renew."});
    EXPECT_EQ(got["abstract.commencement"]["value"], "2027-08-20");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2028-07-31");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$800.00 per month");
    // A numbered title that opens a passage is a heading, never a text field's value.
    EXPECT_NE(got["abstract.termination_rights"]["value"], "6. Early Termination");
    EXPECT_NE(got["abstract.renewal_options"]["value"], "8. No Renewal Right");
}

TEST(OtherForms, ARequestFormsTickQuestionHeadingsNamesAndDates) {
    const auto got = extract(kPriorAuth, {"CONTINUATION REQUEST - OUTPATIENT THERAPY\n"
                                          "Date: 02/08/2027   Expedited review?  [ ] Yes   [X] No\n"
                                          "MEMBER\n"
                                          "  Name:   Ansel Varga-Lindqvist     DOB: 07/22/1961\n"
                                          "  Member ID:   see attached card\n"
                                          "REQUESTING PROVIDER (treating therapist)\n"
                                          "  Name:   Brenna Oyelowo-Park, OTR/L, CHT\n"
                                          "  NPI:    1255852893\n"
                                          "REQUEST\n"
                                          "  Dates:  02/09/2027 through 03/31/2027\n"});
    EXPECT_EQ(got["urgency"]["value"], "standard");
    EXPECT_EQ(got["patient.name"]["value"], "Ansel Varga-Lindqvist");
    EXPECT_EQ(got["provider.name"]["value"], "Brenna Oyelowo-Park, OTR/L, CHT");
    EXPECT_EQ(got["requested_service.planned_date"]["value"], "2027-02-09");
    // A role's words in capitals are no one's name.
    EXPECT_FALSE(typed::personName("TREATING RADIATION ONCOLOGIST"));
    EXPECT_FALSE(typed::personName("Requesting Physician"));
    EXPECT_TRUE(typed::personName("Casimir Velasquez-Thorne"));
}

TEST(OtherForms, AFoldedNursingNoteAndASectionNotReviewed) {
    const auto got =
        extract(kClinical, {"Resident: Mirela Costa-Hughes Age: 88 Attending: Dr. Ivo Brandt "
                            "Diagnoses: vascular dementia; hypothyroidism; chronic kidney disease "
                            "stage 3a\n"
                            "## Allergies\n"
                            "Not reviewed at this visit; see the primary care record.\n"});
    EXPECT_EQ(got["patient.name"]["value"], "Mirela Costa-Hughes");
    EXPECT_EQ(listed(got["problems"], "description"),
              (std::vector<std::string>{"vascular dementia", "hypothyroidism",
                                        "chronic kidney disease stage 3a"}));
    EXPECT_TRUE(got["allergies"]["value"].empty());
}

TEST(OtherForms, AnEnglishTenancyInPoundsAndASiteOnANumberedHighway) {
    const auto tenancy = extract(
        kLease, {"ASSURED SHORTHOLD TENANCY AGREEMENT\n"
                 "The Rent is \u00a3975.00 per calendar month, payable in advance. A holding "
                 "deposit of \u00a3200.00 was paid on 2 March 2027.\n"
                 "The Tenant has paid a tenancy deposit of \u00a31,125.00 (five weeks' rent).\n"});
    EXPECT_EQ(tenancy["abstract.base_rent"]["value"], "\u00a3975.00 per month");
    EXPECT_EQ(values(typed::money("EUR 900 or \u20ac1,200.00")),
              (std::vector<std::string>{"\u20ac900.00", "\u20ac1,200.00"}));

    const auto site = extract(
        kLease, {"OUTDOOR ADVERTISING SITE LEASE\n"
                 "OWNER: Halvard Acres, LLC, 12 Mill Road, Bluffton, Indiana 46714\n"
                 "ADVERTISER: Lakeshore Signs, Inc.\n"
                 "1. SITE. Part of Owner's land at 4410 State Route 9 North, Bluffton, Indiana "
                 "46714, for one billboard.\n"
                 "2. TERM. Five (5) years from March 1, 2027 (the \"Start Date\") to February 28, "
                 "2032.\n"});
    EXPECT_EQ(site["abstract.parties"]["value"],
              "Halvard Acres, LLC (Landlord); Lakeshore Signs, Inc. (Tenant)");
    EXPECT_EQ(site["abstract.premises"]["value"],
              "4410 State Route 9 North, Bluffton, Indiana 46714");
    EXPECT_EQ(site["abstract.expiration"]["value"], "2032-02-28");
}

TEST(OtherForms, ACoworkingMembershipsWords) {
    const auto got =
        extract(kLease, {"| Item | Detail |\n"
                         "|---|---|\n"
                         "| Location | 88 Canal Street, 2nd Floor, Lowell, Massachusetts 01852 |\n"
                         "| Initial commitment | 12 months, ending 31 March 2028 |\n"
                         "| Monthly membership fee | USD 2,150.00 per month |\n"
                         "| Retainer | USD 4,300.00, held as security |",
                         "6. **Staying on.** If the Member still occupies the office after the "
                         "membership ends, we charge 125% of the last monthly fee."});
    EXPECT_EQ(got["abstract.premises"]["value"],
              "88 Canal Street, 2nd Floor, Lowell, Massachusetts 01852");
    EXPECT_EQ(got["abstract.term"]["value"], "12 months");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$2,150.00 per month");
    EXPECT_EQ(got["abstract.security_deposit"]["value"], "$4,300.00");
    EXPECT_EQ(got["abstract.holdover"]["value"], "125%");
}

TEST(OtherForms, NothingInsideBracketsEndsAListItem) {
    std::vector<std::string> pieces;
    for (const auto& p : linePieces("ALLERGIES: peanut - anaphylaxis (EpiPen Jr. 0.15 mg in "
                                    "office; called 911); amoxicillin - rash",
                                    0, false)) {
        pieces.push_back(p.text);
    }
    EXPECT_EQ(pieces, (std::vector<std::string>{
                          "peanut - anaphylaxis (EpiPen Jr. 0.15 mg in office; called 911)",
                          "amoxicillin - rash"}));
}

TEST(OtherForms, AnAllergysReactionInBracketsOrAfterADash) {
    const auto got =
        extract(kClinical, {"ALLERGIES: codeine (nausea); amoxicillin - rash; latex\n"});
    ASSERT_EQ(got["allergies"]["value"].size(), 3u);
    EXPECT_EQ(got["allergies"]["value"][0]["value"],
              (nlohmann::json{{"substance", "codeine"}, {"reaction", "nausea"}}));
    EXPECT_EQ(got["allergies"]["value"][1]["value"],
              (nlohmann::json{{"substance", "amoxicillin"}, {"reaction", "rash"}}));
    EXPECT_EQ(got["allergies"]["value"][2]["value"], (nlohmann::json{{"substance", "latex"}}));
}

TEST(OtherForms, NamesLastNameFirstBeforeAnotherField) {
    EXPECT_EQ(typed::invertedNameLength("Whitlow-Asante, Corin J. DOB 04/11/1980 Member # 1"), 24u);
    EXPECT_EQ(typed::invertedNameLength("Acme, Inc. Springfield"), 0u);
    const auto got = extract(kClinical, {"**Patient:** Marchbank, Ottilie R. \u00b7 **DOB:** "
                                         "1990-05-01 \u00b7 **Visit:** 2027-03-02\n"
                                         "Allergies: not recorded on the referral.\n"});
    EXPECT_EQ(got["patient.name"]["value"], "Marchbank, Ottilie R.");
    EXPECT_TRUE(got["allergies"]["value"].empty());
    const auto request = extract(kPriorAuth, {"PRESCRIBER: Idris Kovalenko-Bright, DO   NPI "
                                              "1234567893\n"});
    EXPECT_EQ(request["provider.name"]["value"], "Idris Kovalenko-Bright, DO");
}

TEST(OtherForms, AHoldingOrPetDepositIsNotTheSecurityDeposit) {
    // The holding deposit comes first and is credited to rent; the tenancy's deposit is later.
    const auto got = extract(
        kLease, {"4. Holding deposit\nA holding deposit of \u00a3300.00 was paid on 2 May 2027 "
                 "and will count towards the first month's rent.",
                 "5. Pets\nA pet deposit of \u00a3150.00 is payable for the dog.",
                 "6. Deposit\nThe Tenant has paid a deposit of \u00a31,440.00 (five weeks' "
                 "rent), protected in a government-approved scheme."});
    EXPECT_EQ(got["abstract.security_deposit"]["value"], "\u00a31,440.00");
}

TEST(OtherForms, ADepositTheLeaseDeniesIsNone) {
    // "No security deposit" says there is none, whatever a bond elsewhere is called; an amount
    // that "is not a security deposit" is none either.
    const auto ground = extract(
        kLease, {"4.2 No security deposit is required under this Lease. The removal bond in "
                 "Section 9 is not a security deposit.",
                 "9. Removal Security. Tenant shall post a bond of $90,000.00 before the tenth "
                 "anniversary."});
    EXPECT_TRUE(ground["abstract.security_deposit"]["value"].is_null());
    const auto mooring = extract(
        kLease, {"DEPOSIT: $300.00 reserves the mooring; it is credited to the spring invoice and "
                 "is not a security deposit."});
    EXPECT_TRUE(mooring["abstract.security_deposit"]["value"].is_null());
}

TEST(OtherForms, ARatePerAcreOrFootIsNotTheRent) {
    const auto land = extract(
        kLease, {"5.1 Rent. Tenant shall pay annual rent of nine hundred dollars ($900.00) per "
                 "acre of the Land, being $27,000.00 per year for 30 acres."});
    EXPECT_EQ(land["abstract.base_rent"]["value"], "$27,000.00 per year");
    const auto slip =
        extract(kLease, {"MARINA: Heron Cove Boatyard, Inc.", "SLIP HOLDER: Odile Marchetti-Vance",
                         "SLIP FEE: $2,430.00 for the season ($81.00 per foot x 30 ft)."});
    EXPECT_EQ(slip["abstract.base_rent"]["value"], "$2,430.00");
    EXPECT_EQ(slip["abstract.parties"]["value"],
              "Heron Cove Boatyard, Inc. (Landlord); Odile Marchetti-Vance (Tenant)");
}

TEST(OtherForms, PartiesNamedTogetherOrByAGuaranty) {
    // Two owners joined by "and" before an apposition that has its own "and"; a company whose
    // name holds a number before its legal form.
    const auto ground = extract(
        kLease, {"This Ground Lease is made as of May 3, 2027 by and between ANN B. ROE and CARL "
                 "D. ROE, wife and husband (together, \"Landlord\"), and SUNFIELD ARRAY 7, LLC, "
                 "an Ohio limited liability company (\"Tenant\")."});
    EXPECT_EQ(ground["abstract.parties"]["value"],
              "ANN B. ROE and CARL D. ROE (Landlord); SUNFIELD ARRAY 7, LLC (Tenant)");
    // A guaranty is given by the guarantor to the landlord: the landlord is the name after "to".
    const auto guaranty = extract(
        kLease, {"This Guaranty is given as of June 1, 2027 by PELL T. ORSINO, an individual "
                 "(\"Guarantor\"), to HARROWGATE PLAZA, LLC, a Nebraska limited liability company "
                 "(\"Landlord\").",
                 "A. Landlord and MOSSWOOD BAKERY, INC., a Nebraska corporation (\"Tenant\"), "
                 "are signing a lease of the premises."});
    EXPECT_EQ(guaranty["abstract.parties"]["value"],
              "HARROWGATE PLAZA, LLC (Landlord); MOSSWOOD BAKERY, INC. (Tenant)");
}

TEST(OtherForms, TheTermClauseOutweighsAnOptionItMentionsFirst) {
    const auto got = extract(
        kLease, {"3.1 Term. Subject to the exercise of the Option, Landlord leases the Land to "
                 "Tenant for a term of thirty (30) years beginning on the Operations Date.",
                 "9.1 Within six (6) months after the end of the term Tenant shall remove its "
                 "equipment."});
    EXPECT_EQ(got["abstract.term"]["value"], "30 years");
}

TEST(OtherForms, ARecitedTermsListWithoutLeadersOrOnTwoLines) {
    // "(11) Early termination none" lacks the dots other rows have; "(12) Notices to" breaks
    // its label over two lines.
    const auto got = extract(
        kLease,
        {"(10) Use ............. bakery and cafe\n(11) Early termination none\n(12) Notices "
         "to\nLandlord ........ c/o Bellcourt Advisors, 410 South 16th Street, Suite 300, "
         "Omaha, Nebraska 68102"});
    EXPECT_TRUE(got["abstract.termination_rights"]["value"].is_null());
    EXPECT_EQ(got["abstract.notices"]["value"],
              "410 South 16th Street, Suite 300, Omaha, Nebraska 68102");
    EXPECT_EQ(values(typed::addresses("The farm at 1180 County Road 12, Fremont, Ohio 43420 and")),
              std::vector<std::string>{"1180 County Road 12, Fremont, Ohio 43420"});
}

TEST(OtherForms, ACodeTableThatOcrLeftAsLines) {
    // The column header survives, the rows are lines (two folded into one), and the row
    // answered "NO" is not requested.
    const auto got = extract(
        kPriorAuth, {"ITEMS REQUESTED:\nHCPCS Description Units Requested\nE0601 CPAP device 1 "
                     "YES A7030 Full face mask 1 per 3 months YES\nA4604 Heated tubing 1 NO - "
                     "covered under the rental\nDIAGNOSIS: G47.33 Obstructive sleep apnea"});
    EXPECT_EQ(got["requested_service.cpt_codes"]["value"], (nlohmann::json{"E0601", "A7030"}));
    // The row's words after its code describe the item (a request that names its service
    // nowhere else).
    const std::string rows =
        "E0601 CPAP device, auto-titrating 1 YES A7030 Full face mask 1 per "
        "3 months YES";
    EXPECT_EQ(codeRowWords(rows, "E0601")->value, "CPAP device, auto-titrating");
    EXPECT_EQ(codeRowWords(rows, "A7030")->value, "Full face mask");
    EXPECT_EQ(codeRowWords("| K0005 | Ultralight wheelchair | 1 | YES |", "K0005")->value,
              "Ultralight wheelchair");
    EXPECT_FALSE(codeRowWords("CPT 99213 today", "99213").has_value());
    EXPECT_EQ(codeRowWords("G47.33 Obstructive sleep apnea", "G47.33")->value,
              "Obstructive sleep apnea");
    EXPECT_FALSE(codeRowWords("G47X33 Obstructive sleep apnea", "G47.33").has_value());
}

TEST(OtherForms, AMembersOwnLetter) {
    // The writer is the patient; the doctor is named by a specialty; the standard review is
    // asked for in words that negate the other.
    const auto got = extract(
        kPriorAuth, {"My name is Perpetua Oyelaran-Voss. My member ID is RVH 440 118 27.",
                     "My cardiologist, Dr. Tobiah Lindqvist-Achebe, asked you to approve a cardiac "
                     "rehabilitation program.",
                     "I am not asking for an expedited review; a standard review is fine."});
    EXPECT_EQ(got["patient.name"]["value"], "Perpetua Oyelaran-Voss");
    EXPECT_EQ(got["provider.name"]["value"], "Dr. Tobiah Lindqvist-Achebe");
    EXPECT_EQ(got["urgency"]["value"], "standard");
    EXPECT_EQ(values(typed::names("the surgeon, Ines Kowalczyk-Obi, MD, FACS (general surgery)")),
              std::vector<std::string>{"Ines Kowalczyk-Obi, MD, FACS"});
}

TEST(OtherForms, ALetterAddressedToThePlan) {
    // The plan is named only as the letter's addressee; "to" in prose names no payer.
    const auto got = extract(
        kPriorAuth,
        {"To: Brightwater Health \xE2\x80\x94 Grievances Unit, PO Box 100, Salem, OR 97301\n"
         "From: Lorcan Ashdown-Pryce, 14 Elm Row, Salem, OR 97302",
         "I was referred to Mercy Ridge Clinic for the scan you denied."});
    EXPECT_EQ(got["patient.payer"]["value"], "Brightwater Health");
    const auto prose =
        extract(kPriorAuth, {"I was referred to Mercy Ridge Clinic for the scan you denied.",
                             "I sent my records to Hollis Bay Imaging last week."});
    EXPECT_TRUE(prose["patient.payer"]["value"].is_null()) << prose["patient.payer"];
    // A letter to a person does not name the plan.
    const auto to_doctor = extract(kPriorAuth, {"To: Dr. Imogen Farrow-Baptiste, MD\n"
                                                "Re: your request for a knee MRI"});
    EXPECT_TRUE(to_doctor["patient.payer"]["value"].is_null()) << to_doctor["patient.payer"];
}

TEST(OtherForms, AClauseHeadedByOneWordOfItsMeaning) {
    // "LAW." heads the governing-law clause; the word in prose states no governing law.
    const auto got = extract(
        kLease, {"14. LAW. Nebraska.", "15. REMOVAL. Any law requiring removal binds Owner."});
    EXPECT_EQ(got["abstract.governing_law"]["value"], "Nebraska.");
    const auto prose =
        extract(kLease, {"15. REMOVAL. Any law requiring removal of the sign binds Owner.",
                         "16. LAWN. Owner mows the lawn."});
    EXPECT_TRUE(prose["abstract.governing_law"]["value"].is_null())
        << prose["abstract.governing_law"];
}

TEST(OtherForms, ASchoolNursesRecord) {
    // The patient is the student; the nurse and the parent are named first.
    const auto got =
        extract(kClinical,
                {"NURSE'S OFFICE LOG - Ridgeview Elementary School nurse: Oona Petrakis-Hale, RN "
                 "Date: 03/02/2027\nStudent: Marguerite Olatunji-Berg Grade 4 DOB: 06/14/2017 "
                 "Parent: Kwame Olatunji (father)"});
    EXPECT_EQ(got["patient.name"]["value"], "Marguerite Olatunji-Berg");
    // A label and its number after a name are no part of it; a company's number is.
    EXPECT_EQ(values(typed::names("Mary Ellen Roe Room 214")),
              (std::vector<std::string>{"Mary Ellen Roe", "Room"}));
    EXPECT_EQ(values(typed::names("Kestrel Ridge Solar 3, LLC")),
              std::vector<std::string>{"Kestrel Ridge Solar 3, LLC"});
}

TEST(OtherForms, ARunSheetsVitalsTableAndADischargeMedicationTable) {
    // The first row under the header is the reading on arrival; later rows and a reading in
    // the notes below are repeats.
    const auto sheet =
        extract(kClinical, {"Time BP HR Temp Weight\nPRE 06:50 158/88 81 36.8 C 71.2 kg\n09:40 "
                            "104/60 95\nPOST 10:55 128/74 77 36.7 C 69.0 kg\n09:40 cramping, BP "
                            "104/60, saline given."});
    std::map<std::string, std::string> vitals;
    for (const auto& v : sheet["vitals"]["value"]) {
        vitals[v["value"]["name"].get<std::string>()] = v["value"]["value"].dump();
    }
    EXPECT_EQ(vitals["blood pressure"], "\"158/88\"");
    EXPECT_EQ(vitals["heart rate"], "81.0");
    EXPECT_EQ(vitals["weight"], "71.2");
    // A table flattened into one line: status words end a row, a stopped medicine is left out.
    const auto discharge = extract(
        kClinical, {"Discharge medications (reconciled 2027-09-02, 14:30)\nMedication Dose How "
                    "often Status Labetalol 200 mg twice daily NEW Acetaminophen 1,000 mg every 8 "
                    "hours as needed CONTINUE Aspirin 81 mg once daily STOP (pregnancy only)"});
    std::vector<std::string> names;
    for (const auto& m : discharge["medications"]["value"]) {
        names.push_back(m["value"]["name"].get<std::string>() + " " +
                        m["value"]["dose"].get<std::string>());
    }
    EXPECT_EQ(names, (std::vector<std::string>{"Labetalol 200 mg", "Acetaminophen 1,000 mg"}));
}

TEST(OtherForms, RisksLabelledAsAListOrOneByOne) {
    const auto listed_risks = extract(
        kClinical, {"RISKS: hyperkalemia; intradialytic hypotension; fall risk after treatment."});
    EXPECT_EQ(listed_risks["risk_flags"]["value"].size(), 3U);
    // "Fall risk:" labels one risk, not a list of them.
    const auto plan = extract(kClinical, {"PLAN\nBleeding precautions reviewed with the patient.\n"
                                          "Fall risk: uses a walker; two falls this year."});
    std::vector<std::string> flags;
    for (const auto& f : plan["risk_flags"]["value"]) flags.push_back(f["value"]);
    EXPECT_NE(
        std::find(flags.begin(), flags.end(), "Bleeding precautions reviewed with the patient"),
        flags.end());
}

}  // namespace
}  // namespace docintel::plugins
