// plugins/shared/typed_values.h and field_extractor.h: every value type is read in the forms
// documents write it, and a field described by meaning and type is found in layouts no rule was
// written for (ARTICLE numbering, dotted leaders, Markdown tables, defined terms), with its
// citation, and left empty when the document says there is none.

#include <gtest/gtest.h>

#include "one_passage_doc.h"

#include "shared/field_extractor.h"

namespace docintel::plugins {
namespace {

std::vector<std::string> values(const std::vector<typed::Found>& found) {
    std::vector<std::string> out;
    for (const auto& f : found) out.push_back(f.value.get<std::string>());
    return out;
}

TEST(TypedValues, DatesInManyFormsAreIso) {
    EXPECT_EQ(values(typed::dates("on March 1, 2025 and 1 March 2025 and 03/01/2025")),
              (std::vector<std::string>{"2025-03-01", "2025-03-01", "2025-03-01"}));
    EXPECT_EQ(values(typed::dates("beginning on the 1st day of March, 2025")),
              std::vector<std::string>{"2025-03-01"});
    EXPECT_EQ(values(typed::dates("ending on the last day of February, 2035")),
              std::vector<std::string>{"2035-02-28"});
    EXPECT_EQ(values(typed::dates("DOB 1944-02-29; seen 29/02/1944")),
              (std::vector<std::string>{"1944-02-29", "1944-02-29"}));
    EXPECT_TRUE(typed::dates("Feb 30, 2025 and 13/13/2025").empty());
}

TEST(TypedValues, DatesWithTheDayInOrdinalWords) {
    EXPECT_EQ(values(typed::dates("from the first (1st) day of June, 2026 to the thirty-first "
                                  "day of May, 2031")),
              (std::vector<std::string>{"2026-06-01", "2031-05-31"}));
    EXPECT_EQ(values(typed::dates("the twentieth day of March 2027")),
              std::vector<std::string>{"2027-03-20"});
    // The figure in brackets wins over the word; a word that is no ordinal states no day.
    EXPECT_EQ(values(typed::dates("the second (3rd) day of June, 2026")),
              std::vector<std::string>{"2026-06-03"});
    EXPECT_TRUE(typed::dates("each day of June, 2026").empty());
}

TEST(TypedValues, MoneyKeepsItsPeriod) {
    EXPECT_EQ(values(typed::money("monthly installments of $15,500.00 per month")),
              std::vector<std::string>{"$15,500.00 per month"});
    EXPECT_EQ(values(typed::money("USD 54,000 annually")),
              std::vector<std::string>{"$54,000.00 per year"});
    EXPECT_EQ(values(typed::money("minimum annual rent of Fifty-Five Thousand Five Hundred and "
                                  "No/100 Dollars ($55,500.00)")),
              std::vector<std::string>{"$55,500.00 per year"});
    EXPECT_EQ(values(typed::money("a deposit of $9,250.00")),
              std::vector<std::string>{"$9,250.00"});
    EXPECT_TRUE(typed::money("$28.00 per sf per year").empty());
}

TEST(TypedValues, MoneyInWordsOnly) {
    EXPECT_EQ(values(typed::money("The sum of Forty Thousand Eight Hundred Dollars per year, being "
                                  "Two Hundred Fifty-Five Dollars per acre")),
              std::vector<std::string>{"$40,800.00 per year"});
    EXPECT_EQ(values(typed::money("liability insurance of One Million Dollars")),
              std::vector<std::string>{"$1,000,000.00"});
    EXPECT_EQ(values(typed::money("a deposit of one hundred and twenty-five dollars")),
              std::vector<std::string>{"$125.00"});
    // Words with their figure are read once, from the figure; words that count nothing are none.
    EXPECT_EQ(values(typed::money("Five Hundred Dollars ($500.00)")),
              std::vector<std::string>{"$500.00"});
    EXPECT_TRUE(typed::money("paid in US dollars").empty());
}

TEST(TypedValues, PercentagesDurationsAndCodes) {
    EXPECT_EQ(values(typed::percentages("by three percent (3%) or 2.5 percent")),
              (std::vector<std::string>{"3%", "2.5%"}));
    EXPECT_EQ(values(typed::percentages("at double the rent")), std::vector<std::string>{"200%"});
    EXPECT_EQ(values(typed::durations("sixty (60) months; a 3-year term; five years")),
              (std::vector<std::string>{"60 months", "3 years", "5 years"}));
    EXPECT_EQ(values(typed::durations("five (5) Lease Years of twelve (12) full calendar months")),
              (std::vector<std::string>{"5 years", "12 months"}));
    EXPECT_EQ(values(typed::codes("ICD-10: M54.16; M51.26 (lumbar)", "icd10")),
              (std::vector<std::string>{"M54.16", "M51.26"}));
    EXPECT_EQ(values(typed::codes("CPT 72148, NPI 1482093758", "npi")),
              std::vector<std::string>{"1482093758"});
    EXPECT_EQ(values(typed::codes("write to a.b-c@example.org today", "email")),
              std::vector<std::string>{"a.b-c@example.org"});
}

TEST(TypedValues, AddressesAndNames) {
    EXPECT_EQ(
        values(typed::addresses("on the fourth floor, Suite 410, of the building located at "
                                "225 West Wacker Drive, Chicago, Illinois 60606 (the")),
        std::vector<std::string>{"Suite 410, 225 West Wacker Drive, Chicago, Illinois 60606"});
    EXPECT_EQ(values(typed::addresses("cropland at 31450 580th Avenue, Nevada, Iowa 50201 (")),
              std::vector<std::string>{"31450 580th Avenue, Nevada, Iowa 50201"});
    EXPECT_EQ(
        values(typed::names("between NORTHWIND ANALYTICS, INC., an Illinois corporation")).front(),
        "NORTHWIND ANALYTICS, INC.");
    const auto names = values(typed::names("Name: Samuel Okafor, MD (Orthopedic Spine)"));
    EXPECT_NE(std::find(names.begin(), names.end(), "Samuel Okafor, MD"), names.end());
}

TEST(TypedValues, ANameEndsAtItsLegalFormAndIsNoDateWord) {
    EXPECT_EQ(
        values(typed::names("Ostrander & Vale Design Studio LLC Rafferty Oyelowo-Quist")),
        (std::vector<std::string>{"Ostrander & Vale Design Studio LLC", "Rafferty Oyelowo-Quist"}));
    EXPECT_EQ(values(typed::names("paid between January 8, 2024 and Friday")),
              std::vector<std::string>{});
}

DocText docOf(const std::string& text) {
    DocText doc = test::onePassageDoc(text, 2);
    doc.text += "\n";
    return doc;
}

nlohmann::json extract(const nlohmann::json& fields, const std::string& text) {
    const DocText doc = docOf(text);
    const auto units = fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : fieldSpecs(fields)) {
        out[spec.path] = extractField(spec, doc, units, {});
    }
    return out;
}

const nlohmann::json kLeaseFields = nlohmann::json::parse(R"([
  {"path": "abstract.parties", "type": "party", "meaning": ["landlord", "tenant"],
   "roles": ["landlord", "tenant"]},
  {"path": "abstract.commencement", "type": "date",
   "meaning": ["commencement date", "commencing on", "beginning on", "start date"]},
  {"path": "abstract.expiration", "type": "date",
   "meaning": ["expiration date", "expiring on", "ending on", "end date"]},
  {"path": "abstract.term", "type": "duration", "meaning": ["term"], "avoid": ["renew"]},
  {"path": "abstract.base_rent", "type": "money", "meaning": ["base rent", "rent"],
   "avoid": ["deposit"]},
  {"path": "abstract.security_deposit", "type": "money", "meaning": ["security deposit"]},
  {"path": "abstract.termination_rights", "type": "text",
   "meaning": ["early termination", "terminate"]}
])");

