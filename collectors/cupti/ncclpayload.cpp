// SPDX-License-Identifier: MIT
#include "ncclpayload.h"

#include <algorithm>
#include <cstring>
#include <nvtx3/nvToolsExtPayload.h>

namespace ridgeline::inject {

namespace {

// NCCL's bundled header calls it NVTX_PAYLOAD_ENTRY_TYPE_SCHEMA_ID_STATIC_START; both are 1 << 24.
static_assert(kNcclSchemaBase == NVTX_PAYLOAD_SCHEMA_ID_STATIC_START);

// The structs NCCL passes, field for field (ncclRedOp_t is a C enum: an int). Read with memcpy, so
// the payload's alignment does not matter.
namespace v1 { // NCCL 2.16 .. 2.24: github.com/NVIDIA/nccl v2.24.3-1 src/collectives.cc, src/init.cc
struct MessageOp { // AllReduce, ReduceScatter
    std::size_t bytes;
    int op;
};
struct MessageRoot { // Broadcast
    std::size_t bytes;
    int root;
};
struct Reduce {
    std::size_t bytes;
    int root;
    int op;
};
struct SendRecv {
    std::size_t bytes;
    int peer;
};
struct CommInitRank { // also CommInitRankConfig, CommInitRankScalable, CommDestroy, CommAbort
    int rank;
    int nranks;
    int cudaDev;
};
// AllGather passes a bare size_t; CommInitAll a bare int (the number of devices).
} // namespace v1

namespace v2 { // NCCL 2.25 and later: src/include/nvtx_payload_schemas.h (v2.25.1-1 .. master @5067397)
struct Message { // AllGather, AlltoAll
    std::uint64_t comm;
    std::size_t bytes;
};
struct MessageOp { // AllReduce, ReduceScatter
    std::uint64_t comm;
    std::size_t bytes;
    int op;
};
struct MessageRoot { // Broadcast, Gather, Scatter
    std::uint64_t comm;
    std::size_t bytes;
    int root;
};
struct Reduce {
    std::uint64_t comm;
    std::size_t bytes;
    int root;
    int op;
};
struct SendRecv {
    std::uint64_t comm;
    std::size_t bytes;
    int peer;
};
struct CommInitRank {
    std::uint64_t newcomm;
    int nranks;
    int myrank;
    int cudaDev;
};
struct CommInitAll {
    std::uint64_t commhash;
    int ndev;
};
} // namespace v2

// The sizes NCCL passes as nvtxPayloadData_t.size on x86-64 and aarch64 Linux (LP64).
static_assert(sizeof(std::size_t) == 8 && sizeof(int) == 4);
static_assert(sizeof(v1::MessageOp) == 16 && sizeof(v1::MessageRoot) == 16 && sizeof(v1::Reduce) == 16
    && sizeof(v1::SendRecv) == 16 && sizeof(v1::CommInitRank) == 12);
static_assert(sizeof(v2::Message) == 16 && sizeof(v2::MessageOp) == 24 && sizeof(v2::MessageRoot) == 24
    && sizeof(v2::Reduce) == 24 && sizeof(v2::SendRecv) == 24 && sizeof(v2::CommInitRank) == 24
    && sizeof(v2::CommInitAll) == 16);

template <typename T> T read(const void* data)
{
    T value;
    std::memcpy(&value, data, sizeof value);
    return value;
}

NcclPayload call(const char* collective, bool perRankMessage, std::uint64_t bytes)
{
    NcclPayload p;
    p.kind = NcclPayload::Kind::Call;
    p.call.collective = collective;
    p.call.perRankMessage = perRankMessage;
    p.call.messageBytes = bytes;
    return p;
}

NcclPayload withComm(NcclPayload p, std::uint64_t comm)
{
    p.call.hasComm = true;
    p.call.comm = comm;
    return p;
}

NcclPayload comm(bool hasComm, std::uint64_t id, int ranks, int rank)
{
    NcclPayload p;
    if (ranks <= 0 || rank < -1 || rank >= ranks)
        return p;
    p.kind = NcclPayload::Kind::Comm;
    p.comm = NcclCommInfo { hasComm, id, ranks, rank };
    return p;
}

// A message with a reduction op: AllReduce (whole message) or ReduceScatter (one rank's share).
NcclPayload messageOp(const char* collective, bool perRank, const void* data, std::size_t size)
{
    if (size == sizeof(v1::MessageOp)) {
        const auto s = read<v1::MessageOp>(data);
        NcclPayload p = call(collective, perRank, s.bytes);
        p.call.reductionOp = s.op;
        return p;
    }
    if (size == sizeof(v2::MessageOp)) {
        const auto s = read<v2::MessageOp>(data);
        NcclPayload p = withComm(call(collective, perRank, s.bytes), s.comm);
        p.call.reductionOp = s.op;
        return p;
    }
    return {};
}

NcclPayload messageRoot(const char* collective, bool perRank, const void* data, std::size_t size, bool v1Known)
{
    if (v1Known && size == sizeof(v1::MessageRoot)) {
        const auto s = read<v1::MessageRoot>(data);
        NcclPayload p = call(collective, perRank, s.bytes);
        p.call.root = s.root;
        return p;
    }
    if (size == sizeof(v2::MessageRoot)) {
        const auto s = read<v2::MessageRoot>(data);
        NcclPayload p = withComm(call(collective, perRank, s.bytes), s.comm);
        p.call.root = s.root;
        return p;
    }
    return {};
}

NcclPayload message(const char* collective, const void* data, std::size_t size, bool v1Known)
{
    if (v1Known && size == sizeof(std::size_t))
        return call(collective, true, read<std::size_t>(data));
    if (size == sizeof(v2::Message)) {
        const auto s = read<v2::Message>(data);
        return withComm(call(collective, true, s.bytes), s.comm);
    }
    return {};
}

NcclPayload reduce(const void* data, std::size_t size)
{
    // v1 and v2 differ in size (16 and 24 bytes).
    if (size == sizeof(v1::Reduce)) {
        const auto s = read<v1::Reduce>(data);
        NcclPayload p = call("Reduce", false, s.bytes);
        p.call.root = s.root;
        p.call.reductionOp = s.op;
        return p;
    }
    if (size == sizeof(v2::Reduce)) {
        const auto s = read<v2::Reduce>(data);
        NcclPayload p = withComm(call("Reduce", false, s.bytes), s.comm);
        p.call.root = s.root;
        p.call.reductionOp = s.op;
        return p;
    }
    return {};
}

NcclPayload sendRecv(const char* collective, const void* data, std::size_t size)
{
    if (size == sizeof(v1::SendRecv)) {
        const auto s = read<v1::SendRecv>(data);
        NcclPayload p = call(collective, false, s.bytes);
        p.call.peer = s.peer;
        return p;
    }
    if (size == sizeof(v2::SendRecv)) {
        const auto s = read<v2::SendRecv>(data);
        NcclPayload p = withComm(call(collective, false, s.bytes), s.comm);
        p.call.peer = s.peer;
        return p;
    }
    return {};
}

NcclPayload commInitRank(const void* data, std::size_t size)
{
    if (size == sizeof(v1::CommInitRank)) {
        const auto s = read<v1::CommInitRank>(data);
        return comm(false, 0, s.nranks, s.rank);
    }
    if (size == sizeof(v2::CommInitRank)) {
        const auto s = read<v2::CommInitRank>(data);
        return comm(true, s.newcomm, s.nranks, s.myrank);
    }
    return {};
}

NcclPayload commInitAll(const void* data, std::size_t size)
{
    if (size == sizeof(int))
        return comm(false, 0, read<int>(data), -1);
    if (size == sizeof(v2::CommInitAll)) {
        const auto s = read<v2::CommInitAll>(data);
        return comm(true, s.commhash, s.ndev, -1);
    }
    return {};
}

} // namespace

NcclPayload decodeNcclPayload(std::uint64_t schemaId, const void* data, std::size_t size)
{
    if (!data || schemaId < kNcclSchemaBase || schemaId > ncclSchemaId(NcclSchema::Scatter))
        return {};
    switch (static_cast<NcclSchema>(schemaId - kNcclSchemaBase)) {
    case NcclSchema::AllReduce:
        return messageOp("AllReduce", false, data, size);
    case NcclSchema::ReduceScatter:
        return messageOp("ReduceScatter", true, data, size);
    case NcclSchema::AllGather:
        return message("AllGather", data, size, true);
    case NcclSchema::AlltoAll: // NCCL >= 2.28 only
        return message("AlltoAll", data, size, false);
    case NcclSchema::Broadcast:
        return messageRoot("Broadcast", false, data, size, true);
    case NcclSchema::Gather: // NCCL >= 2.28 only
        return messageRoot("Gather", true, data, size, false);
    case NcclSchema::Scatter: // NCCL >= 2.28 only
        return messageRoot("Scatter", true, data, size, false);
    case NcclSchema::Reduce:
        return reduce(data, size);
    case NcclSchema::Send:
        return sendRecv("Send", data, size);
    case NcclSchema::Recv:
        return sendRecv("Recv", data, size);
    case NcclSchema::CommInitRank:
    case NcclSchema::CommInitRankConfig:
    case NcclSchema::CommInitRankScalable:
    case NcclSchema::CommDestroy:
    case NcclSchema::CommAbort:
        return commInitRank(data, size);
    case NcclSchema::CommInitAll:
        return commInitAll(data, size);
    case NcclSchema::CommSplit:
        // Both layouts carry the parent's size and rank (v2.23.4-1 and v2.25.1-1 src/init.cc,
        // ncclCommSplit), not the new communicator's: nothing is taken from it.
        return {};
    default:
        return {};
    }
}

NcclPayload decodeNcclEvent(const nvtxEventAttributes_t* attributes)
{
    if (!attributes || attributes->payloadType != NVTX_PAYLOAD_TYPE_EXT || attributes->reserved0 <= 0)
        return {};
    const auto* entries
        = reinterpret_cast<const nvtxPayloadData_t*>(static_cast<std::uintptr_t>(attributes->payload.ullValue));
    if (!entries)
        return {};
    const std::size_t count
        = std::min<std::size_t>(static_cast<std::size_t>(attributes->reserved0), kMaxNcclPayloadEntries);
    for (std::size_t i = 0; i < count; ++i) {
        NcclPayload p = decodeNcclPayload(entries[i].schemaId, entries[i].payload, entries[i].size);
        if (p.kind != NcclPayload::Kind::None)
            return p;
    }
    return {};
}

} // namespace ridgeline::inject
