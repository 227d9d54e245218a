// agent_mode's choice of run fields (knowledge/run_facts.h): which packet members are fields,
// their labels, the fact sentence, and the off / auto / force rule.

#include <gtest/gtest.h>

#include "knowledge/run_facts.h"

namespace docintel::knowledge {
namespace {

using nlohmann::json;

json field(const json& value, int page = 1) {
    return {
        {"value", value},
        {"source", {{"document_id", "doc-1"}, {"page", page}, {"chunk_id", "c"}, {"excerpt", "x"}}},
        {"confidence", 0.9}};
}

const json& packet() {
    static const json p = {
        {"abstract",
         {{"base_rent", field("$24,650.00 per month")},
          {"security_deposit", field("$49,300.00", 2)},
          {"guarantor", {{"value", nullptr}, {"source", nullptr}, {"confidence", 0}}}}},
        {"critical_dates", json::array({json{{"value", "2025-04-01"},
                                             {"event", "Commencement"},
                                             {"source", nullptr},
                                             {"confidence", 1}}})},
        {"amendment_changes", json::array({json{{"term", "base_rent"},
                                                {"original", field("$24,650.00 per month")},
                                                {"amended", field("$26,900.00 per month")}}})},
        {"risk_flags", json::array({"Relocation clause"})}};
    return p;
}

TEST(RunFacts, PacketFieldsLabelsAndText) {
    const auto facts = packetFacts(packet());
    ASSERT_EQ(facts.size(), 5u);  // the null guarantor and the plain string list are not fields
    EXPECT_EQ(facts[0].field, "/abstract/base_rent");
    EXPECT_EQ(facts[0].label, "base rent");
    EXPECT_EQ(facts[0].section, "abstract");
    EXPECT_EQ(facts[0].document_id, "doc-1");
    EXPECT_EQ(facts[1].page, 2);
    EXPECT_EQ(facts[2].field, "/amendment_changes/0/amended");
    EXPECT_EQ(facts[2].label, "base rent amended");
    EXPECT_EQ(facts[2].section, "amendment changes");
    EXPECT_EQ(facts[4].field, "/critical_dates/0");
    EXPECT_EQ(facts[4].label, "critical dates Commencement");
    EXPECT_TRUE(facts[4].document_id.empty());  // no citation

    RunFact f = facts[0];
    f.workflow = "lease_intelligence";
    f.status = "pending_review";
    EXPECT_EQ(
        runFactText(f),
        "Base rent (lease_intelligence run, abstract, pending review): $24,650.00 per month.");
}

TEST(RunFacts, OffAutoForce) {
    const auto facts = packetFacts(packet());
    EXPECT_TRUE(chooseRunFacts("off", analyseQuestion("What is the base rent?"), facts, 6).empty());

    const auto rent =
        chooseRunFacts("auto", analyseQuestion("What is the monthly base rent?"), facts, 6);
    ASSERT_FALSE(rent.empty());
    EXPECT_EQ(facts[rent[0]].field, "/abstract/base_rent");
    for (const auto i : rent)
        EXPECT_GE(labelMatch(analyseQuestion("What is the monthly base rent?"), facts[i]), 0.5);
    EXPECT_TRUE(chooseRunFacts("auto", analyseQuestion("Where may the tenant park cars?"), facts, 6)
                    .empty());
    EXPECT_TRUE(
        chooseRunFacts("auto", analyseQuestion("Is smoking allowed in the building?"), facts, 6)
            .empty());
    // A question about the workflow's results takes them all (capped).
    EXPECT_EQ(
        chooseRunFacts("auto", analyseQuestion("What did the workflow extract?"), facts, 3).size(),
        3u);

    const auto forced =
        chooseRunFacts("force", analyseQuestion("Where may the tenant park cars?"), facts, 6);
    EXPECT_EQ(forced.size(), facts.size());
    const auto deposit =
        chooseRunFacts("force", analyseQuestion("How much is the security deposit?"), facts, 2);
    ASSERT_EQ(deposit.size(), 2u);
    EXPECT_EQ(facts[deposit[0]].field, "/abstract/security_deposit");
}

}  // namespace
}  // namespace docintel::knowledge