TEST(FieldExtractor, ReadsAnArticleNumberedLeaseByMeaning) {
    const auto got = extract(kLeaseFields,
                             "OFFICE LEASE\n"
                             "This Lease is made by and between HARBORVIEW PROPERTIES LLC, a "
                             "Delaware limited liability company (\"Landlord\"), and NORTHWIND "
                             "ANALYTICS, INC., an Illinois corporation (\"Tenant\").\n"
                             "ARTICLE 2. TERM\n"
                             "2.1 Term. The term of this Lease shall be sixty (60) months, "
                             "commencing on April 1, 2025 (the \"Commencement Date\") and expiring "
                             "on March 31, 2030 (the \"Expiration Date\").\n"
                             "ARTICLE 4. SECURITY DEPOSIT\n"
                             "4.1 Tenant shall deposit with Landlord the sum of $31,000.00.\n");
    EXPECT_EQ(got["abstract.parties"]["value"],
              "HARBORVIEW PROPERTIES LLC (Landlord); NORTHWIND ANALYTICS, INC. (Tenant)");
    EXPECT_EQ(got["abstract.commencement"]["value"], "2025-04-01");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2030-03-31");
    EXPECT_EQ(got["abstract.term"]["value"], "60 months");
    // Under its heading, the deposit clause needs no "security deposit" words of its own.
    EXPECT_EQ(got["abstract.security_deposit"]["value"], "$31,000.00");
    EXPECT_EQ(got["abstract.commencement"]["source"]["page"], 2);
    EXPECT_EQ(got["abstract.commencement"]["source"]["chunk_id"], "c1");
    EXPECT_GT(got["abstract.commencement"]["confidence"].get<double>(), 0.5);
    EXPECT_TRUE(got["abstract.termination_rights"]["value"].is_null());
}

