// SPDX-License-Identifier: MIT
// The roofline chart view-model against figures worked out here from the sessions' own counters
// and ceilings (docs/ROOFLINE.md formulas), not from the analysis it is built on.
#include "expected.h"
#include "fixtures.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>

using namespace ridgeline;
using core::RooflineChart;
using core::RooflinePointMode;

namespace {

class RooflineChartTest : public ::testing::Test {
protected:
    void openSmallFixture()
    {
        const auto path = m_dir.file("small.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
        open(path);
    }
    void openNcu(const std::string& fixture)
    {
        const auto path = m_dir.file("ncu.ridge");
        auto imported = collectors::importNcuCsv(std::string(RIDGELINE_TEST_DATA_DIR) + "/ncu/" + fixture, path, true);
        ASSERT_TRUE(imported.ok()) << imported.error().message;
        open(path);
    }
    void open(const std::string& path)
    {
        auto reader = core::SessionReader::open(path);
        ASSERT_TRUE(reader.ok()) << reader.error().message;
        m_reader.emplace(std::move(reader).value());
        auto rows = core::summarizeKernels(*m_reader);
        ASSERT_TRUE(rows.ok());
        m_rows = std::move(rows).value();
        auto ceilings = m_reader->ceilings();
        ASSERT_TRUE(ceilings.ok());
        m_ceilings = std::move(ceilings).value();
    }
    RooflineChart chart(RooflinePointMode mode = RooflinePointMode::Combined, std::vector<std::int64_t> devices = {})
    {
        core::RooflineChartOptions options;
        options.mode = mode;
        options.deviceIds = std::move(devices);
        return core::buildRooflineChart(m_ceilings, m_rows, options);
    }

    ridgeline::testing::TempDir m_dir;
    std::optional<core::SessionReader> m_reader;
    std::vector<core::KernelSummary> m_rows;
    std::vector<core::Ceiling> m_ceilings;
};

// Every point of the chart is one of the expected ones and every expected one is on the chart.
void expectPointsMatch(const RooflineChart& chart, const std::vector<core::KernelSummary>& rows,
    const std::vector<ridgeline::testing::ExpectedPoint>& expected)
{
    ASSERT_EQ(chart.points.size(), expected.size());
    for (const auto& e : expected) {
        SCOPED_TRACE(e.name + " " + e.level + " " + e.precision);
        auto it = std::find_if(chart.points.begin(), chart.points.end(), [&](const core::RooflinePoint& p) {
            return rows[p.kernel].name == e.name && rows[p.kernel].deviceId == e.deviceId && p.level == e.level
                && p.precision == e.precision;
        });
        ASSERT_NE(it, chart.points.end());
        EXPECT_NEAR(it->intensity, e.intensity, 1e-9 * e.intensity);
        EXPECT_NEAR(it->flopsPerS, e.flopsPerS, 1e-9 * e.flopsPerS);
        EXPECT_NEAR(it->timeShare, e.timeShare, 1e-12);
    }
}

} // namespace

TEST_F(RooflineChartTest, SmallFixtureCeilingsRidgeAndPointMatchTheCounters)
{
    openSmallFixture();
    const auto c = chart();
    // Ceilings: the fixture records DRAM 3.35 TB/s and FP32 67 TFLOP/s (datasheet) on device 0.
    const auto ceilings = ridgeline::testing::expectedBestCeilings(m_ceilings, {});
    ASSERT_EQ(c.memory.size(), 1u);
    ASSERT_EQ(c.compute.size(), 1u);
    EXPECT_EQ(c.memory[0].resource, "DRAM");
    EXPECT_DOUBLE_EQ(c.memory[0].value, ceilings.at({ 0, "DRAM" }).value);
    EXPECT_EQ(c.memory[0].source, core::CeilingSource::Datasheet);
    EXPECT_EQ(c.memory[0].label, "DRAM 3.35 TB/s (datasheet)");
    EXPECT_EQ(c.compute[0].resource, "FP32");
    EXPECT_DOUBLE_EQ(c.compute[0].value, ceilings.at({ 0, "FP32" }).value);
    EXPECT_EQ(c.compute[0].label, "FP32 67 TFLOP/s (datasheet)");
    EXPECT_EQ(c.compute[0].deviceIds, std::vector<std::int64_t> { 0 });

    ASSERT_EQ(c.ridges.size(), 1u);
    EXPECT_DOUBLE_EQ(c.ridges[0].intensity, 67e12 / 3.35e12);
    EXPECT_DOUBLE_EQ(c.ridges[0].flopsPerS, 67e12);

    const auto expected = ridgeline::testing::expectedPoints(*m_reader, m_rows, { "DRAM", "L2", "L1" }, false);
    ASSERT_EQ(expected.size(), 1u); // vectorAdd on device 0: 262144 FADD, 2 MiB of DRAM in 1 µs
    EXPECT_DOUBLE_EQ(expected[0].intensity, 262144.0 / 2097152.0);
    expectPointsMatch(c, m_rows, expected);
    // Its roof at that intensity is the DRAM slope: 3.35 TB/s x 0.125 FLOP/B.
    const auto& p = c.points[0];
    ASSERT_TRUE(p.attainable && p.fractionOfRoof);
    EXPECT_DOUBLE_EQ(*p.attainable, 3.35e12 * 0.125);
    EXPECT_NEAR(*p.fractionOfRoof, 262144.0 / 1e-6 / (3.35e12 * 0.125), 1e-12);
    EXPECT_DOUBLE_EQ(*p.computeCeiling, 67e12);
    EXPECT_DOUBLE_EQ(*p.bandwidthCeiling, 3.35e12);
}

TEST_F(RooflineChartTest, KernelsWithoutCountersAreListedNotPlotted)
{
    openSmallFixture();
    const auto c = chart();
    // Five kernels by name and device; only vectorAdd on device 0 has counters.
    ASSERT_EQ(m_rows.size(), 5u);
    ASSERT_EQ(c.unplotted.size(), 4u);
    for (const auto& u : c.unplotted) {
        EXPECT_FALSE(m_rows[u.kernel].analysis.hasCounters);
        EXPECT_EQ(u.reason, "no hardware counters");
        for (const auto& p : c.points)
            EXPECT_NE(p.kernel, u.kernel);
    }
}

TEST_F(RooflineChartTest, DeviceFilterKeepsItsCeilingsAndKernelsOnly)
{
    openSmallFixture();
    const auto device1 = chart(RooflinePointMode::Combined, { 1 });
    EXPECT_TRUE(device1.memory.empty()); // the fixture records ceilings for device 0 only
    EXPECT_TRUE(device1.compute.empty());
    EXPECT_TRUE(device1.points.empty());
    EXPECT_EQ(device1.unplotted.size(), 3u);
    for (const auto& u : device1.unplotted)
        EXPECT_EQ(m_rows[u.kernel].deviceId, 1);
    const auto device0 = chart(RooflinePointMode::Combined, { 0 });
    EXPECT_EQ(device0.points.size(), 1u);
    EXPECT_EQ(device0.unplotted.size(), 1u); // ampere_sgemm
}

TEST_F(RooflineChartTest, HierarchicalNcuFixtureMatchesCountersPerLevelAndPrecision)
{
    openNcu("raw-nersc.csv");
    for (const auto mode : { RooflinePointMode::Combined, RooflinePointMode::PerPrecision }) {
        const bool perPrecision = mode == RooflinePointMode::PerPrecision;
        SCOPED_TRACE(perPrecision ? "per precision" : "combined");
        const auto c = chart(mode);
        const auto expected
            = ridgeline::testing::expectedPoints(*m_reader, m_rows, { "DRAM", "L2", "L1" }, perPrecision);
        ASSERT_FALSE(expected.empty());
        expectPointsMatch(c, m_rows, expected);
    }
    // The tensor GEMM has DRAM, L2 and L1 points, each at FLOPs / bytes of that level.
    const auto c = chart();
    const auto levels = std::count_if(c.points.begin(), c.points.end(),
        [&](const auto& p) { return m_rows[p.kernel].name == "volta_h884gemm_128x128_ldg8_nn"; });
    EXPECT_EQ(levels, 3);
}

TEST_F(RooflineChartTest, CeilingsAreTheBestPerResourceWithTheirSource)
{
    openNcu("raw-roofline.csv");
    const auto c = chart();
    const auto best = ridgeline::testing::expectedBestCeilings(m_ceilings, {});
    std::size_t memory = 0, compute = 0;
    for (const auto& [key, ceiling] : best) {
        const bool isMemory = key.second == "DRAM" || key.second == "L2" || key.second == "L1";
        const auto& lines = isMemory ? c.memory : c.compute;
        if (key.second == "INT8_tensor" || key.second == "NVLink" || key.second == "PCIe")
            continue;
        (isMemory ? memory : compute)++;
        SCOPED_TRACE(key.second);
        auto it = std::find_if(
            lines.begin(), lines.end(), [&resource = key.second](const auto& l) { return l.resource == resource; });
        ASSERT_NE(it, lines.end());
        EXPECT_DOUBLE_EQ(it->value, ceiling.value);
        EXPECT_EQ(it->source, ceiling.source);
    }
    EXPECT_EQ(c.memory.size(), memory);
    EXPECT_EQ(c.compute.size(), compute);
    ASSERT_FALSE(c.compute.empty());
    EXPECT_TRUE(std::is_sorted(
        c.compute.begin(), c.compute.end(), [](const auto& a, const auto& b) { return a.value > b.value; }));
    // A ridge point for every (slope, roof) pair, at peak / bandwidth.
    EXPECT_EQ(c.ridges.size(), c.memory.size() * c.compute.size());
    for (const auto& r : c.ridges) {
        const auto m = std::find_if(c.memory.begin(), c.memory.end(), [&](auto& l) { return l.resource == r.memory; });
        const auto k
            = std::find_if(c.compute.begin(), c.compute.end(), [&](auto& l) { return l.resource == r.compute; });
        ASSERT_TRUE(m != c.memory.end() && k != c.compute.end());
        EXPECT_DOUBLE_EQ(r.intensity, k->value / m->value);
        EXPECT_DOUBLE_EQ(r.flopsPerS, k->value);
    }
}

TEST_F(RooflineChartTest, LogRangesCoverEveryPointRidgeAndCeiling)
{
    for (const auto* fixture : { "raw-roofline.csv", "raw-nersc.csv", "details.csv" }) {
        SCOPED_TRACE(fixture);
        openNcu(fixture);
        for (const auto mode : { RooflinePointMode::Combined, RooflinePointMode::PerPrecision }) {
            const auto c = chart(mode);
            const auto& ax = c.axes;
            EXPECT_EQ(ax.xMinLog, std::floor(ax.xMinLog)); // whole decades
            EXPECT_EQ(ax.yMaxLog, std::ceil(ax.yMaxLog));
            EXPECT_LT(ax.xMinLog, ax.xMaxLog);
            EXPECT_LT(ax.yMinLog, ax.yMaxLog);
            for (const auto& p : c.points) {
                EXPECT_GE(p.intensity, ax.xMin());
                EXPECT_LE(p.intensity, ax.xMax());
                EXPECT_GE(p.flopsPerS, ax.yMin());
                EXPECT_LE(p.flopsPerS, ax.yMax());
            }
            for (const auto& r : c.ridges) {
                EXPECT_GE(r.intensity, ax.xMin());
                EXPECT_LE(r.intensity, ax.xMax());
            }
            for (const auto& l : c.compute) {
                EXPECT_GE(l.value, ax.yMin());
                EXPECT_LE(l.value, ax.yMax());
                EXPECT_LT(l.x0, l.x1);
            }
            for (const auto& l : c.memory) {
                EXPECT_LT(l.x0, l.x1);
                EXPECT_NEAR(l.y0, l.value * l.x0, 1e-9 * l.y0); // on the slope, inside the axes
                EXPECT_GE(l.x0, ax.xMin() * (1 - 1e-12));
                EXPECT_GE(l.y0, ax.yMin() * (1 - 1e-12));
                EXPECT_LE(l.y1, ax.yMax() * (1 + 1e-12));
            }
        }
    }
}

TEST(RooflineChart, EmptyInputGivesAnEmptyChartWithDefaultAxes)
{
    const auto c = core::buildRooflineChart({}, {}, {});
    EXPECT_TRUE(c.empty());
    EXPECT_TRUE(c.unplotted.empty());
    EXPECT_LT(c.axes.xMinLog, c.axes.xMaxLog);
    EXPECT_LT(c.axes.yMinLog, c.axes.yMaxLog);
}

TEST(RooflineChart, BestCeilingPerDeviceAndResource)
{
    using core::CeilingSource;
    const std::vector<core::Ceiling> all {
        { 0, "DRAM", 3.0e12, "B/s", CeilingSource::Datasheet, "" },
        { 0, "DRAM", 2.8e12, "B/s", CeilingSource::Measured, "" },
        { 0, "FP32", 60e12, "FLOP/s", CeilingSource::Counters, "" },
        { 0, "FP32", 62e12, "FLOP/s", CeilingSource::Counters, "" },
        { 1, "DRAM", 3.0e12, "B/s", CeilingSource::Datasheet, "" },
        { 1, "L2", -1, "B/s", CeilingSource::Measured, "" },
    };
    const auto best = core::selectCeilings(all);
    ASSERT_EQ(best.size(), 3u);
    EXPECT_EQ(best[0].source, CeilingSource::Measured); // device 0 DRAM: measured wins over a higher datasheet
    EXPECT_DOUBLE_EQ(best[1].value, 60e12); // of one source, the first listed (the most specific)
    EXPECT_EQ(best[2].deviceId, 1);
    // Identical ceilings of two devices are one line.
    const auto c = core::buildRooflineChart(std::vector<core::Ceiling> { all[0], all[4] }, {}, {});
    ASSERT_EQ(c.memory.size(), 1u);
    EXPECT_EQ(c.memory[0].deviceIds, (std::vector<std::int64_t> { 0, 1 }));
}

// Counters a hostile or corrupt session can hold: their ratios overflow a double. Such a kernel is
// listed with the reason, never plotted, and the axes stay finite (fuzz_session found a chart whose
// range was infinite: tests/fuzz/regressions/session/roofline-infinite-*.ridge).
TEST(RooflineChart, InfiniteCountersAreListedWithTheirReasonAndKeepTheAxesFinite)
{
    const double inf = std::numeric_limits<double>::infinity();
    auto kernel = [](double flops, double flopsPerS, core::ResourceMap<double> intensity) {
        core::KernelSummary row;
        row.analysis.hasCounters = true;
        row.analysis.flops = flops;
        row.analysis.achievedFlopsPerS = flopsPerS;
        row.analysis.flopsByPrecision = { { core::Resource::FP32, flops } };
        row.analysis.intensity = std::move(intensity);
        row.shareOfKernelTime = 0.2;
        return row;
    };
    const std::vector<core::KernelSummary> rows {
        kernel(1e9, 1e12, { { core::Resource::DRAM, 10.0 } }), // plotted
        kernel(inf, 1e12, { { core::Resource::DRAM, 10.0 } }), // infinite FLOPs
        kernel(1e9, inf, { { core::Resource::DRAM, 10.0 } }), // infinite FLOP/s
        kernel(1e9, 1e12, { { core::Resource::DRAM, inf } }), // infinite DRAM intensity
        kernel(1e9, 1e12, {}), // no traffic at all
    };
    const std::vector<core::Ceiling> ceilings {
        { 0, "DRAM", 2.0e12, "B/s", core::CeilingSource::Datasheet, "" },
        { 0, "FP32", inf, "FLOP/s", core::CeilingSource::Counters, "" },
        { 0, "FP64", 9.7e12, "FLOP/s", core::CeilingSource::Datasheet, "" },
    };
    for (const auto mode : { RooflinePointMode::Combined, RooflinePointMode::PerPrecision }) {
        core::RooflineChartOptions options;
        options.mode = mode;
        const auto c = core::buildRooflineChart(ceilings, rows, options);
        ASSERT_EQ(c.points.size(), 1u);
        EXPECT_EQ(c.points[0].kernel, 0u);
        ASSERT_EQ(c.unplotted.size(), 4u);
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(c.unplotted[i].kernel, i + 1);
            EXPECT_EQ(c.unplotted[i].reason, "counter values too large to plot (infinite)");
        }
        EXPECT_EQ(c.unplotted[3].reason, "no DRAM/L2/L1 traffic counted");
        for (const double v : { c.axes.xMinLog, c.axes.xMaxLog, c.axes.yMinLog, c.axes.yMaxLog })
            EXPECT_TRUE(std::isfinite(v)) << v;
        // The point's decade and the finite roof's are inside the axes.
        EXPECT_LE(c.axes.yMinLog, 12);
        EXPECT_GE(c.axes.yMaxLog, std::log10(9.7e12));
        EXPECT_LE(c.axes.xMinLog, 1);
        EXPECT_GE(c.axes.xMaxLog, 1);
    }
}
