// The typed extractor with the workflows' own field descriptors on forms the ninth blind batch
// brought: an Indian leave and licence agreement (rupees in lakh grouping, a six-digit PIN code,
// "double the Licence Fee" for unauthorised occupation), a self-storage agreement (a move-in
// date, notices to the Operator), a pharmacy form written as a two-column table, a letter that
// asks for no expedited review, a sleep clinic's reconciled medication list, an occupational
// health examination with a section left blank, a request on a claim form's numbered boxes and
// a results table a PDF's text left as one line.

#include <gtest/gtest.h>

#include <map>

#include "workflow_fields.h"

namespace docintel::plugins {
namespace {

using test::extract;
using test::kClinical;
using test::kLease;
using test::kPriorAuth;
using test::values;

TEST(WorldForms, RupeesInLakhsAndDatesWithAMonthsShortName) {
    EXPECT_EQ(values(typed::money("Licence Fee: Rs. 48,500/- (Rupees Forty-Eight Thousand Five "
                                  "Hundred only) per month")),
              std::vector<std::string>{"\xE2\x82\xB9"
                                       "48,500.00 per month"});
    EXPECT_EQ(values(typed::money("Security Deposit: Rs. 2,91,000/- (Rupees Two Lakh Ninety-One "
                                  "Thousand only), interest free")),
              std::vector<std::string>{"\xE2\x82\xB9"
                                       "291,000.00"});
    EXPECT_EQ(values(typed::money("INR 12,000 per month")),
              std::vector<std::string>{"\xE2\x82\xB9"
                                       "12,000.00 per month"});
    // A figure with its amount in words in brackets is read with the period after them.
    EXPECT_EQ(values(typed::money("$5,000.00 (Five Thousand Dollars) per month")).front(),
              "$5,000.00 per month");
    EXPECT_EQ(values(typed::dates("DOB 05-Oct-1971; seen 2027-07-21")),
              (std::vector<std::string>{"1971-10-05", "2027-07-21"}));
}

TEST(WorldForms, ALeaveAndLicenceAgreementInIndia) {
    const auto out = extract(
        kLease,
        {"8. On expiry or earlier termination, the Licensee shall hand over vacant possession. If "
         "the Licensee fails to do so, he shall pay the Licensor compensation at double the "
         "Licence Fee for the period of unauthorised occupation.",
         "THE SCHEDULE\nItem | Particulars\nItem: Licensed Premises | Particulars: Flat No. 1204, "
         "12th Floor, Wing B, Sagar Darshan Co-operative Housing Society Ltd., Plot No. 41, "
         "Sector 17, Vashi, Navi Mumbai 400703, carpet area 78.5 sq. m.\nItem: Licence Fee | "
         "Particulars: Rs. 48,500/- (Rupees Forty-Eight Thousand Five Hundred only) per month\n"
         "Item: Security Deposit | Particulars: Rs. 2,91,000/- (Rupees Two Lakh Ninety-One "
         "Thousand only), interest free and refundable"});
    EXPECT_EQ(out["abstract.premises"]["value"],
              "Flat No. 1204, 12th Floor, Wing B, Sagar Darshan Co-operative Housing Society Ltd., "
              "Plot No. 41, Sector 17, Vashi, Navi Mumbai 400703");
    EXPECT_EQ(out["abstract.base_rent"]["value"],
              "\xE2\x82\xB9"
              "48,500.00 per month");
    EXPECT_EQ(out["abstract.security_deposit"]["value"],
              "\xE2\x82\xB9"
              "291,000.00");
    EXPECT_EQ(out["abstract.holdover"]["value"], "200%");
}

TEST(WorldForms, ASelfStorageAgreement) {
    const auto out = extract(
        kLease,
        {"OPERATOR: Keystone Storage Partners, L.P.\nAlternate contact (lien notices): Desmond "
         "Reed, 9 Orchard Lane, Lititz, PA 17543\nTERM: month to month from the move-in date, "
         "04/22/27. Either party may end it by 10 days' written notice.\nNOTICES to Operator: 400 "
         "North Queen Street, Suite 600, Lancaster, PA 17603"});
    EXPECT_EQ(out["abstract.commencement"]["value"], "2027-04-22");
    EXPECT_EQ(out["abstract.notices"]["value"],
              "400 North Queen Street, Suite 600, Lancaster, PA 17603");
}

TEST(WorldForms, APharmacyFormAsATwoColumnTable) {
    const auto out = extract(
        kPriorAuth,
        {"Section B. Prescriber\nItem | Entry\nItem: Prescriber | Entry: Adaeze Lindqvist-Moreau, "
         "MD (Headache Medicine)\nItem: Prescriber NPI | Entry: 1219077389",
         "Section C. Medication requested\nItem | Entry\nItem: Requested start | Entry: with the "
         "next fill after approval, target 09/01/2027",
         "Attestation\nSigned: Adaeze Lindqvist-Moreau, MD, date 08/18/2027. Previous "
         "neurologist: Dr. Stellan Ruiz-Okafor, NPI 1688412505, who started the topiramate."});
    EXPECT_EQ(out["provider.name"]["value"], "Adaeze Lindqvist-Moreau, MD");
    EXPECT_EQ(out["requested_service.planned_date"]["value"], "2027-09-01");
}

TEST(WorldForms, NoExpeditedReviewIsAStandardOne) {
    const auto out = extract(
        kPriorAuth, {"Review requested: retrospective (post-service). The service is complete, so "
                     "no expedited review is requested; a standard decision time frame is fine."});
    EXPECT_EQ(out["urgency"]["value"], "standard");
}

TEST(WorldForms, AReconciledMedicationListAndAFlattenedTable) {
    const auto out = extract(
        kClinical,
        {"MEDICATIONS (reconciled today)\nRopinirole 0.5 mg at bedtime - STOP (augmentation). "
         "Taper: 0.25 mg at bedtime for 7 days, then stop.\nPregabalin 75 mg once daily at 6 pm - "
         "NEW\nFerrous sulfate 325 mg (65 mg iron) every other day with vitamin C - NEW\n"
         "Lisinopril 20 mg daily - continue",
         "Discharge medications\nMedication Dose and frequency Status Atorvastatin 80 mg at "
         "bedtime CHANGED (was 20 mg) Metoprolol 25 mg twice daily CONTINUE"});
    std::map<std::string, std::string> sig;
    for (const auto& item : out["medications"]["value"]) {
        sig[item["value"]["name"].get<std::string>()] = item["value"]["sig"].get<std::string>();
    }
    // The stopped drug is not taken, a dose in brackets names no drug, and a status after a dash
    // ends the directions.
    EXPECT_EQ(sig, (std::map<std::string, std::string>{
                       {"Pregabalin", "once daily at 6 pm"},
                       {"Ferrous sulfate", "(65 mg iron) every other day with vitamin C"},
                       {"Lisinopril", "daily"},
                       {"Atorvastatin", "at bedtime"},
                       {"Metoprolol", "twice daily"}}));
}

TEST(WorldForms, AnOccupationalHealthExamWithASectionLeftBlank) {
    const auto out = extract(
        kClinical,
        {"Candidate: Soraya Nwachukwu-Pellegrini DOB: 02/09/1994 Employee ID: pending\nAllergies: "
         "(section left blank)\nCurrent medications: none\nHistory: mild intermittent asthma "
         "(last inhaler use 2023); right ACL repair 2016; anxiety in remission, no treatment "
         "since 2025."});
    EXPECT_EQ(out["patient.name"]["value"], "Soraya Nwachukwu-Pellegrini");
    EXPECT_TRUE(out["allergies"]["value"].empty());
    EXPECT_EQ(out["problems"]["value"].size(), 3u);
}

TEST(WorldForms, ARequestOnAClaimFormsNumberedBoxes) {
    EXPECT_EQ(values(typed::dates("3. BIRTH DATE: 07 19 1976 F; 24. A. DATES OF SERVICE 09 14 27")),
              (std::vector<std::string>{"1976-07-19", "2027-09-14"}));
    const auto out =
        extract(kPriorAuth,
                {"2. PATIENT'S NAME: HALVORSEN-ADEBAYO, INGRID, K 3. BIRTH DATE: 07 19 1976 F\n17. "
                 "REFERRING PROVIDER: DN OLUWASEUN BRANDT MD 17b. NPI 1293840579\n24. A. DATES OF "
                 "SERVICE 09 14 27 - 09 14 27 B. POS 24 D. CPT 27447 RT J. NPI 1847263914\n31. "
                 "PHYSICIAN: ANNELIESE OKONJO-HARTMANN MD DATE 08 02 27"});
    EXPECT_EQ(out["patient.name"]["value"], "HALVORSEN-ADEBAYO, INGRID, K");
    EXPECT_EQ(out["patient.date_of_birth"]["value"], "1976-07-19");
    EXPECT_EQ(out["provider.name"]["value"], "ANNELIESE OKONJO-HARTMANN MD");
    EXPECT_EQ(out["provider.npi"]["value"], "1847263914");
    EXPECT_EQ(out["requested_service.planned_date"]["value"], "2027-09-14");
}

TEST(WorldForms, AResultsTableAPdfLeftAsOneLine) {
    const auto out = extract(
        kClinical,
        {"Laboratory results\nTest IRF admission 04/07/2027 Discharge 04/26/2027 Reference "
         "Hemoglobin (g/dL) 11.6 12.1 12.0-16.0 Sodium (mmol/L) 133 137 135-145 Glucose, "
         "fasting (mg/dL) 188 131 70-99 Hemoglobin A1c (%) 7.8 - under 5.7 TSH (mIU/L) - 2.6 "
         "0.4-4.0\nUrine culture of April 14 grew E. coli."});
    std::vector<std::string> read;
    for (const auto& item : out["labs"]["value"]) {
        const auto& v = item["value"];
        read.push_back(v["name"].get<std::string>() + " " + v["value"].dump() + " " +
                       v["flag"].get<std::string>());
    }
    // The discharge column (the header's latest date), the admission value only where the
    // discharge one is a dash; flags from the reference column.
    EXPECT_EQ(read,
              (std::vector<std::string>{"hemoglobin 12.1 N", "sodium 137.0 N", "glucose 131.0 H",
                                        "hemoglobin A1c 7.8 H", "TSH 2.6 N"}));
}

// The tenth blind batch: a Dubai tenancy contract (dirhams, day-first dates, addresses without
// a postcode), a Singapore tenancy (a "Pte. Ltd." landlord, "#08-14" units), a voucher lease
// whose landlord is introduced by its role words, and request and letter forms.

TEST(WorldForms, CurrencyCodesKeepTheirCode) {
    EXPECT_EQ(values(typed::money("Annual rent: AED 96,000 Security deposit: AED 4,800")),
              (std::vector<std::string>{"AED 96,000.00 per year", "AED 4,800.00"}));
    EXPECT_EQ(values(typed::money("Monthly rent: SGD 4,200")).front(), "SGD 4,200.00 per month");
    EXPECT_EQ(values(typed::money("USD 54,000")).front(), "$54,000.00");
}

TEST(WorldForms, ADocumentThatWritesItsDatesDayFirst) {
    EXPECT_TRUE(typed::writesDayFirst("From 01/06/2027 To 31/05/2028"));
    // One date that can only be month first decides the other way.
    EXPECT_FALSE(typed::writesDayFirst("signed 31/05/2028, paid 05/31/2028"));
    EXPECT_FALSE(typed::writesDayFirst("From 01/06/2027 To 06/01/2028"));
    EXPECT_EQ(values(typed::dates("01/06/2027", true)).front(), "2027-06-01");
    EXPECT_EQ(values(typed::dates("01/06/2027")).front(), "2027-01-06");
    // The contract date stands on its own line; the document's other dates decide its order.
    const auto out = extract(
        kLease, {"TENANCY CONTRACT\nContract date: 12/05/2027\nTenant: Tobias Engelbrecht-Mwangi\n"
                 "Contract period: From 01/06/2027 To 31/05/2028 (12 months)",
                 "Signed: tenant 12/05/2027; lessor 14/05/2027"});
    EXPECT_EQ(out["abstract.commencement"]["value"], "2027-06-01");
    EXPECT_EQ(out["abstract.expiration"]["value"], "2028-05-31");
    EXPECT_EQ(out["abstract.term"]["value"], "12 months");
}

TEST(WorldForms, AddressesWithoutAStreetSuffixOrZip) {
    const auto out = extract(
        kLease,
        {"Property: Apartment 1907, Saffron Creek Residences, Tower 2, Al Jaddaf, Dubai (2 "
         "bedroom); Plot no. 326-0915\nAnnual rent: AED 96,000",
         "6. Notices to the lessor: Office 804, Marasi Bay Business Tower, Business Bay, Dubai."});
    EXPECT_EQ(out["abstract.premises"]["value"],
              "Apartment 1907, Saffron Creek Residences, Tower 2, Al Jaddaf, Dubai");
    EXPECT_EQ(out["abstract.notices"]["value"],
              "Office 804, Marasi Bay Business Tower, Business Bay, Dubai");
    // A street name without a suffix, a unit number after a comma and a six-digit postcode.
    EXPECT_EQ(values(typed::addresses(
                  "Premises: 27 Jalan Seruling, #08-14, The Marlowe Residences, Singapore 578921, "
                  "together with the furniture")),
              std::vector<std::string>{
                  "27 Jalan Seruling, #08-14, The Marlowe Residences, Singapore 578921"});
    // A label's value with no figure in its first parts is no address.
    EXPECT_EQ(typed::labelledAddressLength("Residential use only, by the tenant, and family"), 0u);
}

TEST(WorldForms, RoleWordsAreNoNamesAndPteLtdEndsOne) {
    const auto out = extract(
        kLease, {"OWNER (LANDLORD): Marrowbone Creek Rentals, LLC\nOwner's office: 1409 Keowee "
                 "Street, Suite 2, Dayton, Ohio 45404\nTENANT: Delphine R. Okwuosa-Barrett"});
    EXPECT_EQ(out["abstract.parties"]["value"],
              "Marrowbone Creek Rentals, LLC (Landlord); Delphine R. Okwuosa-Barrett (Tenant)");
    EXPECT_EQ(values(typed::names("Koh Beng Huat Investments Pte. Ltd., of 9 Tembusu Rise")),
              (std::vector<std::string>{"Koh Beng Huat Investments Pte. Ltd.", "Tembusu Rise"}));
}

TEST(WorldForms, ANameIsReadToItsEndBeforeTheNextLabel) {
    // The next label's capitals are no given name; a name does not end in an initial.
    const auto pa =
        extract(kPriorAuth, {"PATIENT\nName: Oduya, Fenella Margit DOB: 05/03/1995\nMember ID: "
                             "see attached copy of member card\nTREATING RADIATION ONCOLOGIST\nDr. "
                             "Casimir Velasquez-Thorne, MD NPI 1509050245"});
    EXPECT_EQ(pa["patient.name"]["value"], "Oduya, Fenella Margit");
    // The "Name:" row under PATIENT is the patient's, whoever else the form names.
    EXPECT_EQ(pa["provider.name"]["value"], "Dr. Casimir Velasquez-Thorne, MD");
    const auto letter =
        extract(kPriorAuth, {"APPROVED WITH MODIFICATION\nTo: Imogen Castellanos-Whitby, DO, "
                             "Neurology (NPI on file)\nMember: Bartholomew S. Achebe-Lindgren DOB: "
                             "04/11/1983 Member ID: CHH-77302145-01"});
    EXPECT_EQ(letter["patient.name"]["value"], "Bartholomew S. Achebe-Lindgren");
    EXPECT_EQ(letter["provider.name"]["value"], "Imogen Castellanos-Whitby, DO");
    // "Date of birth" after a name is the next label, not the name's last word.
    EXPECT_EQ(values(typed::names("Ann B. Roe Date of birth May 21, 1969")).front(), "Ann B. Roe");
}

TEST(WorldForms, APatientsNameBesideTheRecordNumber) {
    const auto out = extract(kClinical, {"After Visit Summary\n**Cornelius Adeyemi-Vantongeren** · "
                                         "MRN 40719928\nHeart Failure Clinic, Brindlewood Heart & "
                                         "Vascular Center · **August 26, 2027**"});
    EXPECT_EQ(out["patient.name"]["value"], "Cornelius Adeyemi-Vantongeren");
}

TEST(WorldForms, AConcurrentReviewAndAnApprovalLetter) {
    const auto review =
        extract(kPriorAuth,
                {"LEVEL OF CARE REQUESTED\nContinued stay, ASAM Level 3.5 (clinically managed "
                 "high-intensity residential).\nHCPCS H0018 (behavioral health, short-term "
                 "residential, per "
                 "diem). Requested: 7 more days, 12/03/2027 through 12/09/2027.",
                 "OUTCOME\nApproved 5 of the 7 requested days: 12/03/2027 through 12/07/2027."});
    EXPECT_EQ(review["requested_service.description"]["value"],
              "Continued stay, ASAM Level 3.5 (clinically managed high-intensity residential).");
    EXPECT_EQ(review["requested_service.planned_date"]["value"], "2027-12-03");
    const auto letter = extract(
        kPriorAuth, {"Requested first injection: 10/04/2027. Approved dates: 10/01/2027 to "
                     "03/31/2028.\nReason: Policy CHH-RX-112, Botulinum Toxins, allows 155 units "
                     "every 12 weeks for chronic migraine."});
    EXPECT_EQ(letter["requested_service.planned_date"]["value"], "2027-10-04");
    EXPECT_EQ(letter["policy.policy_number"]["value"], "CHH-RX-112");
}

TEST(WorldForms, AResultsTableWithARowALineAndDatesWithoutTheirYear) {
    const auto out = extract(
        kClinical, {"Laboratory results\nTest Admission 08/02 Post-op day 1 08/04 Day of discharge "
                    "08/06 Reference Hemoglobin (g/dL) 11.8 8.9 9.2 11.5-15.5\nPlatelets (x10^9/L) "
                    "118 131 164 150-400\nDiabetic eye exam: last completed 03/2022"});
    std::map<std::string, double> read;
    for (const auto& item : out["labs"]["value"]) {
        read[item["value"]["name"].get<std::string>()] = item["value"]["value"].get<double>();
    }
    EXPECT_EQ(read, (std::map<std::string, double>{{"hemoglobin", 9.2}, {"platelets", 164.0}}));
}

}  // namespace
}  // namespace docintel::plugins