TEST(FieldExtractor, ReadsAPlainLeaseWithRolesSetOffByCommasAndWordsForFigures) {
    const auto got = extract(kLeaseFields,
                             "PASTURE LEASE\n"
                             "Made this 2nd day of May, 2029, between Ilse Marchetti-Boyd, "
                             "Landlord, and Tallgrass Cattle Co., Tenant.\n"
                             "2. TERM. Beginning on the fifteenth (15th) day of May, 2029 and "
                             "ending on the last day of April, 2030.\n"
                             "3. RENT. The rent is Nine Thousand Six Hundred Dollars per year.\n"
                             "Notices to Landlord: 4 Quarry Road, Hays, Kansas 67601.\n");
    EXPECT_EQ(got["abstract.parties"]["value"],
              "Ilse Marchetti-Boyd (Landlord); Tallgrass Cattle Co. (Tenant)");
    EXPECT_EQ(got["abstract.commencement"]["value"], "2029-05-15");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2030-04-30");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$9,600.00 per year");
}

TEST(DateSpans, ATermStatedOnlyAsItsRangeGivesItsStartEndAndLength) {
    const nlohmann::json fields = nlohmann::json::parse(R"([
      {"path": "start", "type": "date", "span": "start", "span_of": ["term"],
       "meaning": ["commencement date", "commencing on"]},
      {"path": "end", "type": "date", "span": "end", "span_of": ["term"],
       "meaning": ["expiration date", "ending on"]},
      {"path": "length", "type": "duration", "span": "length", "span_of": ["term"],
       "meaning": ["term"], "avoid": ["renew"]}
    ])");
    const auto got = extract(fields,
                             "Signed on 12/01/2028.\n"
                             "4. TERM. From the first (1st) day of March, 2029 to the last day of "
                             "February, 2031, and from year to year after that.\n");
    EXPECT_EQ(got["start"]["value"], "2029-03-01");
    EXPECT_EQ(got["end"]["value"], "2031-02-28");
    EXPECT_EQ(got["length"]["value"], "2 years");
    // The field's own words win over a range ("commencing on"), and a range no span word names
    // gives nothing.
    const auto stated = extract(fields,
                                "The term is sixty (60) months commencing on July 1, 2025.\n"
                                "Valid from 01/05/2025 through 02/05/2025.\n");
    EXPECT_EQ(stated["start"]["value"], "2025-07-01");
    EXPECT_EQ(stated["length"]["value"], "60 months");
    EXPECT_TRUE(stated["end"]["value"].is_null());
    EXPECT_EQ(spanLength("2027-03-01", "2028-02-29"), "1 years");
    EXPECT_EQ(spanLength("2026-01-15", "2026-07-14"), "6 months");
    EXPECT_EQ(spanLength("2026-01-15", "2026-07-20"), "");
}

TEST(FieldExtractor, ReadsLeadersTablesAndDefinedTerms) {
    const auto got = extract(kLeaseFields,
                             "Landlord ........... Cedar Avenue Ventures LLC\n"
                             "Tenant ............. Fjord Bakery & Provisions Inc.\n"
                             "\n"
                             "| Period | Monthly Base Rent | Annual Base Rent |\n"
                             "|---|---|---|\n"
                             "| Year 1 | $4,250.00 | $51,000.00 |\n"
                             "\n"
                             "The term is ten (10) years beginning on the 1st day of March, 2025 "
                             "(the \"Commencement Date\") and ending on the last day of February, "
                             "2035.\n"
                             "The landlord has NOT agreed to a kick-out (early termination) right, "
                             "so there is none in the deal.\n");
    EXPECT_EQ(got["abstract.parties"]["value"],
              "Cedar Avenue Ventures LLC (Landlord); Fjord Bakery & Provisions Inc. (Tenant)");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$4,250.00 per month");
    EXPECT_EQ(got["abstract.commencement"]["value"], "2025-03-01");
    EXPECT_EQ(got["abstract.expiration"]["value"], "2035-02-28");
    EXPECT_TRUE(got["abstract.termination_rights"]["value"].is_null());
}

