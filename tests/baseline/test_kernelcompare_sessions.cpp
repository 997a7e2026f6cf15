// SPDX-License-Identifier: MIT
// core::compareKernels over real sessions: the two ranks of one PyTorch job (HTA's trace_filter
// traces, imported here) and the bundled two-rank example made from the same two traces.
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/core/analysis/kernelcompare.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ridgeline;
using core::KernelSummary;
using ridgeline::testing::TempDir;

namespace {

std::vector<KernelSummary> summaries(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    if (!reader.ok())
        return {};
    auto rows = core::summarizeKernels(reader.value());
    EXPECT_TRUE(rows.ok());
    return rows.ok() ? std::move(rows).value() : std::vector<KernelSummary> {};
}

class RealSessions : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new TempDir();
        for (int rank : { 0, 1 }) {
            collectors::ImportRequest request;
            request.inputs = { std::string(RIDGELINE_TEST_DATA_DIR) + "/kineto/trace_filter/sampled_rank-"
                + std::to_string(rank) + ".json.gz" };
            request.output = s_dir->file("rank-" + std::to_string(rank) + ".ridge");
            auto imported = collectors::importFiles(request);
            ASSERT_TRUE(imported.ok()) << imported.error().message;
        }
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    static std::vector<KernelSummary> rank(int r)
    {
        return summaries(s_dir->file("rank-" + std::to_string(r) + ".ridge"));
    }
    static TempDir* s_dir;
};

TempDir* RealSessions::s_dir = nullptr;

// Name -> total time, of the one device of a single-rank session.
std::map<std::string, std::int64_t> totalsByName(const std::vector<KernelSummary>& rows)
{
    std::map<std::string, std::int64_t> byName;
    for (const auto& r : rows)
        byName[r.name] += r.totalNs;
    return byName;
}

} // namespace

TEST_F(RealSessions, RankOneAgainstRankZero)
{
    const auto rank0 = rank(0), rank1 = rank(1);
    ASSERT_FALSE(rank0.empty());
    ASSERT_FALSE(rank1.empty());
    // One GPU each, of one model: the devices pair although they are different GPUs of the job.
    std::set<std::int64_t> devices0, devices1;
    for (const auto& r : rank0)
        devices0.insert(r.deviceId);
    for (const auto& r : rank1)
        devices1.insert(r.deviceId);
    ASSERT_EQ(devices0.size(), 1u);
    ASSERT_EQ(devices1.size(), 1u);
    ASSERT_EQ(rank0.front().deviceName, rank1.front().deviceName);

    const auto c = core::compareKernels(rank1, rank0);
    ASSERT_EQ(c.kernels.size(), rank1.size());
    // Expected from the names alone: kernels of both ranks match, the others are new or gone.
    const auto names0 = totalsByName(rank0), names1 = totalsByName(rank1);
    std::size_t common = 0;
    for (const auto& [name, total] : names1)
        common += names0.count(name);
    EXPECT_GT(common, 0u);
    EXPECT_EQ(c.totals.matched, common);
    EXPECT_EQ(c.totals.added, names1.size() - common);
    EXPECT_EQ(c.totals.gone, names0.size() - common);
    EXPECT_EQ(c.totals.matched + c.totals.gone, rank0.size());
    for (const auto& d : c.kernels) {
        const auto& now = rank1[d.current];
        if (d.isNew()) {
            EXPECT_EQ(names0.count(now.name), 0u) << now.name;
            continue;
        }
        const auto& before = rank0[*d.baseline];
        EXPECT_EQ(before.name, now.name);
        EXPECT_EQ(d.baselineTotalNs, names0.at(now.name));
        EXPECT_EQ(d.deltaNs, names1.at(now.name) - names0.at(now.name));
        EXPECT_EQ(d.baselineLaunches, before.launches);
    }
    for (std::size_t gone : c.gone)
        EXPECT_EQ(names1.count(rank0[gone].name), 0u) << rank0[gone].name;

    std::int64_t before = 0, after = 0;
    for (const auto& r : rank0)
        before += r.totalNs;
    for (const auto& r : rank1)
        after += r.totalNs;
    EXPECT_EQ(c.totals.kernelNsBefore, before);
    EXPECT_EQ(c.totals.kernelNsAfter, after);
    EXPECT_NE(before, after); // two real ranks did not take exactly the same time
}

TEST_F(RealSessions, ASessionAgainstItselfHasNoChange)
{
    const auto rows = rank(0);
    const auto c = core::compareKernels(rows, rows);
    EXPECT_EQ(c.totals.matched, rows.size());
    EXPECT_TRUE(c.gone.empty());
    for (const auto& d : c.kernels) {
        EXPECT_EQ(d.baseline, d.current);
        EXPECT_EQ(d.deltaNs, 0);
        EXPECT_DOUBLE_EQ(d.deltaPct.value_or(0.0), 0.0);
        EXPECT_FALSE(d.verdictChanged());
    }
}

// The example is both traces imported into one session (device 0 = rank 0, device 1 = rank 1).
// Against rank 0 alone, its first GPU's kernels pair with rank 0's unchanged; its second GPU's
// kernels are new, since rank 0's session has one GPU.
TEST_F(RealSessions, TwoRankSessionAgainstRankZero)
{
    const auto example = summaries(RIDGELINE_EXAMPLE_SESSION);
    const auto rank0 = rank(0);
    ASSERT_FALSE(example.empty());
    std::int64_t firstDevice = example.front().deviceId;
    for (const auto& r : example)
        firstDevice = std::min(firstDevice, r.deviceId);

    const auto c = core::compareKernels(example, rank0);
    std::size_t onFirst = 0;
    for (const auto& d : c.kernels) {
        const auto& now = example[d.current];
        if (now.deviceId != firstDevice) {
            EXPECT_TRUE(d.isNew()) << now.name;
            continue;
        }
        ++onFirst;
        ASSERT_FALSE(d.isNew()) << now.name;
        EXPECT_EQ(rank0[*d.baseline].name, now.name);
        EXPECT_EQ(d.deltaNs, 0) << now.name;
        EXPECT_EQ(d.baselineLaunches, now.launches) << now.name;
    }
    EXPECT_EQ(onFirst, rank0.size());
    EXPECT_TRUE(c.gone.empty());
}
