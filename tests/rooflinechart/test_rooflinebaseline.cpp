// SPDX-License-Identifier: MIT
// Arrows from a baseline session's points to the current ones, and per-precision points.
#include "ridgeline/core/analysis/rooflinechart.h"

#include <gtest/gtest.h>

using namespace ridgeline::core;

namespace {

// A kernel with counters: FP32 and FP16 tensor work over `seconds`, with DRAM traffic.
KernelSummary kernel(const std::string& name, const std::string& device, std::int64_t deviceId, double fp32,
    double tensor, double dramBytes, double seconds)
{
    KernelSummary row;
    row.name = name;
    row.deviceName = device;
    row.deviceId = deviceId;
    row.nameId = static_cast<std::int64_t>(std::hash<std::string>()(name) % 1000);
    row.shareOfKernelTime = 0.25;
    auto& a = row.analysis;
    a.hasCounters = true;
    if (fp32 > 0)
        a.flopsByPrecision[Resource::FP32] = fp32;
    if (tensor > 0)
        a.flopsByPrecision[Resource::FP16Tensor] = tensor;
    a.flops = fp32 + tensor;
    a.achievedFlopsPerS = (fp32 + tensor) / seconds;
    a.bytesByLevel[Resource::DRAM] = dramBytes;
    a.intensity[Resource::DRAM] = (fp32 + tensor) / dramBytes;
    return row;
}

std::string keyOf(const RooflineChart& chart, const std::vector<KernelSummary>& rows, std::size_t point)
{
    const auto& p = chart.points[point];
    return rows[p.kernel].name + "@" + rows[p.kernel].deviceName + "/" + p.precision;
}

} // namespace

TEST(RooflineBaseline, ArrowsJoinTheSameKernelOnTheSameGpuModel)
{
    const std::vector<KernelSummary> before { kernel("gemm", "H100", 0, 1e9, 0, 1e8, 1e-3),
        kernel("softmax", "H100", 0, 1e7, 0, 1e8, 1e-4), kernel("gone", "H100", 0, 1e7, 0, 1e7, 1e-4) };
    const std::vector<KernelSummary> after { kernel("softmax", "H100", 3, 1e7, 0, 5e7, 5e-5),
        kernel("gemm", "H100", 3, 1e9, 0, 1e8, 5e-4), kernel("gemm", "A100", 4, 1e9, 0, 1e8, 1e-3),
        kernel("new", "H100", 3, 1e7, 0, 1e7, 1e-4) };
    const auto baseline = buildRooflineChart({}, before, {});
    const auto current = buildRooflineChart({}, after, {});
    const auto arrows = matchRooflineBaseline(baseline, before, current, after);
    ASSERT_EQ(arrows.size(), 2u); // gemm and softmax on the H100; not the A100 gemm, "gone" or "new"
    for (const auto& arrow : arrows) {
        EXPECT_EQ(keyOf(baseline, before, arrow.baselinePoint), keyOf(current, after, arrow.currentPoint));
        EXPECT_EQ(after[current.points[arrow.currentPoint].kernel].deviceName, "H100");
    }
    // The gemm doubled its rate at the same intensity.
    for (const auto& arrow : arrows) {
        const auto& from = baseline.points[arrow.baselinePoint];
        const auto& to = current.points[arrow.currentPoint];
        if (before[from.kernel].name == "gemm") {
            EXPECT_DOUBLE_EQ(to.flopsPerS, 2 * from.flopsPerS);
            EXPECT_DOUBLE_EQ(to.intensity, from.intensity);
        }
    }
}

TEST(RooflineBaseline, SameKernelOnIdenticalGpusPairsInOrder)
{
    const std::vector<KernelSummary> before { kernel("k", "H100", 0, 1e9, 0, 1e8, 1e-3),
        kernel("k", "H100", 1, 1e9, 0, 1e8, 2e-3) };
    const std::vector<KernelSummary> after { kernel("k", "H100", 0, 1e9, 0, 1e8, 5e-4),
        kernel("k", "H100", 1, 1e9, 0, 1e8, 1e-3) };
    const auto baseline = buildRooflineChart({}, before, {});
    const auto current = buildRooflineChart({}, after, {});
    const auto arrows = matchRooflineBaseline(baseline, before, current, after);
    ASSERT_EQ(arrows.size(), 2u);
    for (const auto& arrow : arrows)
        EXPECT_EQ(baseline.points[arrow.baselinePoint].kernel, current.points[arrow.currentPoint].kernel);
}

TEST(RooflinePerPrecision, PointsSplitTheCombinedRateByPrecision)
{
    const std::vector<KernelSummary> rows { kernel("mixed", "H100", 0, 2e9, 6e9, 4e8, 1e-3) };
    RooflineChartOptions options;
    options.mode = RooflinePointMode::PerPrecision;
    const auto split = buildRooflineChart({}, rows, options);
    const auto combined = buildRooflineChart({}, rows, {});
    ASSERT_EQ(combined.points.size(), 1u);
    ASSERT_EQ(split.points.size(), 2u);
    double sum = 0;
    for (const auto& p : split.points) {
        const double ops = p.precision == "FP32" ? 2e9 : 6e9;
        EXPECT_DOUBLE_EQ(p.flopsPerS, ops / 1e-3);
        EXPECT_DOUBLE_EQ(p.intensity, ops / 4e8);
        sum += p.flopsPerS;
    }
    EXPECT_DOUBLE_EQ(sum, combined.points[0].flopsPerS);
    EXPECT_TRUE(combined.points[0].precision.empty());
}