TEST(FieldExtractor, CodesListsEnumerationsAndAbsentFields) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "provider.npi", "type": "code", "code": "npi", "meaning": ["npi"]},
      {"path": "codes", "type": "code", "code": "icd10", "list": true,
       "meaning": ["icd-10", "diagnoses", "assessment"]},
      {"path": "urgency", "type": "enumeration", "meaning": ["urgency", "review type", "urgent"],
       "values": {"expedited": ["urgent", "expedited"], "standard": ["standard", "non-urgent"]}},
      {"path": "planned", "type": "date", "meaning": ["planned date", "scheduled for"]}
    ])");
    const auto got = extract(fields,
                             "Review type: Standard (non-urgent)\n"
                             "NPI: ........ 1482093758\n"
                             "ASSESSMENT\n"
                             "1. Class III obesity (E66.01, Z68.41)\n"
                             "2. Essential hypertension (I10)\n");
    EXPECT_EQ(got["provider.npi"]["value"], "1482093758");
    EXPECT_EQ(got["codes"]["value"], nlohmann::json({"E66.01", "Z68.41", "I10"}));
    EXPECT_EQ(got["urgency"]["value"], "standard");
    EXPECT_TRUE(got["planned"]["value"].is_null());
    EXPECT_TRUE(got["planned"]["source"].is_null());
}

TEST(FieldExtractor, MergeKeepsRulesAndReplacesDefaults) {
    nlohmann::json result = {{"abstract", {{"term", field("five (5) years", {{"page", 1}}, 0.9)}}},
                             {"urgency", field("standard", nullptr, 0.5)}};
    std::map<std::string, nlohmann::json> typed_fields = {
        {"abstract.term", field("60 months", {{"page", 1}}, 0.7)},
        {"abstract.expiration", field("2030-03-31", {{"page", 1}}, 0.7)},
        {"urgency", missingField()}};
    mergeTypedFields(result, typed_fields);
    EXPECT_EQ(result["abstract"]["term"]["value"], "five (5) years");
    EXPECT_EQ(result["abstract"]["expiration"]["value"], "2030-03-31");
    EXPECT_TRUE(result["urgency"]["value"].is_null());
}

TEST(FieldExtractor, MergeAddsTheMeasurementsTheRulesMissed) {
    auto lab = [](const std::string& name, double value) {
        return field({{"name", name}, {"value", value}}, {{"page", 1}}, 0.8);
    };
    nlohmann::json result = {{"labs", nlohmann::json::array({lab("Hemoglobin", 11.6)})},
                             {"problems", nlohmann::json::array({field("hypertension", {}, 0.8)})}};
    std::map<std::string, nlohmann::json> typed_fields = {
        {"labs", nlohmann::json::array({lab("hemoglobin", 11.6), lab("sodium", 136)})},
        {"problems", nlohmann::json::array({field("high blood pressure", {}, 0.8)})}};
    mergeTypedFields(result, typed_fields);
    // A measurement the rules have (by name, in any case) is not repeated; one they lack is
    // added.
    ASSERT_EQ(result["labs"].size(), 2u);
    EXPECT_EQ(result["labs"][1]["value"]["name"], "sodium");
    // Other items keep the rules' list as it is.
    EXPECT_EQ(result["problems"].size(), 1u);
}

const nlohmann::json kRequestFields = nlohmann::json::parse(R"([
  {"path": "patient.name", "type": "party", "meaning": ["patient name", "patient", "name"],
   "avoid": ["provider"]},
  {"path": "patient.date_of_birth", "type": "date", "meaning": ["date of birth", "dob"]},
  {"path": "patient.member_id", "type": "code", "code": "id", "meaning": ["member id", "member"]},
  {"path": "patient.payer", "type": "party", "meaning": ["health plan", "payer", "plan"]},
  {"path": "service", "type": "text", "meaning": ["requested procedure", "procedure"]},
  {"path": "planned_date", "type": "date", "meaning": ["planned date", "date of surgery"]}
])");

