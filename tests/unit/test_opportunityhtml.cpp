// SPDX-License-Identifier: MIT
// The HTML report's Opportunities section (issue 34) on the bundled sessions: the A100 example's
// first rows with their names, recoverable times and advice, in core's order, the top 20 of its
// rows, the whole job's line; the two-rank PyTorch example, whose GPU time has no roof, listed
// apart with the reasons. Every expected value is worked out with core::findOpportunities on a
// reader of the test's own.
#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sstream>

using namespace ridgeline::core;

namespace {

const std::string kOppHtmlA100 = RIDGELINE_EXAMPLES_DIR "/a100-linear-ncu.ridge";
const std::string kOppHtmlTwoRanks = RIDGELINE_EXAMPLES_DIR "/pytorch-two-ranks.ridge";

Opportunities oppHtmlTestExpected(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto found = findOpportunities(reader.value());
    EXPECT_TRUE(found.ok()) << found.error().message;
    return std::move(found).value();
}

// The report's Opportunities section: from its heading to the next <h2>.
std::string oppHtmlTestSection(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    std::ostringstream out;
    const auto written = writeHtmlReport(reader.value(), out);
    EXPECT_TRUE(written.ok()) << written.error().message;
    const std::string html = out.str();
    const auto begin = html.find("<h2>Opportunities</h2>");
    EXPECT_NE(begin, std::string::npos);
    if (begin == std::string::npos)
        return {};
    return html.substr(begin, html.find("<h2>", begin + 1) - begin);
}

std::string oppHtmlTestTime(std::int64_t ns)
{
    return formatDuration(static_cast<double>(ns));
}

// Where ranked row `rank` (1-based) begins in the section.
std::size_t oppHtmlTestRowAt(const std::string& section, std::size_t rank)
{
    return section.find(fmt::format("<tr><td class=\"num\">{}</td><td class=\"num bar\"", rank));
}

} // namespace

TEST(OpportunityHtml, A100ExampleListsTheFirstRowsInCoresOrderWithTheirAdvice)
{
    const auto expected = oppHtmlTestExpected(kOppHtmlA100);
    const auto section = oppHtmlTestSection(kOppHtmlA100);
    ASSERT_GT(expected.rows.size(), 20u); // 25 kernels: the top 20 are shown
    EXPECT_NE(section.find(fmt::format("At its roofs the GPU would do this work in {}; it took {}: {} recoverable "
                                       "({:.1f} % of GPU time).",
                  oppHtmlTestTime(expected.timeAtRoofNs), oppHtmlTestTime(expected.rankedTimeNs),
                  oppHtmlTestTime(expected.recoverableNs),
                  100.0 * static_cast<double>(expected.recoverableNs) / static_cast<double>(expected.gpuTimeNs))),
        std::string::npos)
        << section.substr(0, 2000);
    EXPECT_NE(section.find("the 20 with the most recoverable time are shown"), std::string::npos);
    EXPECT_NE(oppHtmlTestRowAt(section, 20), std::string::npos);
    EXPECT_EQ(oppHtmlTestRowAt(section, 21), std::string::npos);
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& row = expected.rows[i];
        const auto begin = oppHtmlTestRowAt(section, i + 1);
        const auto end = oppHtmlTestRowAt(section, i + 2);
        ASSERT_NE(begin, std::string::npos) << i;
        ASSERT_LT(begin, end) << i; // in core's order
        const std::string html = section.substr(begin, end - begin);
        EXPECT_NE(html.find(">" + oppHtmlTestTime(row.recoverableNs) + "</td>"), std::string::npos) << html;
        EXPECT_NE(html.find(">" + htmlEscape(row.name) + "</td>"), std::string::npos) << html;
        ASSERT_FALSE(row.advice.empty());
        for (const auto& advice : row.advice)
            EXPECT_NE(html.find("<li>" + htmlEscape(advice) + "</li>"), std::string::npos) << advice;
    }
    EXPECT_EQ(section.find("No roof:"), std::string::npos); // every A100 kernel has counters and a roof
}

TEST(OpportunityHtml, SessionWithoutFiguresListsItsTimeApartWithTheReasons)
{
    const auto expected = oppHtmlTestExpected(kOppHtmlTwoRanks);
    const auto section = oppHtmlTestSection(kOppHtmlTwoRanks);
    ASSERT_TRUE(expected.rows.empty());
    ASSERT_FALSE(expected.unranked.empty());
    EXPECT_NE(section.find(fmt::format(
                  "None of the {} of GPU time has figures and a roof", oppHtmlTestTime(expected.gpuTimeNs))),
        std::string::npos)
        << section.substr(0, 2000);
    std::int64_t apart = 0;
    for (const auto& u : expected.unranked)
        apart += u.gpuTimeNs;
    EXPECT_NE(section.find(fmt::format("No roof: {} ({:.1f} % of GPU time)", oppHtmlTestTime(apart),
                  100.0 * static_cast<double>(apart) / static_cast<double>(expected.gpuTimeNs))),
        std::string::npos);
    const auto& top = expected.unranked.front();
    EXPECT_NE(
        section.find(fmt::format("<tr><td class=\"num\">{}</td>", oppHtmlTestTime(top.gpuTimeNs))), std::string::npos);
    EXPECT_NE(section.find(htmlEscape(top.reason)), std::string::npos);
}
