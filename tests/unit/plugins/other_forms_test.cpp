// The typed extractor with the workflows' own field descriptors on forms of other kinds and
// countries than our samples': a storage licence in its own words (licensor, licence period,
// licence fee), an Australian reference schedule (Terminating Date, Further Term, a bank
// guarantee, "Level 2," before the street, a state and a four-digit postcode), a student lease
// whose term "begins ... and ends" and whose rent is a total paid in monthly instalments, numbered
// DOCX headings; request forms with a yes/no tick question, a capitals heading with a note,
// chained credentials with a slash, a role written like a name and a folded "Name: ... DOB:"
// line; a nursing note whose labels OCR folded into one line and a section that was not
// reviewed.

#include <gtest/gtest.h>

#include <fstream>

#include "shared/field_extractor.h"

namespace docintel::plugins {
namespace {

nlohmann::json fieldsOf(const std::string& workflow_file) {
    std::ifstream in(DOCINTEL_SOURCE_DIR "/workflows/" + workflow_file);
    return nlohmann::json::parse(in)["fields"];
}

/// A document of `chunks`, each a passage of page 1 that opens on a new line (a parser starts
/// one at each heading block).
DocText docOf(const std::vector<std::string>& chunks) {
    DocText doc;
    doc.document_id = "d1";
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        plugin::Passage p;
        p.document_id = "d1";
        p.chunk_id = "c" + std::to_string(i);
        p.page = 1;
        p.text = chunks[i];
        doc.starts.push_back(doc.text.size());
        doc.text += chunks[i] + "\n";
        doc.passages.push_back(p);
    }
    return doc;
}

nlohmann::json extract(const std::string& workflow_file, const std::vector<std::string>& chunks) {
    const DocText doc = docOf(chunks);
    const auto units = fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fieldsOf(workflow_file))) {
        out[spec.path] = spec.type == "list" ? nlohmann::json{{"value", extractList(spec, doc)}}
                                             : extractField(spec, doc, units, {});
    }
    return out;
}

std::vector<std::string> listed(const nlohmann::json& field, const std::string& key) {
    std::vector<std::string> out;
    for (const auto& item : field["value"]) out.push_back(item["value"][key].get<std::string>());
    return out;
}

const std::string kLease = "lease/lease_intelligence.workflow.json";
const std::string kPriorAuth = "healthcare/healthcare_prior_auth.workflow.json";
const std::string kClinical = "healthcare/healthcare_clinical.workflow.json";

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

}  // namespace
}  // namespace docintel::plugins