TEST(FieldExtractor, ReadsAKeyValueTableThatTheParserTookForAHeader) {
    // A DOCX letter's two-column table of labels and values: the parser reads its first row as
    // the header and writes every other row's cells after it.
    const auto got = extract(kRequestFields,
                             "Letter of Medical Necessity\n"
                             "Patient | Ada Quillfeather\n"
                             "Patient: Date of birth | Ada Quillfeather: March 3, 1966\n"
                             "Patient: Member ID | Ada Quillfeather: NGP-4471209\n"
                             "Patient: Requested procedure | Ada Quillfeather: Total knee "
                             "arthroplasty, left knee\n"
                             "Patient: Planned date of surgery | Ada Quillfeather: May 12, 2025\n");
    EXPECT_EQ(got["patient.name"]["value"], "Ada Quillfeather");
    EXPECT_EQ(got["patient.date_of_birth"]["value"], "1966-03-03");
    EXPECT_EQ(got["patient.member_id"]["value"], "NGP-4471209");
    EXPECT_EQ(got["service"]["value"], "Total knee arthroplasty, left knee");
    EXPECT_EQ(got["planned_date"]["value"], "2025-05-12");
    EXPECT_EQ(got["planned_date"]["source"]["page"], 2);
}

TEST(FieldExtractor, ReadsAParsedTableCellUnderItsColumnHeader) {
    const auto got = extract(kLeaseFields,
                             "2. RENT SCHEDULE\n"
                             "Period | Monthly Base Rent | Annual Base Rent\n"
                             "Period: 2025 - 2026 | Monthly Base Rent: $3,100.00 | Annual Base "
                             "Rent: $37,200.00\n"
                             "Period: 2026 - 2027 | Monthly Base Rent: $3,200.00 | Annual Base "
                             "Rent: $38,400.00\n");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$3,100.00 per month");
}

TEST(FieldExtractor, ANameThatSaysWhatItIsEndsThere) {
    // A parser folded the form's title line into the payer's name line.
    const auto got = extract(kRequestFields,
                             "NORTHGATE HEALTH PLAN PRIOR AUTHORIZATION REQUEST - OUTPATIENT "
                             "IMAGING\n"
                             "Review type: Standard\n");
    EXPECT_EQ(got["patient.payer"]["value"], "NORTHGATE HEALTH PLAN");
}

TEST(FieldExtractor, ARuleValueThatRanOnIntoTheNextLabelYields) {
    nlohmann::json result = {
        {"patient",
         {{"payer", field("Northwest Cascade Health (Medicare Advantage) Member number: NWC6004",
                          {{"page", 1}}, 0.9)},
          {"name", field("Date of birth | Ada Quillfeather: March 3, 1966", {{"page", 1}}, 0.9)},
          {"provider", field("Summit Health Plan PPO", {{"page", 1}}, 0.9)},
          {"member_id", field("NWC6004", {{"page", 1}}, 0.9)}}}};
    std::map<std::string, nlohmann::json> typed_fields = {
        {"patient.payer", field("Northwest Cascade Health", {{"page", 1}}, 0.7)},
        {"patient.name", field("Ada Quillfeather", {{"page", 1}}, 0.7)},
        {"patient.provider", field("Summit Health Plan", {{"page", 1}}, 0.7)},
        {"patient.member_id", missingField()}};
    mergeTypedFields(result, typed_fields);
    EXPECT_EQ(result["patient"]["payer"]["value"], "Northwest Cascade Health");
    EXPECT_EQ(result["patient"]["name"]["value"], "Ada Quillfeather");
    // A rule's value that is a whole field stays; so does one the typed fields did not find.
    EXPECT_EQ(result["patient"]["provider"]["value"], "Summit Health Plan PPO");
    EXPECT_EQ(result["patient"]["member_id"]["value"], "NWC6004");
}

