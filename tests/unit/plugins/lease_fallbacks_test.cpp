// plugins/lease/lease_fallbacks.h: a letter agreement's parties by who signs it, a rent reviewed
// to market rent as its escalation, and a Particulars figure put beside the defined term a clause
// names; and the lease workflow's meaning words for other leases' words (a break option, a
// service charge, a ground rent, a net lease).

#include <fstream>

#include <gtest/gtest.h>

#include "one_passage_doc.h"

#include "lease/lease_fallbacks.h"

namespace docintel::lease {
namespace {

plugins::DocText docOf(const std::string& text) {
    plugins::DocText doc = plugins::test::onePassageDoc(text);
    doc.text += "\n";
    return doc;
}

/// The abstract's typed fields of the lease workflow definition, read from `text`.
nlohmann::json abstractOf(const std::string& text) {
    std::ifstream in(std::string(DOCINTEL_SOURCE_DIR) +
                     "/workflows/lease/lease_intelligence.workflow.json");
    const auto definition = nlohmann::json::parse(in);
    const auto doc = docOf(text);
    const auto units = plugins::fieldUnits(doc);
    nlohmann::json out = nlohmann::json::object();
    for (const auto& spec : plugins::fieldSpecs(definition["fields"], {"abstract."})) {
        out[spec.path] = plugins::extractField(spec, doc, units, {});
    }
    return out;
}

TEST(LeaseFallbacks, TheWorkflowReadsABreakOptionServiceChargeGroundRentAndNetLease) {
    const auto got = abstractOf(
        "3. GROUND RENT\n"
        "3.1 The Lessee shall pay a yearly ground rent of $84,000.00 per year, in arrears.\n"
        "4. OUTGOINGS\n"
        "4.1 This is a fully net lease. The Lessee bears all rates, outgoings and upkeep.\n"
        "5. BREAK CLAUSE\n"
        "5.1 The Lessee may bring this Lease to an end on 1 March 2033 by six months' notice.\n");
    EXPECT_EQ(got["abstract.base_rent"]["value"], "$84,000.00 per year");
    EXPECT_EQ(got["abstract.operating_costs"]["value"],
              "4.1 This is a fully net lease. The Lessee bears all rates, outgoings and upkeep.");
    EXPECT_EQ(got["abstract.termination_rights"]["value"],
              "5.1 The Lessee may bring this Lease to an end on 1 March 2033 by six months' "
              "notice.");
    EXPECT_EQ(abstractOf("7.2 The Tenant shall pay the service charge quarterly on account.\n")
                  ["abstract.operating_costs"]["value"],
              "7.2 The Tenant shall pay the service charge quarterly on account.");
}

TEST(LeaseFallbacks, ALetterAgreementsSignatoriesAreItsParties) {
    const auto doc = docOf(
        "ORCHARD LANE ESTATES, LLC\n"
        "Re: Extension of Lease - Suite 5, 20 Orchard Lane, Akron, Ohio 44301\n"
        "Landlord and Tenant agree to extend the Lease by one year.\n"
        "Orchard Lane Estates, LLC, by Petra Lindqvist, Member\n"
        "ACCEPTED: Quillfeather Print Shop, Inc., by Omar Haddad, President\n");
    EXPECT_EQ(signingParties(doc)["value"],
              "Orchard Lane Estates, LLC (Landlord); Quillfeather Print Shop, Inc. (Tenant)");
    // One signatory names no pair of parties.
    EXPECT_TRUE(
        signingParties(docOf("Orchard Lane Estates, LLC, by Petra Lindqvist, Member\n"))["value"]
            .is_null());
}

TEST(LeaseFallbacks, ARentReviewedToMarketRentIsItsEscalation) {
    const auto doc = docOf(
        "4. RENT REVIEW\n"
        "4.1 On each Review Date the rent shall be reviewed to the open market rent, and shall "
        "not fall.\n"
        "9. OPTION TO RENEW\n"
        "9.1 The Tenant may renew for five years at the open market rent.\n");
    const auto units = plugins::fieldUnits(doc);
    EXPECT_EQ(rentReview(doc, units)["value"],
              "4.1 On each Review Date the rent shall be reviewed to the open market rent, and "
              "shall not fall.");
    // A renewal at market rent is no escalation.
    const auto renewal =
        docOf("9.1 The Tenant may renew for five years at the open market rent.\n");
    EXPECT_TRUE(rentReview(renewal, plugins::fieldUnits(renewal))["value"].is_null());
}

TEST(LeaseFallbacks, AClauseStatesTheFigureItsDefinedTermIsGiven) {
    const auto doc = docOf(
        "Estate Charge Share | 7.25 per cent\n"
        "Insurance Excess | USD 2,500\n");
    const auto units = plugins::fieldUnits(doc);
    EXPECT_EQ(withDefinedFigures("to pay the Estate Charge Share of the costs of the Estate and "
                                 "the Estate Charge Share again.",
                                 units),
              "to pay the Estate Charge Share (7.25 per cent) of the costs of the Estate and the "
              "Estate Charge Share again.");
    // A figure already stated is not repeated.
    EXPECT_EQ(withDefinedFigures("the Estate Charge Share of 7.25 per cent", units),
              "the Estate Charge Share of 7.25 per cent");
}

}  // namespace
}  // namespace docintel::lease
