// SPDX-License-Identifier: MIT
// nccl-tests' definitions (doc/PERFORMANCE.md, src/*.cu *GetBw; communication.md §1), the link
// choice, the verdict sentence and cross-rank matching, on figures worked out by hand.
#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/analysis/roofline.h"

#include <gtest/gtest.h>

using namespace ridgeline::core;

TEST(Collectives, EveryTypeHasNcclTestsBusFactor)
{
    // n = 4, by hand: 2(n-1)/n = 1.5, (n-1)/n = 0.75, and 1.
    const std::pair<CollectiveType, double> expected[] = {
        { CollectiveType::AllReduce, 1.5 },
        { CollectiveType::AllGather, 0.75 },
        { CollectiveType::ReduceScatter, 0.75 },
        { CollectiveType::AllToAll, 0.75 },
        { CollectiveType::Gather, 0.75 },
        { CollectiveType::Scatter, 0.75 },
        { CollectiveType::Broadcast, 1.0 },
        { CollectiveType::Reduce, 1.0 },
        { CollectiveType::SendRecv, 1.0 },
        { CollectiveType::Send, 1.0 },
        { CollectiveType::Recv, 1.0 },
    };
    for (const auto& [type, factor] : expected) {
        ASSERT_TRUE(busBandwidthFactor(type, 4).has_value()) << toString(type);
        EXPECT_DOUBLE_EQ(*busBandwidthFactor(type, 4), factor) << toString(type);
    }
    // n = 8: 2 x 7 / 8 = 1.75 and 7 / 8 = 0.875; two ranks: an all-reduce's factor is 1.
    EXPECT_DOUBLE_EQ(*busBandwidthFactor(CollectiveType::AllReduce, 8), 1.75);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor(CollectiveType::AllGather, 8), 0.875);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor(CollectiveType::AllReduce, 2), 1.0);
    // Unknown type or ranks: no factor.
    EXPECT_FALSE(busBandwidthFactor(CollectiveType::Unknown, 4));
    EXPECT_FALSE(busBandwidthFactor(CollectiveType::Barrier, 4));
    EXPECT_FALSE(busBandwidthFactor(CollectiveType::AllReduce, 0));
}

TEST(Collectives, NamesFromPyTorchAndNccl)
{
    EXPECT_EQ(collectiveTypeFromName("allreduce"), CollectiveType::AllReduce);
    EXPECT_EQ(collectiveTypeFromName("AllReduce"), CollectiveType::AllReduce);
    EXPECT_EQ(collectiveTypeFromName("_allgather_base"), CollectiveType::AllGather);
    EXPECT_EQ(collectiveTypeFromName("allgather_into_tensor_coalesced"), CollectiveType::AllGather);
    EXPECT_EQ(collectiveTypeFromName("reduce_scatter_tensor"), CollectiveType::ReduceScatter);
    EXPECT_EQ(collectiveTypeFromName("ReduceScatter"), CollectiveType::ReduceScatter);
    EXPECT_EQ(collectiveTypeFromName("reduce"), CollectiveType::Reduce);
    EXPECT_EQ(collectiveTypeFromName("all_to_allv"), CollectiveType::AllToAll);
    EXPECT_EQ(collectiveTypeFromName("SendRecv"), CollectiveType::SendRecv);
    EXPECT_EQ(collectiveTypeFromName("send"), CollectiveType::Send);
    EXPECT_EQ(collectiveTypeFromName("recv"), CollectiveType::Recv);
    EXPECT_EQ(collectiveTypeFromName("broadcast"), CollectiveType::Broadcast);
    EXPECT_EQ(collectiveTypeFromName("Generic"), CollectiveType::Unknown);
}