TEST(FieldExtractor, ARuleValueWithABracketedNoteYieldsToTheTypedValue) {
    // "Plan: Harbor Mutual (Medicaid managed care)": the note says what kind of plan it is.
    nlohmann::json result = {
        {"payer", field("Harbor Mutual (Medicaid managed care)", {{"page", 1}}, 0.9)},
        {"name", field("Ada Quill (Ms.) Jones", {{"page", 1}}, 0.9)}};
    mergeTypedFields(result, {{"payer", field("Harbor Mutual", {{"page", 1}}, 0.7)},
                              {"name", field("Ada Quill", {{"page", 1}}, 0.7)}});
    EXPECT_EQ(result["payer"]["value"], "Harbor Mutual");
    EXPECT_EQ(result["name"]["value"], "Ada Quill (Ms.) Jones");
    EXPECT_FALSE(withNote("Harbor Mutual", "Harbor Mutual"));
}

TEST(FieldExtractor, ReadsAPageThatAPdfParserFoldedIntoOneLine) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "operating_costs", "type": "text",
       "meaning": ["operating expenses", "proportionate share"]},
      {"path": "permitted_use", "type": "text", "meaning": ["permitted use", "use the premises"]},
      {"path": "notices", "type": "address", "meaning": ["notices"]},
      {"path": "governing_law", "type": "text", "meaning": ["governing law", "laws of"]}
    ])");
    std::string page =
        "ARTICLE 3. RENT 3.1 Base Rent. Tenant shall pay base rent of $4,100.00 per month in "
        "advance on the first day of each month without demand. 3.2 Operating Expenses. Tenant "
        "shall pay Tenant's Proportionate Share (7.5%) of Operating Expenses over the 2025 base "
        "year (the \"Base Year\"). ARTICLE 4. USE 4.1 Tenant shall use the Premises only for a "
        "dental office. ARTICLE 5. NOTICES 5.1 Notices to Landlord shall be sent to 40 Harbor "
        "Street, Portland, Maine 04101. ARTICLE 6. GOVERNING LAW 6.1 This Lease is governed by "
        "the laws of the State of Maine.";
    const auto got = extract(fields, page);
    const std::string costs = got["operating_costs"]["value"];
    EXPECT_EQ(costs.rfind("3.2 Operating Expenses. Tenant shall pay", 0), 0u) << costs;
    EXPECT_NE(costs.find("(7.5%)"), std::string::npos) << costs;
    EXPECT_EQ(costs.find("dental"), std::string::npos) << costs;
    EXPECT_EQ(got["permitted_use"]["value"],
              "ARTICLE 4. USE 4.1 Tenant shall use the Premises only for a dental office.");
    EXPECT_EQ(got["notices"]["value"], "40 Harbor Street, Portland, Maine 04101");
    EXPECT_EQ(got["governing_law"]["value"],
              "ARTICLE 6. GOVERNING LAW 6.1 This Lease is governed by the laws of the State of "
              "Maine.");
}

TEST(FieldExtractor, TwoColumnsOfAFormFoldedIntoOneLine) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "payer", "type": "party", "meaning": ["payer's name", "payer"]}
    ])");
    const auto got = extract(fields,
                             "PAYER'S name, address: RECIPIENT'S name, address: Ostrander & Vale "
                             "Design Studio LLC Rafferty Oyelowo-Quist 310 W 4th Street\n"
                             "Note from payer: invoices paid between January 8, 2024 and "
                             "December 20, 2024.\n");
    EXPECT_EQ(got["payer"]["value"], "Ostrander & Vale Design Studio LLC");
}

TEST(FieldExtractor, ATitleCaseLabelInTheSecondColumnOfAForm) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "planned", "type": "date", "meaning": ["date of service", "planned date"]}
    ])");
    const auto got = extract(fields,
                             "CPT: 95810                  ICD-10: G47.33\n"
                             "Requested Date of Service: 04/14/2025      Priority: Routine\n");
    EXPECT_EQ(got["planned"]["value"], "2025-04-14");
}

TEST(FieldExtractor, ACaptionLineNamesTheTextUnderIt) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "current_title", "type": "text", "meaning": ["current position", "position"]},
      {"path": "name", "type": "party", "meaning": ["position", "name"]}
    ])");
    const auto got = extract(fields,
                             "Current position\n"
                             "Registered Nurse, Intensive Care Unit - Lakeview Hospital (since "
                             "2020)\n");
    EXPECT_EQ(got["current_title"]["value"],
              "Registered Nurse, Intensive Care Unit - Lakeview Hospital (since 2020)");
    // A caption labels a text, not a name.
    EXPECT_TRUE(got["name"]["value"].is_null());
}

