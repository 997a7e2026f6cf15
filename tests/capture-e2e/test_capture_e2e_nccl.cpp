// SPDX-License-Identifier: MIT
// End-to-end capture tests (test_capture_e2e.cpp says what they run) of NCCL's NVTX payloads: the
// target's `nccl` mode makes NCCL API calls as NCCL does (an NCCL-domain range with an extended
// payload around the kernel it launches, target_nccl.cpp) and the comm_ops rows of those kernels
// must carry what the payloads said (ncclcalls.h has the payloads).
#include "e2e.h"
#include "ncclcalls.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::e2e;
using ridgeline::testing::TempDir;

namespace {

// The comm_ops row of the only kernel named `name` launched with `grid` blocks; null when not one.
const core::CommOp* commOpOf(const Session& s, const std::string& name, std::uint32_t grid)
{
    const core::Kernel* kernel = nullptr;
    for (const auto* k : s.kernelsNamed(name)) {
        if (k->grid.x == grid) {
            if (kernel)
                return nullptr;
            kernel = k;
        }
    }
    if (!kernel)
        return nullptr;
    for (const auto& op : s.commOps) {
        if (op.kernelId == kernel->id)
            return &op;
    }
    return nullptr;
}

void expectPayloadsInRows(const Run& run)
{
    using namespace e2e::nccl;
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_TRUE(s.error.empty()) << s.error;
    ASSERT_EQ(s.commOps.size(), 4u); // every NCCL kernel has a row, the one outside a call too

    // NCCL 2.24 layout: the communicator's size from ncclCommInitRank, S = n x the per-rank message.
    const core::CommOp* gather = commOpOf(s, kAllGatherKernel, 8);
    ASSERT_NE(gather, nullptr);
    EXPECT_EQ(gather->collective, "AllGather");
    EXPECT_EQ(gather->groupSize, kInit.nranks);
    EXPECT_EQ(gather->bytes, static_cast<std::int64_t>(kAllGatherMessage) * kInit.nranks);
    EXPECT_EQ(gather->processGroup, ""); // NCCL 2.24 names no communicator

    const core::CommOp* broadcast = commOpOf(s, kBroadcastKernel, 8);
    ASSERT_NE(broadcast, nullptr);
    EXPECT_EQ(broadcast->bytes, static_cast<std::int64_t>(kBroadcast.bytes));
    EXPECT_EQ(broadcast->root, kBroadcast.root);
    EXPECT_EQ(broadcast->groupSize, kInit.nranks);

    // NCCL >= 2.25 layout on the generic kernel: the collective and communicator from the payload.
    const core::CommOp* reduce = commOpOf(s, kGenericKernel, 8);
    ASSERT_NE(reduce, nullptr);
    EXPECT_EQ(reduce->collective, "AllReduce");
    EXPECT_EQ(reduce->bytes, static_cast<std::int64_t>(kAllReduce.bytes));
    EXPECT_EQ(reduce->processGroup, fmt::format("{:#x}", kAllReduce.comm));

    // The generic kernel launched outside any NCCL call: its name only.
    const core::CommOp* outside = commOpOf(s, kGenericKernel, 1);
    ASSERT_NE(outside, nullptr);
    EXPECT_EQ(outside->collective, "");
    EXPECT_EQ(outside->bytes, 0);
}

} // namespace

TEST(CaptureEndToEnd, NcclPayloadsGiveTheCollectivesTheirSizes)
{
    TempDir dir;
    expectPayloadsInRows(capture(dir, { "nccl" }));
}

TEST(CaptureEndToEnd, NcclDomainCreatedBeforeTheSubscriptionIsFoundByItsPayloads)
{
    TempDir dir;
    expectPayloadsInRows(capture(dir, { "nccl" }, { { "RIDGELINE_FAKE_NVTX_CREATE_CALLBACK=0" }, {} }));
}

TEST(CaptureEndToEnd, NcclPayloadsNeedTheCounterSubscription)
{
    // --metrics none holds no CUPTI subscriber (docs/CAPTURE.md): the rows come from names only.
    TempDir dir;
    const auto run = capture(dir, { "nccl" }, { {}, { "--metrics", "none" } });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    ASSERT_EQ(run.session.commOps.size(), 4u);
    for (const auto& op : run.session.commOps)
        EXPECT_EQ(op.bytes, 0);
}
