// SPDX-License-Identifier: MIT
// CUDA graph launches' counter ranges paired with the launch's kernels (graphcounters.h), in
// either order, per kernel node or graph-level; and the judgement of what a launch left.
#include "graphcounters.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::inject;

namespace {

GraphRange range(const std::string& name, double dram)
{
    return GraphRange { name, { core::MetricValue { 0, "dram__bytes.sum", dram, {} } } };
}

GraphKernelRow row(std::int64_t id, const std::string& raw, std::int64_t start)
{
    return GraphKernelRow { id, raw, raw == "_Z1av" ? "a()" : raw == "_Z1bv" ? "b()" : raw, start };
}

double valueOn(const GraphAttribution& a, std::int64_t kernel)
{
    for (const auto& m : a.metrics) {
        if (m.kernelId == kernel)
            return m.value;
    }
    return -1;
}

} // namespace

TEST(GraphCounters, RangesPerKernelNodeGoToTheirKernelsWhicheverArrivesFirst)
{
    GraphCounters g;
    g.expect(7);
    EXPECT_TRUE(g.expects(7));
    EXPECT_TRUE(g.ranges(7, { range("_Z1av", 10), range("b", 20) }).empty()); // no kernel yet
    const auto a = g.kernels(7, { row(100, "_Z1bv", 5), row(101, "_Z1av", 9) });
    EXPECT_EQ(valueOn(a, 100), 20); // "b": b() without its parameters
    EXPECT_EQ(valueOn(a, 101), 10);
    EXPECT_TRUE(a.graphLevel.empty());
    EXPECT_FALSE(g.expects(7)); // done

    // Kernels first, ranges later (a flush delivered the kernels while the launch was being decoded).
    g.expect(8);
    EXPECT_TRUE(g.kernels(8, { row(200, "_Z1av", 1) }).empty());
    const auto b = g.ranges(8, { range("a()", 5) });
    EXPECT_EQ(valueOn(b, 200), 5);
    EXPECT_EQ(g.orphans(), 0u);
}

TEST(GraphCounters, OneRangeNamedForNoKernelIsTheGraphsOnItsFirstKernel)
{
    GraphCounters g;
    g.expect(3);
    g.ranges(3, { range("graph 1", 99) });
    const auto a = g.kernels(3, { row(11, "_Z1bv", 50), row(10, "_Z1av", 20), row(12, "_Z1cv", 80) });
    ASSERT_EQ(a.metrics.size(), 1u);
    EXPECT_EQ(a.metrics[0].kernelId, 10); // the earliest
    EXPECT_EQ(a.metrics[0].value, 99);
    EXPECT_EQ(a.graphLevel, (std::vector<std::int64_t> { 11, 10, 12 }));
    EXPECT_EQ(a.graphLevelKernels, 3);
    EXPECT_TRUE(a.warning.empty());
}

TEST(GraphCounters, SeveralRangesNamedForNoKernelAreNotKept)
{
    GraphCounters g;
    g.expect(4);
    g.ranges(4, { range("x", 1), range("y", 2) });
    const auto a = g.kernels(4, { row(1, "_Z1av", 0) });
    EXPECT_TRUE(a.metrics.empty());
    EXPECT_NE(a.warning.find("named for none of its kernels"), std::string::npos) << a.warning;
    EXPECT_FALSE(g.expects(4));
}

TEST(GraphCounters, NoRangesForgetTheLaunchAndUnmetRangesAreOrphans)
{
    GraphCounters g;
    g.expect(1);
    EXPECT_TRUE(g.ranges(1, {}).empty());
    EXPECT_FALSE(g.expects(1));
    EXPECT_TRUE(g.kernels(1, { row(1, "_Z1av", 0) }).empty()); // not expected any more
    g.expect(2);
    g.ranges(2, { range("_Z1av", 1) });
    EXPECT_EQ(g.orphans(), 1u);
    // An unexpected launch is left alone.
    EXPECT_TRUE(g.ranges(9, { range("_Z1av", 1) }).empty());
}

TEST(GraphCounters, JudgementOfWhatALaunchLeft)
{
    EXPECT_TRUE(judgeGraphRanges(3, 0).keep);
    const auto none = judgeGraphRanges(0, 0);
    EXPECT_FALSE(none.keep);
    EXPECT_NE(none.sentence.find("no counter range for a profiled CUDA graph launch"), std::string::npos);
    const auto dropped = judgeGraphRanges(2, 1);
    EXPECT_FALSE(dropped.keep);
    EXPECT_NE(dropped.sentence.find("dropped 1 counter range"), std::string::npos) << dropped.sentence;
}