const nlohmann::json kListFields = nlohmann::json::parse(R"([
  {"path": "skills", "type": "list", "item": "text", "key": "name", "meaning": ["skills"]},
  {"path": "medications", "type": "list", "item": "dose", "meaning": ["medications", "meds"]},
  {"path": "vitals", "type": "list", "item": "measurement", "meaning": ["vital signs"],
   "values": {"blood pressure": ["blood pressure", "bp"], "heart rate": ["heart rate", "hr"]}},
  {"path": "labs", "type": "list", "item": "measurement", "meaning": ["labs"],
   "units": ["mg/dL"]},
  {"path": "allergies", "type": "list", "item": "text", "meaning": ["allergies"]}
])");

std::vector<std::string> names(const nlohmann::json& list, const std::string& key) {
    std::vector<std::string> out;
    for (const auto& item : list) {
        out.push_back(key.empty() ? item["value"].get<std::string>()
                                  : item["value"][key].get<std::string>());
    }
    return out;
}

TEST(FieldLists, ItemsUnderHeadingsLabelsAndColumnsAndByValueType) {
    const std::string text =
        "Skill | Level\nSkill: Python | Level: expert\nSkill: SQL | Level: good\n\n"
        "Meds: Metformin 500 mg twice daily; lisinopril 20 mg every morning.\n"
        "Allergies: NKDA.\n"
        "Seen today. Home BP 136/82, HR 72. Fasting glucose 287 mg/dL this morning.\n";
    const DocText doc = docOf(text);
    std::map<std::string, nlohmann::json> lists;
    for (const auto& spec : fieldSpecs(kListFields)) lists[spec.path] = extractList(spec, doc);
    EXPECT_EQ(names(lists["skills"], "name"), (std::vector<std::string>{"Python", "SQL"}));
    EXPECT_EQ(names(lists["medications"], "name"),
              (std::vector<std::string>{"Metformin", "lisinopril"}));
    EXPECT_EQ(lists["medications"][0]["value"]["dose"], "500 mg");
    EXPECT_EQ(names(lists["vitals"], "name"),
              (std::vector<std::string>{"blood pressure", "heart rate"}));
    EXPECT_EQ(lists["vitals"][0]["value"]["value"], "136/82");
    EXPECT_EQ(names(lists["labs"], "name"), std::vector<std::string>{"Fasting glucose"});
    EXPECT_TRUE(lists["allergies"].empty());  // stated as none
    EXPECT_EQ(lists["skills"][0]["source"]["page"], 2);
}

TEST(FieldLists, FoldedUpperCaseHeadingsOpenAndCloseSections) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "problems", "type": "list", "item": "text", "key": "description",
       "meaning": ["problems", "diagnoses", "assessment", "pmh"], "avoid": ["family history"]}
    ])");
    const auto spec = fieldSpecs(fields).front();
    // A discharge summary whose parser folded each heading into the paragraph under it.
    const auto summary =
        extractList(spec, docOf("PRINCIPAL DIAGNOSIS Community-acquired "
                                "pneumonia, right lower lobe.\n"
                                "SECONDARY DIAGNOSES\n"
                                "Chronic obstructive pulmonary disease (COPD)\n"
                                "Chronic kidney disease, stage 3a\n"
                                "ALLERGIES Penicillin (hives). Sulfa drugs (rash).\n"
                                "HOSPITAL COURSE Presented with 4 days of cough.\n"));
    EXPECT_EQ(names(summary, "description"),
              (std::vector<std::string>{"Community-acquired pneumonia, right lower lobe",
                                        "Chronic obstructive pulmonary disease (COPD)",
                                        "Chronic kidney disease, stage 3a"}));
    // An ED note's one-line history ends where the next label opens a sentence.
    const auto note = extractList(
        spec, docOf("PMH: Asthma (mild intermittent). No surgeries. Meds: Albuterol HFA 90 mcg "
                    "PRN. Allergies: NKDA. Social: Non-smoker.\n"));
    EXPECT_EQ(names(note, "description"), std::vector<std::string>{"Asthma (mild intermittent)"});
}