TEST(Collectives, MessageSizeIsNcclTestsS)
{
    // 4 ranks of Float (4 bytes): all-gather in 10 / out 40 elements -> S = 40 x 4 = 160 bytes (the
    // whole output); reduce-scatter in 40 / out 10 -> 160 (the whole input); all-reduce 40 -> 160.
    EXPECT_EQ(collectiveBytes(CollectiveType::AllGather, 10, 40, 4, 4), 160);
    EXPECT_EQ(collectiveBytes(CollectiveType::AllGather, 10, -1, 4, 4), 160); // out missing: n x in
    EXPECT_EQ(collectiveBytes(CollectiveType::ReduceScatter, 40, 10, 4, 4), 160);
    EXPECT_EQ(collectiveBytes(CollectiveType::ReduceScatter, -1, 10, 4, 4), 160);
    EXPECT_EQ(collectiveBytes(CollectiveType::AllReduce, 40, 40, 4, 4), 160);
    EXPECT_EQ(collectiveBytes(CollectiveType::AllToAll, 40, 40, 2, 4), 80);
    EXPECT_EQ(collectiveBytes(CollectiveType::Broadcast, 53, 53, 8, 2), 424);
    // Missing arguments: no size rather than a wrong one.
    EXPECT_FALSE(collectiveBytes(CollectiveType::AllReduce, -1, -1, 4, 4));
    EXPECT_FALSE(collectiveBytes(CollectiveType::AllReduce, 40, 40, 0, 4));
    // algbw = S / t, busbw = algbw x factor: 1 GB in 10 ms on 8 ranks all-reduce -> 100 GB/s, 175 GB/s.
    const auto bw = collectiveBandwidth(CollectiveType::AllReduce, 1e9, 0.01, 8);
    ASSERT_TRUE(bw);
    EXPECT_DOUBLE_EQ(bw->algBytesPerS, 1e11);
    EXPECT_DOUBLE_EQ(bw->busBytesPerS, 1.75e11);
    EXPECT_FALSE(collectiveBandwidth(CollectiveType::AllReduce, 0, 0.01, 8));
}

TEST(Collectives, LinkIsReadThenInferredAndSaidToBe)
{
    Device a100;
    a100.id = 1;
    a100.name = "NVIDIA A100-PG509-200";
    LinkContext context { &a100, {}, 2, 0 };
    auto link = chooseLink(context);
    EXPECT_EQ(link.name, "NVLink");
    EXPECT_DOUBLE_EQ(link.bytesPerS, 300e9); // 600 GB/s total / 2 (communication.md §4)
    EXPECT_TRUE(link.inferred);
    EXPECT_NE(link.note.find("2 ranks on one A100 host"), std::string::npos) << link.note;
    EXPECT_NE(link.note.find("NVLink assumed"), std::string::npos) << link.note;

    const Ceiling measured { 1, "NVLink", 250e9, "B/s", CeilingSource::Measured, "" };
    const Ceiling datasheet { 1, "NVLink", 300e9, "B/s", CeilingSource::Datasheet, "" };
    const Ceiling both[] = { datasheet, measured };
    context.ceilings = both;
    link = chooseLink(context);
    EXPECT_FALSE(link.inferred);
    EXPECT_DOUBLE_EQ(link.bytesPerS, 250e9); // measured first

    context.hosts = 2; // ranks on two hosts: the network, whose NICs are not recorded
    link = chooseLink(context);
    EXPECT_EQ(link.name, "network");
    EXPECT_EQ(link.bytesPerS, 0);

    Device pcie;
    pcie.name = "NVIDIA A100 PCIe 40GB";
    EXPECT_FALSE(nvlinkPerDirection(pcie.name));
    EXPECT_DOUBLE_EQ(*pciePerDirection(4), 31.5e9);
    EXPECT_DOUBLE_EQ(*nicPerDirection("NDR"), 50e9);
}

namespace {

KernelAnalysis classified(const CollectiveFigures& figures)
{
    KernelAnalysis a;
    a.comm = figures;
    classifyCollective(a, figures.collective);
    return a;
}

} // namespace

