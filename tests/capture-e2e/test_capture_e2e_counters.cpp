// SPDX-License-Identifier: MIT
// End-to-end capture tests (test_capture_e2e.cpp says what they run) of the counter ranges:
// foreign, dropped and uncollected counters, launches of several threads and of every kind kept
// out of a profiled launch's range, and the counters of CUDA graph launches (per node, per launch,
// none).
#include "e2e.h"
#include "e2echecks.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace ridgeline;
using namespace ridgeline::e2e;
using ridgeline::testing::TempDir;

TEST(CaptureEndToEnd, ForeignAndDroppedRangesLeaveThoseLaunchesWithoutCounters)
{
    TempDir dir;
    // Launches 2 and 4 of the run: one records another kernel's range too, one loses its range.
    const auto run = capture(dir, { "threads", "1", "6" }, { { "RIDGELINE_FAKE_RANGE_CUES=foreign:2,dropped:4" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_EQ(s.kernels.size(), 6u);
    EXPECT_EQ(s.metrics.size(), 4u);
    EXPECT_EQ(run.ledger.count("rangedrop"), 1u);
    EXPECT_NE(s.warnings().find("recorded 2 counter ranges instead of one"), std::string::npos) << s.warnings();
    EXPECT_NE(s.warnings().find("CUPTI dropped the counter range"), std::string::npos) << s.warnings();
    EXPECT_EQ(s.meta.at("status"), "complete");
}

TEST(CaptureEndToEnd, ACounterNotCollectedIsMissingNotZero)
{
    TempDir dir;
    const auto run = capture(dir, { "threads", "1", "2" }, { { "RIDGELINE_FAKE_NAN_METRIC=dram__bytes.sum" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_EQ(s.metrics.size(), 2u);
    for (const auto& [kernel, values] : s.metrics) {
        EXPECT_EQ(values.count("dram__bytes.sum"), 0u);
        EXPECT_EQ(values.count("lts__t_bytes.sum"), 1u);
    }
    EXPECT_NE(s.warnings().find("could not be collected"), std::string::npos) << s.warnings();
    EXPECT_NE(s.warnings().find("dram__bytes.sum"), std::string::npos) << s.warnings();
}

TEST(CaptureEndToEnd, ThreadsLaunchingTogetherAreSerialisedForCounters)
{
    TempDir dir;
    // Every launch is profiled; each takes 300 us longer (its replay), a window another thread's
    // kernel would fall into without the launch gate.
    const auto run = capture(dir, { "threads", "4", "10" }, { { "RIDGELINE_FAKE_REPLAY_US=300" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_EQ(s.kernels.size(), 40u);
    EXPECT_EQ(s.metrics.size(), 40u);
    EXPECT_EQ(run.ledger.count("range"), 40u) << "a range held another thread's kernel";
    EXPECT_EQ(s.warnings().find("instead of one"), std::string::npos) << s.warnings();
    EXPECT_EQ(expectCounters(run), 40u);
}

TEST(CaptureEndToEnd, EveryKindOfLaunchWaitsWhileAProfiledOneIsInFlight)
{
    TempDir dir;
    // Only sgemm is profiled; another thread keeps launching through cuLaunch, cuLaunchGrid,
    // cuLaunchGridAsync, cuGraphLaunch and the multi-device launch. None may land in a range.
    const auto run
        = capture(dir, { "gate", "8" }, { { "RIDGELINE_FAKE_REPLAY_US=2000" }, { "--kernel-regex", "sgemm" } });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.kernelsNamed(kSgemm).size() >= 8u, true);
    for (const Line* range : run.ledger.of("range"))
        EXPECT_EQ(range->text(4), kSgemm) << "another kernel was counted into a profiled range";
    EXPECT_EQ(s.warnings().find("instead of one"), std::string::npos) << s.warnings();
    std::size_t profiled = 0;
    for (const auto* k : s.kernelsNamed(kSgemm))
        profiled += s.metrics.count(k->id);
    EXPECT_EQ(profiled, 8u); // the direct launches; graph launches are not selected by a name filter
}

namespace {

// Kernels of the session that ran in graph launches, by launch (correlation id).
std::map<std::int64_t, std::vector<const core::Kernel*>> graphLaunches(const Session& s)
{
    std::map<std::int64_t, std::vector<const core::Kernel*>> out;
    for (const auto& k : s.kernels) {
        if (k.graphId != 0)
            out[k.correlationId].push_back(&k);
    }
    return out;
}

} // namespace

TEST(CaptureEndToEnd, GraphLaunchesGetCountersPerKernelNode)
{
    TempDir dir;
    const auto run = capture(dir, { "graph", "3" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    const auto launches = graphLaunches(s);
    ASSERT_EQ(launches.size(), 3u);
    for (const auto& [correlation, kernels] : launches) {
        ASSERT_EQ(kernels.size(), 3u);
        for (const auto* k : kernels) {
            EXPECT_NE(k->graphNodeId, 0);
            EXPECT_EQ(k->graphRangeKernels, 0);
            EXPECT_EQ(s.metrics.count(k->id), 1u) << s.nameOf(*k);
        }
    }
    // Each node's counters are its own range's, value for value.
    EXPECT_EQ(expectCounters(run), 9u);
    const auto* triad = verdictOf(s, kTriad);
    ASSERT_NE(triad, nullptr);
    EXPECT_EQ(triad->verdict, core::VerdictClass::MemoryBound) << triad->reason;
    EXPECT_EQ(triad->reason.find("graph-level"), std::string::npos);
}

TEST(CaptureEndToEnd, OneRangePerGraphLaunchIsAttributedToTheGraphAndSaid)
{
    TempDir dir;
    const auto run = capture(dir, { "graph", "2" }, { { "RIDGELINE_FAKE_GRAPH_RANGES=graph" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    const auto launches = graphLaunches(s);
    ASSERT_EQ(launches.size(), 2u);
    for (const auto& [correlation, kernels] : launches) {
        ASSERT_EQ(kernels.size(), 3u);
        // The range is on the launch's first kernel; every kernel of the launch is marked.
        const auto* first = *std::min_element(kernels.begin(), kernels.end(),
            [](const core::Kernel* a, const core::Kernel* b) { return a->startNs < b->startNs; });
        for (const auto* k : kernels) {
            EXPECT_EQ(k->graphRangeKernels, 3);
            EXPECT_EQ(s.metrics.count(k->id), k == first ? 1u : 0u);
            const auto& v = s.verdicts.at(k->id);
            if (k == first) {
                EXPECT_EQ(v.reason.rfind("graph-level counters (one range over the 3 kernels", 0), 0u) << v.reason;
            } else {
                EXPECT_EQ(v.verdict, core::VerdictClass::Unknown);
                EXPECT_NE(v.reason.find("graph-level counters only"), std::string::npos) << v.reason;
            }
        }
        // The values are the graph range's (sums of the nodes' work; the chip's peaks).
        const Line* range = nullptr;
        for (const Line* l : run.ledger.of("range")) {
            if (l->num(2) == correlation)
                range = l;
        }
        ASSERT_NE(range, nullptr);
        EXPECT_EQ(s.metrics.at(first->id), rangeValues(*range));
    }
    // `ridgeline report` says which kernels have graph-level counters only.
    const auto report = ridgeline::testing::runCli({ "report", run.output });
    EXPECT_EQ(report.exitCode, 0) << report.err;
    EXPECT_NE(report.out.find("graph-level counters only"), std::string::npos) << report.out;
}

TEST(CaptureEndToEnd, GraphLaunchWithoutRangesIsSaidAndKeepsTheTrace)
{
    TempDir dir;
    const auto run = capture(dir, { "graph", "2" }, { { "RIDGELINE_FAKE_GRAPH_RANGES=none" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(graphLaunches(s).size(), 2u);
    EXPECT_TRUE(s.metrics.empty());
    EXPECT_NE(s.warnings().find("no counter range for a profiled CUDA graph launch"), std::string::npos)
        << s.warnings();
}