TEST(FieldExtractor, DottedLeaderLabelsAndTheirRunOn) {
    plugin::Passage p;
    p.document_id = "d1";
    p.chunk_id = "c1";
    p.text =
        "NORTHBEAM SOFTWARE - EMPLOYEE PROFILE Employee ID ...... NB-0044 Name .......... Tomasz "
        "Adewale-Kirby Work e-mail ....... t.ak@northbeam.example";
    const auto id = labeled({p}, "Employee ID", {"Employee ID", "Name"});
    ASSERT_TRUE(id);
    EXPECT_EQ(id->value, "NB-0044");
    const auto name = labeled({p}, "Name", {"Employee ID", "Name"});
    ASSERT_TRUE(name);
    EXPECT_EQ(name->value, "Tomasz Adewale-Kirby Work e-mail ....... t.ak@northbeam.example");
    EXPECT_TRUE(ranOn(name->value));
    EXPECT_FALSE(ranOn("Tomasz Adewale-Kirby"));
    EXPECT_FALSE(ranOn("Tenant shall pay the rent as follows: monthly"));
}

TEST(FieldLists, APolicysCriteriaAfterTheSentenceThatAnnouncesThem) {
    const auto fields = nlohmann::json::parse(R"([
      {"path": "policy.policy_number", "type": "code", "code": "id",
       "meaning": ["policy number", "policy no"]},
      {"path": "criteria", "type": "list", "item": "text", "key": "text",
       "meaning": ["coverage criteria", "medical necessity criteria", "criteria"],
       "avoid": ["exclusions"]}
    ])");
    const auto specs = fieldSpecs(fields);
    // A text parser folds a paragraph's lines and keeps numbered items apart, without numbers.
    const std::string text =
        "Bayview Mutual Health Medical Policy: Bariatric Surgery Policy Number: BMH-SURG-114\n"
        "Medical necessity criteria Bariatric surgery is considered medically necessary when all "
        "of the following are met:\n"
        "BMI of 40 or more, or BMI of 35 or more with a serious comorbidity.\n"
        "Completion of a medically supervised weight-management program of at least 6 months.\n"
        "Exclusions Revision procedures are reviewed separately.\n";
    const DocText doc = docOf(text);
    EXPECT_EQ(extractField(specs[0], doc, fieldUnits(doc), {})["value"], "BMH-SURG-114");
    EXPECT_EQ(names(extractList(specs[1], doc), "text"),
              (std::vector<std::string>{
                  "BMI of 40 or more, or BMI of 35 or more with a serious comorbidity",
                  "Completion of a medically supervised weight-management program of at least 6 "
                  "months"}));
    // An upper-case policy folded into one line, its criteria lettered.
    const DocText caps = docOf(
        "COVERAGE CRITERIA HOME SLEEP APNEA TESTING IS MEDICALLY NECESSARY WHEN ALL OF THE "
        "FOLLOWING ARE MET: A. THE MEMBER IS 18 YEARS OF AGE OR OLDER. B. A FACE-TO-FACE "
        "EVALUATION IS DOCUMENTED.\n");
    EXPECT_EQ(names(extractList(specs[1], caps), "text"),
              (std::vector<std::string>{"THE MEMBER IS 18 YEARS OF AGE OR OLDER",
                                        "A FACE-TO-FACE EVALUATION IS DOCUMENTED"}));
}

TEST(FieldLists, AParsedTableUnderAHeadingGivesItsRowsOnly) {
    const auto spec = fieldSpecs(nlohmann::json::parse(R"([
      {"path": "skills", "type": "list", "item": "text", "key": "name",
       "meaning": ["skills", "strengths"]}
    ])"))
                          .front();
    // A DOCX review as its parser writes it: no blank lines, the header row's cells before each
    // data cell.
    const auto skills =
        extractList(spec, docOf("Strengths demonstrated this period\n"
                                "Skill | Evidence\n"
                                "Skill: Financial modelling (Excel) | Evidence: Built the "
                                "three-statement model used for the 2026 budget\n"
                                "Skill: Anaplan | Evidence: Model builder for headcount planning\n"
                                "Career interest\n"
                                "Lucia would like to move into the pricing team.\n"));
    EXPECT_EQ(names(skills, "name"),
              (std::vector<std::string>{"Financial modelling (Excel)", "Anaplan"}));
}

TEST(FieldLists, MeaningPhrasesMatchInflections) {
    EXPECT_EQ(findPhrase("secondary diagnoses", "diagnosis"), 10u);
    EXPECT_EQ(findPhrase("| skill | level |", "skills"), 2u);
    EXPECT_EQ(findPhrase("unless sooner terminated", "terminate"), 14u);
    EXPECT_EQ(findPhrase("the term of this lease", "terminate"), std::string::npos);
}

}  // namespace
}  // namespace docintel::plugins