TEST(Collectives, VerdictCitesBusBandwidthAgainstTheLink)
{
    CollectiveFigures f;
    f.collective = "allreduce";
    f.launches = 1;
    f.bytes = 1e9;
    f.busBytes = 1.9e9; // 20 ranks: factor 2 x 19 / 20 = 1.9
    f.durationNs = 5e6; // busbw = 1.9e9 B / 5 ms = 380 GB/s = 84 % of 450 GB/s
    f.link = { "NVLink", 450e9, false, "" };
    auto a = classified(f);
    EXPECT_EQ(a.verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(a.boundBy, "NVLink");
    EXPECT_EQ(a.reason.substr(0, 57), "communication-bound (NVLink): busbw 380 GB/s = 84 % of 45");

    f.durationNs = 190e6; // 10 GB/s = 3 % of 300 GB/s
    f.link = { "NVLink", 300e9, true, "2 ranks on one A100 host: NVLink assumed" };
    f.protocol = "LL";
    a = classified(f);
    EXPECT_EQ(a.boundBy, "collective");
    EXPECT_EQ(a.reason,
        "communication, not bandwidth-bound: busbw 10 GB/s = 3 % of NVLink 300 GB/s; 1 GB messages, LL protocol; "
        "2 ranks on one A100 host: NVLink assumed");

    // Waiting for a later rank: 40 instances, rank 3 last each time, 84 ms waited -> 2.1 ms on average
    // (shown once the wait is a tenth of the 190 ms in these collectives).
    f.waitNs = 84e6;
    f.lateRanks[3] = { 40, 84e6 };
    a = classified(f);
    EXPECT_NE(a.reason.find("waiting for rank 3 (arrives 2.100 ms late on average)"), std::string::npos) << a.reason;

    CollectiveFigures none; // a collective kernel without sizes keeps its label
    none.collective = "allreduce";
    a = classified(none);
    EXPECT_EQ(a.verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(
        a.reason, "communication-bound: carries the collective allreduce; message sizes missing, so no bus bandwidth");
}

TEST(Collectives, OneRankHasNoInstances)
{
    const CollectiveOpRef ops[] = { { 1, 0, "pg", "allreduce", -1, 0, 10 }, { 2, 0, "pg", "allreduce", -1, 20, 30 } };
    const auto x = matchAcrossRanks(ops);
    EXPECT_TRUE(x.instances.empty());
    ASSERT_EQ(x.ranks.size(), 1u);
    EXPECT_EQ(x.ranks[0].waitNs, 0);
    EXPECT_TRUE(x.warnings.empty());
}

TEST(Collectives, MismatchedInstanceCountsAreMatchedByOrderAndReported)
{
    // Rank 0 has three collectives, rank 1 two: instances 0 and 1 have both ranks, 2 only rank 0.
    const CollectiveOpRef ops[] = {
        { 1, 0, "pg", "allreduce", -1, 100, 200 }, { 2, 0, "pg", "allreduce", -1, 300, 400 },
        { 3, 0, "pg", "allreduce", -1, 500, 600 },
        { 4, 1, "pg", "allreduce", -1, 150, 210 }, // rank 1 later by 50, ends 10 later
        { 5, 1, "pg", "allreduce", -1, 280, 390 }, // rank 0 later by 20, ends 10 earlier
    };
    const auto x = matchAcrossRanks(ops);
    ASSERT_EQ(x.instances.size(), 2u);
    EXPECT_EQ(x.instances[0].startSkewNs, 50);
    EXPECT_EQ(x.instances[0].endSkewNs, 10);
    EXPECT_EQ(x.instances[0].lastRank, 1);
    EXPECT_EQ(x.instances[1].startSkewNs, 20);
    EXPECT_EQ(x.instances[1].lastRank, 0);
    ASSERT_EQ(x.ranks.size(), 2u);
    // Each was last once; rank 0 waited 50, rank 1 waited 20: the one that waits least comes first.
    EXPECT_EQ(x.ranks[0].rank, 1);
    EXPECT_EQ(x.ranks[0].waitNs, 20);
    EXPECT_EQ(x.ranks[1].waitNs, 50);
    ASSERT_EQ(x.warnings.size(), 1u);
    EXPECT_NE(x.warnings[0].find("rank 1 has 2 collectives and rank 0 has 3"), std::string::npos) << x.warnings[0];

    // With Seq the instance is named by it, whatever the order.
    const CollectiveOpRef seqOps[] = {
        { 1, 0, "pg", "allreduce", 7, 100, 200 },
        { 2, 0, "pg", "allreduce", 8, 300, 400 },
        { 3, 1, "pg", "allreduce", 8, 350, 410 },
    };
    const auto s = matchAcrossRanks(seqOps);
    ASSERT_EQ(s.instances.size(), 1u);
    EXPECT_EQ(s.instances[0].index, 8);
    EXPECT_EQ(s.instances[0].startSkewNs, 50);
}
