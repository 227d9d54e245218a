// HTML tables and e-mail bodies as blocks: a table's marked header labels every column through
// its spans, and a reply's quoted earlier message reads as prose without its "> " markers.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ingest/email_parser.h"
#include "ingest/html_parser.h"

namespace docintel::ingest {
namespace {

std::vector<std::string> blockTexts(const ParsedDocument& parsed) {
    std::vector<std::string> out;
    for (const auto& b : parsed.pages.at(0).blocks) out.push_back(b.text);
    return out;
}

TEST(HtmlParser, TwoHeaderRowsWithSpansLabelEachColumnTopToBottom) {
    const auto blocks = blockTexts(parseHtmlString(
        "<table><thead>"
        "<tr><th rowspan=\"2\">&nbsp;</th><th colspan=\"2\">Three months ended June 30</th>"
        "<th colspan=\"2\">Six months ended June 30</th></tr>"
        "<tr><th>2026</th><th>2025</th><th>2026</th><th>2025</th></tr>"
        "</thead><tbody>"
        "<tr><td>Fuel</td><td>83,947</td><td>91,318</td><td>168,305</td><td>180,662</td></tr>"
        "</tbody></table>",
        ""));
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0],
              "Three months ended June 30 2026 | Three months ended June 30 2025 | "
              "Six months ended June 30 2026 | Six months ended June 30 2025");
    EXPECT_EQ(blocks[1],
              "Fuel | Three months ended June 30 2026: 83,947 | Three months ended June 30 2025: "
              "91,318 | Six months ended June 30 2026: 168,305 | Six months ended June 30 2025: "
              "180,662");
}

TEST(HtmlParser, ARowSpanningCellIsRepeatedAndAColumnSpanningValueWrittenOnce) {
    const auto blocks = blockTexts(parseHtmlString(
        "<table><tr><th>Region</th><th>Office</th><th>Staff</th><th>Contractors</th></tr>"
        "<tr><td rowspan=\"2\">North</td><td>Leeds</td><td>12</td><td>3</td></tr>"
        "<tr><td>York</td><td colspan=\"2\">none</td></tr></table>",
        ""));
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[1], "Region: North | Office: Leeds | Staff: 12 | Contractors: 3");
    EXPECT_EQ(blocks[2], "Region: North | Office: York | Staff: none");
}

TEST(HtmlParser, ATableWithoutMarkedHeaderTakesItsFirstHeaderLikeRow) {
    const auto blocks =
        blockTexts(parseHtmlString("<table><tr><td>Name</td><td>Role</td></tr>"
                                   "<tr><td>Ann Roe</td><td>Treasurer</td></tr></table>",
                                   ""));
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[1], "Name: Ann Roe | Role: Treasurer");
}

TEST(EmailParser, AQuotedReplyReadsAsProseAfterItsAttribution) {
    const auto path = std::filesystem::temp_directory_path() / "docintel-quoted-reply.eml";
    std::ofstream(path) << "From: Ann Roe <ann@example.org>\r\n"
                           "Subject: Re: Coach hire\r\n"
                           "Content-Type: text/plain; charset=\"utf-8\"\r\n"
                           "\r\n"
                           "Thank you, we go ahead.\r\n"
                           "\r\n"
                           "On Thu, 12 Mar 2026, Rory Baptiste <rory@example.com> wrote:\r\n"
                           "> Our driver would collect the choir from the car park,\r\n"
                           "> Wexcombe, at 5:15 a.m. on Friday.\r\n"
                           ">\r\n"
                           "> > The choir needs a coach\r\n"
                           ">> for four days.\r\n";
    const auto parsed = parseEmail(path.string());
    std::filesystem::remove(path);
    ASSERT_TRUE(parsed);
    const auto blocks = blockTexts(parsed.value());
    ASSERT_EQ(blocks.size(), 5u);
    EXPECT_EQ(blocks[2], "On Thu, 12 Mar 2026, Rory Baptiste <rory@example.com> wrote:");
    EXPECT_EQ(blocks[3],
              "Our driver would collect the choir from the car park, Wexcombe, at 5:15 a.m. on "
              "Friday.");
    EXPECT_EQ(blocks[4], "The choir needs a coach for four days.");
}

}  // namespace
}  // namespace docintel::ingest
