// SPDX-License-Identifier: MIT
// NCCL's NVTX extended payloads -> what an NCCL API call was asked to do. NCCL (>= 2.16.2) wraps
// each API call in an NVTX push/pop range of its domain "NCCL" whose event attributes carry an
// extended payload (payloadType NVTX_PAYLOAD_TYPE_EXT, payload.ullValue -> nvtxPayloadData_t[],
// count in reserved0; nvtx3/nvToolsExtPayload.h). Each entry names a static schema id
// (NVTX_PAYLOAD_ENTRY_TYPE_SCHEMA_ID_STATIC_START + NVTX_SID_<Name>, NCCL's src/include/nvtx.h) and
// the struct's size. The layouts, from github.com/NVIDIA/nccl:
//  - v2.16 .. v2.24 (e.g. v2.24.3-1 @6aae379, src/collectives.cc, src/init.cc): no communicator,
//    { size_t bytes; ... } and CommInitRank { int rank, nranks, cudaDev; };
//  - v2.25 and later (v2.25.1-1 @80f6bda .. master @5067397, src/include/nvtx_payload_schemas.h):
//    { uint64_t comm (commHash); size_t bytes; ... } and CommInitRank { uint64_t newcomm; int
//    nranks, myrank, cudaDev; }.
// A layout is told by its schema id and its size together; any other size is refused, not guessed.
// Pure: no CUPTI or NVTX call (docs/CAPTURE.md "NCCL collectives").
#pragma once

#include <cstddef>
#include <cstdint>

// clang-format off
#include <nvtx3/nvToolsExt.h>
// clang-format on

namespace ridgeline::inject {

// NCCL's static schema ids (src/include/nvtx.h, NVTX_SID_*; the same numbers in every release).
enum class NcclSchema : std::uint32_t {
    CommInitRank = 0,
    CommInitAll = 1,
    CommDestroy = 2,
    CommAbort = 3,
    AllGather = 4,
    AllReduce = 5,
    Broadcast = 6,
    ReduceScatter = 7,
    Reduce = 8,
    Send = 9,
    Recv = 10,
    CommInitRankConfig = 11,
    CommInitRankScalable = 12,
    CommSplit = 13,
    AlltoAll = 16,
    Gather = 17,
    Scatter = 18,
};
// NVTX_PAYLOAD_ENTRY_TYPE_SCHEMA_ID_STATIC_START (nvtx3/nvToolsExtPayload.h).
inline constexpr std::uint64_t kNcclSchemaBase = 1ULL << 24;
constexpr std::uint64_t ncclSchemaId(NcclSchema schema)
{
    return kNcclSchemaBase + static_cast<std::uint64_t>(schema);
}

// One NCCL API call that moves data (a collective, ncclSend or ncclRecv).
struct NcclCall {
    const char* collective = ""; // "AllReduce", "AllGather", "Send", ... (static text)
    bool perRankMessage = false; // the message is one rank's share: S = message x ranks
    std::uint64_t messageBytes = 0; // NCCL's "Message size [bytes]" (count x type size)
    bool hasComm = false; // NCCL >= 2.25 names the communicator (its commHash)
    std::uint64_t comm = 0;
    int root = -1; // Broadcast, Reduce, Gather, Scatter
    int peer = -1; // Send, Recv
    int reductionOp = -1; // ncclRedOp_t of AllReduce, Reduce, ReduceScatter
};

// A communicator's creation (or destruction, which carries the same fields).
struct NcclCommInfo {
    bool hasComm = false; // NCCL >= 2.25
    std::uint64_t comm = 0;
    int ranks = 0;
    int rank = -1; // -1 when the payload does not say (CommInitAll)
};

struct NcclPayload {
    enum class Kind { None, Call, Comm };
    Kind kind = Kind::None;
    NcclCall call;
    NcclCommInfo comm;
};

// One nvtxPayloadData_t entry: its schema id, size and bytes. None for an unknown schema, a size
// no NCCL release uses for it, a null pointer or values that cannot be (negative ranks).
NcclPayload decodeNcclPayload(std::uint64_t schemaId, const void* data, std::size_t size);

// The first NCCL payload among an event's extended payload entries. None when the attributes are
// null, carry no extended payload, or hold no entry this decoder knows. At most
// kMaxNcclPayloadEntries entries are looked at, whatever reserved0 says.
inline constexpr std::size_t kMaxNcclPayloadEntries = 8;
NcclPayload decodeNcclEvent(const nvtxEventAttributes_t* attributes);

} // namespace ridgeline::inject
