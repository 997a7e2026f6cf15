// SPDX-License-Identifier: MIT
// From NCCL calls to comm_ops rows (ncclcalls.h): a thread's open calls, the shared registry, the
// row's fields, and an NCCL kernel record through the translator into a part file.
#include "ncclcalls.h"
#include "ncclstructs.h"
#include "partfixture.h"
#include "records.h"

#include <cstdint>
#include <fmt/format.h>
#include <limits>

namespace ridgeline::testing {

using inject::applyNcclCall;
using inject::NcclCall;
using inject::NcclCallRegistry;
using inject::NcclCommInfo;
using inject::NcclPayload;
using inject::NcclThreadCalls;

namespace {

NcclPayload callPayload(const char* collective, std::uint64_t bytes, std::uint64_t comm, int root = -1)
{
    NcclPayload p;
    p.kind = NcclPayload::Kind::Call;
    p.call.collective = collective;
    p.call.messageBytes = bytes;
    p.call.hasComm = true;
    p.call.comm = comm;
    p.call.root = root;
    return p;
}

} // namespace

TEST(NcclThreadCalls, OneCallIsTakenByTheLaunchInsideIt)
{
    NcclThreadCalls t;
    EXPECT_FALSE(t.launching());
    t.pushed(callPayload("AllReduce", 4096, 0xaa));
    EXPECT_TRUE(t.launching());
    auto call = t.take();
    ASSERT_TRUE(call.has_value());
    EXPECT_STREQ(call->collective, "AllReduce");
    EXPECT_EQ(call->messageBytes, 4096u);
    EXPECT_FALSE(t.launching()); // taken once
    EXPECT_FALSE(t.take().has_value());
    t.popped();
    EXPECT_EQ(t.depth(), 0);
    t.popped(); // a pop too many stays at 0
    EXPECT_EQ(t.depth(), 0);
}

TEST(NcclThreadCalls, AGroupOfOneCollectiveAddsItsMessages)
{
    // ncclGroupStart; ncclAllReduce x3; ncclGroupEnd (which launches): the calls wait past their pops.
    NcclThreadCalls t;
    const std::uint64_t sizes[] = { 100, 250, 4000 };
    for (const auto size : sizes) {
        t.pushed(callPayload("AllReduce", size, 0xbb, 0));
        t.popped();
    }
    EXPECT_FALSE(t.launching()); // no NCCL range open: a launch here is not NCCL's
    t.pushed(NcclPayload {}); // ncclGroupEnd's range carries no payload
    ASSERT_TRUE(t.launching());
    auto call = t.take();
    ASSERT_TRUE(call.has_value());
    EXPECT_EQ(call->messageBytes, sizes[0] + sizes[1] + sizes[2]);
    EXPECT_EQ(call->root, 0);
    EXPECT_EQ(call->comm, 0xbbu);
}

TEST(NcclThreadCalls, MixedGroupsKeepOnlyWhatTheyShare)
{
    NcclThreadCalls t;
    t.pushed(callPayload("Send", 10, 0xcc));
    t.pushed(callPayload("Recv", 10, 0xcc));
    auto call = t.take();
    ASSERT_TRUE(call.has_value());
    EXPECT_STREQ(call->collective, "");
    EXPECT_EQ(call->messageBytes, 0u);
    EXPECT_TRUE(call->hasComm);
    EXPECT_EQ(call->comm, 0xccu);

    t.pushed(callPayload("AllReduce", 10, 0x1));
    t.pushed(callPayload("AllReduce", 10, 0x2));
    EXPECT_FALSE(t.take().has_value()); // two communicators: nothing is certain
}

TEST(NcclThreadCalls, TooManyCallsKeepOnlyTheCommunicator)
{
    NcclThreadCalls t;
    for (std::size_t i = 0; i < NcclThreadCalls::kMaxPending + 3; ++i)
        t.pushed(callPayload("AllGather", 8, 0xdd));
    auto call = t.take();
    ASSERT_TRUE(call.has_value());
    EXPECT_EQ(call->messageBytes, 0u);
    EXPECT_EQ(call->comm, 0xddu);
    EXPECT_EQ(t.depth(), static_cast<int>(NcclThreadCalls::kMaxPending + 3));
}

TEST(NcclCallRegistry, DomainByNameOrAdoptedOnce)
{
    NcclCallRegistry r;
    int a = 0, b = 0;
    EXPECT_FALSE(r.domainKnown());
    r.domainCreated(&a, "PyTorch");
    EXPECT_FALSE(r.domainKnown());
    EXPECT_FALSE(r.isNcclDomain(&a));
    r.adoptDomain(&b);
    EXPECT_TRUE(r.isNcclDomain(&b));
    r.adoptDomain(&a); // only while none is known
    EXPECT_FALSE(r.isNcclDomain(&a));
    r.domainCreated(&a, "NCCL"); // a created "NCCL" domain wins
    EXPECT_TRUE(r.isNcclDomain(&a));
    EXPECT_FALSE(r.isNcclDomain(nullptr));
}

TEST(NcclCallRegistry, RanksByCommunicatorOrTheOnlyUnkeyedSize)
{
    NcclCallRegistry r;
    r.noteComm(NcclCommInfo { true, 0x10, 8, 3 });
    r.noteComm(NcclCommInfo { true, 0x20, 2, 0 });
    NcclCall keyed;
    keyed.hasComm = true;
    keyed.comm = 0x20;
    EXPECT_EQ(r.ranksOf(keyed), 2);
    keyed.comm = 0x30;
    EXPECT_EQ(r.ranksOf(keyed), 0);

    NcclCall unkeyed; // NCCL <= 2.24
    EXPECT_EQ(r.ranksOf(unkeyed), 0);
    r.noteComm(NcclCommInfo { false, 0, 4, 1 });
    r.noteComm(NcclCommInfo { false, 0, 4, 2 });
    EXPECT_EQ(r.ranksOf(unkeyed), 4);
    r.noteComm(NcclCommInfo { false, 0, 2, 0 }); // two sizes: which one is not known
    EXPECT_EQ(r.ranksOf(unkeyed), 0);
    r.noteComm(NcclCommInfo { false, 0, 0, -1 }); // ignored
}

TEST(NcclCallRegistry, AttachedCallsAreTakenOnceAndBounded)
{
    NcclCallRegistry r;
    NcclCall call;
    call.messageBytes = 77;
    r.attach(5, call);
    EXPECT_FALSE(r.take(6).has_value());
    ASSERT_TRUE(r.take(5).has_value());
    EXPECT_FALSE(r.take(5).has_value());
    for (std::uint32_t id = 1; id <= NcclCallRegistry::kMaxAttached + 10; ++id)
        r.attach(id, call);
    EXPECT_EQ(r.attached(), NcclCallRegistry::kMaxAttached);
    EXPECT_FALSE(r.take(1).has_value()); // the oldest went first
    EXPECT_TRUE(r.take(NcclCallRegistry::kMaxAttached + 10).has_value());
}

TEST(ApplyNcclCall, BytesAsNcclTestsCountThem)
{
    const int ranks = 4;
    NcclCall ar;
    ar.collective = "AllReduce";
    ar.messageBytes = 1 << 20;
    ar.hasComm = true;
    ar.comm = 0xfeed;
    core::CommOp op;
    op.collective = "AllReduce";
    applyNcclCall(ar, ranks, op);
    EXPECT_EQ(op.bytes, 1 << 20); // the whole message
    EXPECT_EQ(op.groupSize, ranks);
    EXPECT_EQ(op.processGroup, fmt::format("{:#x}", ar.comm));
    EXPECT_EQ(op.root, -1);

    NcclCall ag = ar;
    ag.collective = "AllGather";
    ag.perRankMessage = true; // sendcount x type size: one rank's share
    core::CommOp generic; // ncclDevKernel_Generic names no collective
    applyNcclCall(ag, ranks, generic);
    EXPECT_EQ(generic.collective, "AllGather");
    EXPECT_EQ(generic.bytes, static_cast<std::int64_t>(ag.messageBytes) * ranks);

    core::CommOp unknownRanks;
    applyNcclCall(ag, 0, unknownRanks);
    EXPECT_EQ(unknownRanks.bytes, 0); // S needs the ranks
    EXPECT_EQ(unknownRanks.groupSize, 0);

    NcclCall bc;
    bc.collective = "Broadcast";
    bc.messageBytes = 96;
    bc.root = 2;
    core::CommOp rooted;
    applyNcclCall(bc, 0, rooted);
    EXPECT_EQ(rooted.bytes, 96);
    EXPECT_EQ(rooted.root, bc.root);
    EXPECT_EQ(rooted.processGroup, ""); // NCCL <= 2.24 names no communicator

    NcclCall huge = ag;
    huge.messageBytes = std::numeric_limits<std::uint64_t>::max() / 2;
    core::CommOp overflow;
    applyNcclCall(huge, ranks, overflow);
    EXPECT_EQ(overflow.bytes, 0);
    huge.perRankMessage = false;
    applyNcclCall(huge, ranks, overflow);
    EXPECT_EQ(overflow.bytes, std::numeric_limits<std::int64_t>::max()); // the largest that fits
    huge.messageBytes = std::numeric_limits<std::uint64_t>::max();
    applyNcclCall(huge, ranks, overflow);
    EXPECT_EQ(overflow.bytes, 0); // past int64
}

using NcclTranslate = PartFixture;

TEST_F(NcclTranslate, KernelRecordTakesTheCallOfItsLaunch)
{
    using namespace nccl;
    // What the collector saw on the application's thread: ncclCommInitRank (NCCL 2.24 layout, 2
    // ranks), then ncclAllGather of 3000 bytes per rank, inside which the kernel of correlation 9
    // was launched.
    NcclCallRegistry registry;
    const v2_24::NvtxParamsCommInitRank init { 0, 2, 0 };
    Event initEvent;
    wrap(initEvent, kCommInitRank, init);
    registry.noteComm(inject::decodeNcclEvent(&initEvent.attributes).comm);
    const std::size_t msgsize = 3000;
    Event gather;
    wrap(gather, kAllGather, msgsize);
    NcclThreadCalls thread;
    thread.pushed(inject::decodeNcclEvent(&gather.attributes));
    ASSERT_TRUE(thread.launching());
    registry.attach(9, *thread.take());
    translator->setNcclCalls(&registry);

    auto k = kernelRecord(9, "ncclDevKernel_Generic", 100, 900);
    auto plain = kernelRecord(10, "ncclDevKernel_Generic", 1000, 1100); // no call attached
    writeBuffer({ asActivity(k), asActivity(plain) });
    EXPECT_EQ(registry.attached(), 0u);
    auto reader = finishAndOpen();
    auto comms = reader.commOps();
    ASSERT_TRUE(comms.ok());
    ASSERT_EQ(comms.value().size(), 2u);
    const auto& ops = comms.value();
    const auto withCall = ops[0].startNs == 100 ? ops[0] : ops[1];
    const auto nameOnly = ops[0].startNs == 100 ? ops[1] : ops[0];
    EXPECT_EQ(withCall.collective, "AllGather");
    EXPECT_EQ(withCall.bytes, static_cast<std::int64_t>(msgsize) * init.nranks);
    EXPECT_EQ(withCall.groupSize, init.nranks);
    EXPECT_EQ(nameOnly.collective, "");
    EXPECT_EQ(nameOnly.bytes, 0);
}

} // namespace ridgeline::testing
