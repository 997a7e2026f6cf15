// SPDX-License-Identifier: MIT
// NCCL's NVTX payloads (ncclpayload.h), built with the structs NCCL declares (ncclstructs.h), for
// every collective schema and both layouts, and hostile attributes.
#include "ncclstructs.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

namespace ridgeline::testing {

using inject::decodeNcclEvent;
using inject::decodeNcclPayload;
using inject::NcclPayload;
using namespace nccl;

namespace {

template <typename T> NcclPayload decoded(int schema, const T& payload)
{
    Event e;
    wrap(e, schema, payload);
    return decodeNcclEvent(&e.attributes);
}

void expectCall(const NcclPayload& p, const char* collective, std::uint64_t bytes)
{
    ASSERT_EQ(p.kind, NcclPayload::Kind::Call);
    EXPECT_STREQ(p.call.collective, collective);
    EXPECT_EQ(p.call.messageBytes, bytes);
}

} // namespace

// --- NCCL 2.16 .. 2.24: no communicator in the payload ---

TEST(NcclPayloadV224, AllReduceAndReduceScatterCarryMessageAndOp)
{
    const std::size_t count = 1 << 20, typeSize = 4; // ncclAllReduce(count, ncclFloat32)
    const v2_24::NvtxParamsAllReduce all { count * typeSize, ncclMax };
    const NcclPayload a = decoded(kAllReduce, all);
    expectCall(a, "AllReduce", count * typeSize);
    EXPECT_FALSE(a.call.hasComm);
    EXPECT_FALSE(a.call.perRankMessage);
    EXPECT_EQ(a.call.reductionOp, static_cast<int>(ncclMax));

    const std::size_t recvcount = 4096;
    const v2_24::NvtxParamsReduceScatter rs { recvcount * 2, ncclSum };
    const NcclPayload r = decoded(kReduceScatter, rs);
    expectCall(r, "ReduceScatter", recvcount * 2);
    EXPECT_TRUE(r.call.perRankMessage); // recvcount: one rank's share
}

TEST(NcclPayloadV224, AllGatherIsABareSize)
{
    const std::size_t msgsize = 3 * 1024 * 8; // sendcount x ncclTypeSize(ncclFloat64)
    const NcclPayload p = decoded(kAllGather, msgsize);
    expectCall(p, "AllGather", msgsize);
    EXPECT_TRUE(p.call.perRankMessage);
    EXPECT_FALSE(p.call.hasComm);
}

TEST(NcclPayloadV224, RootedAndPointToPoint)
{
    const v2_24::NvtxParamsBroadcast b { 640, 3 };
    const NcclPayload pb = decoded(kBroadcast, b);
    expectCall(pb, "Broadcast", 640);
    EXPECT_EQ(pb.call.root, 3);

    const v2_24::NvtxParamsReduce r { 128, 1, ncclProd };
    const NcclPayload pr = decoded(kReduce, r);
    expectCall(pr, "Reduce", 128);
    EXPECT_EQ(pr.call.root, 1);
    EXPECT_EQ(pr.call.reductionOp, static_cast<int>(ncclProd));

    const v2_24::NvtxParamsSendRecv s { 1000, 5 };
    const NcclPayload ps = decoded(kSend, s);
    expectCall(ps, "Send", 1000);
    EXPECT_EQ(ps.call.peer, 5);
    EXPECT_EQ(ps.call.root, -1);
    const NcclPayload pv = decoded(kRecv, s);
    expectCall(pv, "Recv", 1000);
    EXPECT_EQ(pv.call.peer, 5);
}

TEST(NcclPayloadV224, CommInitRankAndInitAll)
{
    const v2_24::NvtxParamsCommInitRank init { 2, 8, 0 }; // rank 2 of 8 on device 0
    const NcclPayload p = decoded(kCommInitRank, init);
    ASSERT_EQ(p.kind, NcclPayload::Kind::Comm);
    EXPECT_FALSE(p.comm.hasComm);
    EXPECT_EQ(p.comm.ranks, init.nranks);
    EXPECT_EQ(p.comm.rank, init.rank);
    EXPECT_EQ(decoded(kCommInitRankConfig, init).comm.ranks, init.nranks);

    const int ndev = 4;
    const NcclPayload all = decoded(kCommInitAll, ndev);
    ASSERT_EQ(all.kind, NcclPayload::Kind::Comm);
    EXPECT_EQ(all.comm.ranks, ndev);
    EXPECT_EQ(all.comm.rank, -1);
}

// --- NCCL 2.25 and later: the communicator's hash first ---

TEST(NcclPayloadV225, EveryCollectiveNamesItsCommunicator)
{
    const std::uint64_t comm = 0x9e3779b97f4a7c15ULL;
    struct Case {
        int schema;
        NcclPayload payload;
        const char* collective;
        bool perRank;
    };
    const v2_25::NcclNvtxParamsAllGather ag { comm, 100 };
    const v2_25::NcclNvtxParamsAlltoAll a2a { comm, 200 };
    const v2_25::NcclNvtxParamsAllReduce ar { comm, 300, ncclAvg };
    const v2_25::NcclNvtxParamsBroadcast bc { comm, 400, 2 };
    const v2_25::NcclNvtxParamsGather ga { comm, 500, 1 };
    const v2_25::NcclNvtxParamsReduce re { comm, 600, 3, ncclMin };
    const v2_25::NcclNvtxParamsReduceScatter rs { comm, 700, ncclSum };
    const v2_25::NcclNvtxParamsScatter sc { comm, 800, 0 };
    const v2_25::NcclNvtxParamsSendRecv sr { comm, 900, 6 };
    const std::vector<std::pair<Case, std::uint64_t>> cases {
        { { kAllGather, decoded(kAllGather, ag), "AllGather", true }, ag.bytes },
        { { kAlltoAll, decoded(kAlltoAll, a2a), "AlltoAll", true }, a2a.bytes },
        { { kAllReduce, decoded(kAllReduce, ar), "AllReduce", false }, ar.bytes },
        { { kBroadcast, decoded(kBroadcast, bc), "Broadcast", false }, bc.bytes },
        { { kGather, decoded(kGather, ga), "Gather", true }, ga.bytes },
        { { kReduce, decoded(kReduce, re), "Reduce", false }, re.bytes },
        { { kReduceScatter, decoded(kReduceScatter, rs), "ReduceScatter", true }, rs.bytes },
        { { kScatter, decoded(kScatter, sc), "Scatter", true }, sc.bytes },
        { { kSend, decoded(kSend, sr), "Send", false }, sr.bytes },
        { { kRecv, decoded(kRecv, sr), "Recv", false }, sr.bytes },
    };
    for (const auto& [c, bytes] : cases) {
        SCOPED_TRACE(c.collective);
        expectCall(c.payload, c.collective, bytes);
        EXPECT_TRUE(c.payload.call.hasComm);
        EXPECT_EQ(c.payload.call.comm, comm);
        EXPECT_EQ(c.payload.call.perRankMessage, c.perRank);
    }
    EXPECT_EQ(decoded(kAllReduce, ar).call.reductionOp, static_cast<int>(ar.op));
    EXPECT_EQ(decoded(kBroadcast, bc).call.root, bc.root);
    EXPECT_EQ(decoded(kGather, ga).call.root, ga.root);
    EXPECT_EQ(decoded(kReduce, re).call.root, re.root);
    EXPECT_EQ(decoded(kReduce, re).call.reductionOp, static_cast<int>(re.op));
    EXPECT_EQ(decoded(kScatter, sc).call.root, sc.root);
    EXPECT_EQ(decoded(kSend, sr).call.peer, sr.peer);
}

TEST(NcclPayloadV225, CommInitRankInitAllAndDestroy)
{
    const v2_25::NcclNvtxParamsCommInitRank init { 0xabcdefULL, 16, 7, 1 };
    for (const int schema : { kCommInitRank, kCommInitRankConfig, kCommDestroy }) {
        const NcclPayload p = decoded(schema, init);
        ASSERT_EQ(p.kind, NcclPayload::Kind::Comm);
        EXPECT_TRUE(p.comm.hasComm);
        EXPECT_EQ(p.comm.comm, init.newcomm);
        EXPECT_EQ(p.comm.ranks, init.nranks);
        EXPECT_EQ(p.comm.rank, init.myrank);
    }
    const v2_25::NcclNvtxParamsCommInitAll all { 0x1234ULL, 8 };
    const NcclPayload p = decoded(kCommInitAll, all);
    ASSERT_EQ(p.kind, NcclPayload::Kind::Comm);
    EXPECT_EQ(p.comm.comm, all.commhash);
    EXPECT_EQ(p.comm.ranks, all.ndev);
}

// --- What is refused ---

TEST(NcclPayloadHostile, NullMissingOrForeignPayloads)
{
    EXPECT_EQ(decodeNcclEvent(nullptr).kind, NcclPayload::Kind::None);

    const v2_25::NcclNvtxParamsAllReduce ar { 1, 64, ncclSum };
    Event e;
    wrap(e, kAllReduce, ar);
    ASSERT_EQ(decodeNcclEvent(&e.attributes).kind, NcclPayload::Kind::Call); // the baseline decodes

    Event notExt = e;
    notExt.attributes.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64; // an ordinary scalar payload
    EXPECT_EQ(decodeNcclEvent(&notExt.attributes).kind, NcclPayload::Kind::None);

    Event noCount = e;
    noCount.attributes.reserved0 = 0;
    EXPECT_EQ(decodeNcclEvent(&noCount.attributes).kind, NcclPayload::Kind::None);
    noCount.attributes.reserved0 = -3;
    EXPECT_EQ(decodeNcclEvent(&noCount.attributes).kind, NcclPayload::Kind::None);

    Event nullArray = e;
    nullArray.attributes.payload.ullValue = 0;
    EXPECT_EQ(decodeNcclEvent(&nullArray.attributes).kind, NcclPayload::Kind::None);

    EXPECT_EQ(decodeNcclPayload(sid(kAllReduce), nullptr, sizeof ar).kind, NcclPayload::Kind::None);
    EXPECT_EQ(decodeNcclPayload(sid(kCommSplit), &ar, sizeof ar).kind, NcclPayload::Kind::None);
    EXPECT_EQ(decodeNcclPayload(sid(14), &ar, sizeof ar).kind, NcclPayload::Kind::None); // CommFinalize
    EXPECT_EQ(decodeNcclPayload(sid(19), &ar, sizeof ar).kind, NcclPayload::Kind::None); // unknown to this decoder
    EXPECT_EQ(decodeNcclPayload(5, &ar, sizeof ar).kind, NcclPayload::Kind::None); // a predefined type, not NCCL's
    EXPECT_EQ(
        decodeNcclPayload(NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START + 5, &ar, sizeof ar).kind, NcclPayload::Kind::None);
}

TEST(NcclPayloadHostile, SizesNoReleaseUsesAreRefused)
{
    // Each schema accepts exactly the sizes of its layouts (sizeof the structs above).
    const std::array<std::pair<int, std::vector<std::size_t>>, 10> accepted { {
        { kAllReduce, { sizeof(v2_24::NvtxParamsAllReduce), sizeof(v2_25::NcclNvtxParamsAllReduce) } },
        { kReduceScatter, { sizeof(v2_24::NvtxParamsReduceScatter), sizeof(v2_25::NcclNvtxParamsReduceScatter) } },
        { kAllGather, { sizeof(std::size_t), sizeof(v2_25::NcclNvtxParamsAllGather) } },
        { kAlltoAll, { sizeof(v2_25::NcclNvtxParamsAlltoAll) } },
        { kBroadcast, { sizeof(v2_24::NvtxParamsBroadcast), sizeof(v2_25::NcclNvtxParamsBroadcast) } },
        { kGather, { sizeof(v2_25::NcclNvtxParamsGather) } },
        { kReduce, { sizeof(v2_24::NvtxParamsReduce), sizeof(v2_25::NcclNvtxParamsReduce) } },
        { kSend, { sizeof(v2_24::NvtxParamsSendRecv), sizeof(v2_25::NcclNvtxParamsSendRecv) } },
        { kCommInitRank, { sizeof(v2_24::NvtxParamsCommInitRank), sizeof(v2_25::NcclNvtxParamsCommInitRank) } },
        { kCommInitAll, { sizeof(int), sizeof(v2_25::NcclNvtxParamsCommInitAll) } },
    } };
    // Bytes that decode as a valid payload of every layout: int slots 1, 2, 8, 1, 1, ... give
    // rank 1 of 2 (v2.24 CommInitRank) and rank 1 of 8 (v2.25, after the 8-byte communicator).
    alignas(8) std::array<unsigned char, 128> bytes {};
    for (std::size_t slot = 0; slot < bytes.size() / sizeof(int); ++slot) {
        const int value = slot == 1 ? 2 : (slot == 2 ? 8 : 1);
        std::memcpy(bytes.data() + slot * sizeof(int), &value, sizeof value);
    }
    for (const auto& [schema, sizes] : accepted) {
        for (std::size_t size = 0; size <= bytes.size(); ++size) {
            const bool known = std::find(sizes.begin(), sizes.end(), size) != sizes.end();
            const auto kind = decodeNcclPayload(sid(schema), bytes.data(), size).kind;
            EXPECT_EQ(kind != NcclPayload::Kind::None, known) << "schema " << schema << " size " << size;
        }
    }
    EXPECT_EQ(decodeNcclPayload(sid(kAllReduce), bytes.data(), SIZE_MAX).kind, NcclPayload::Kind::None);
}

TEST(NcclPayloadHostile, ImpossibleRanksAreRefused)
{
    EXPECT_EQ(decoded(kCommInitRank, v2_24::NvtxParamsCommInitRank { 0, 0, 0 }).kind, NcclPayload::Kind::None);
    EXPECT_EQ(decoded(kCommInitRank, v2_24::NvtxParamsCommInitRank { 0, -4, 0 }).kind, NcclPayload::Kind::None);
    EXPECT_EQ(decoded(kCommInitRank, v2_24::NvtxParamsCommInitRank { 4, 4, 0 }).kind, NcclPayload::Kind::None);
    EXPECT_EQ(decoded(kCommInitRank, v2_25::NcclNvtxParamsCommInitRank { 1, 8, -2, 0 }).kind, NcclPayload::Kind::None);
    EXPECT_EQ(decoded(kCommInitAll, INT_MIN).kind, NcclPayload::Kind::None);
}

TEST(NcclPayloadHostile, EntriesAreLookedAtUpToTheLimit)
{
    const v2_25::NcclNvtxParamsSendRecv sr { 7, 48, 1 };
    const std::size_t limit = inject::kMaxNcclPayloadEntries;
    // A foreign entry first, NCCL's last within the limit: found, whatever reserved0 claims.
    std::vector<nvtxPayloadData_t> entries(limit + 1, nvtxPayloadData_t { NVTX_TYPE_PAYLOAD_SCHEMA_RAW, 4, &sr });
    entries[limit - 1] = nvtxPayloadData_t { sid(kSend), sizeof sr, &sr };
    nvtxEventAttributes_t a {};
    a.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    a.reserved0 = INT_MAX;
    a.payload.ullValue = reinterpret_cast<std::uintptr_t>(entries.data());
    expectCall(decodeNcclEvent(&a), "Send", sr.bytes);
    // Past the limit it is not read.
    entries[limit - 1] = entries[0];
    entries[limit] = nvtxPayloadData_t { sid(kSend), sizeof sr, &sr };
    EXPECT_EQ(decodeNcclEvent(&a).kind, NcclPayload::Kind::None);
    // A null entry pointer among them is skipped.
    entries[0] = nvtxPayloadData_t { sid(kSend), sizeof sr, nullptr };
    entries[1] = nvtxPayloadData_t { sid(kSend), sizeof sr, &sr };
    expectCall(decodeNcclEvent(&a), "Send", sr.bytes);
}

} // namespace ridgeline::testing
