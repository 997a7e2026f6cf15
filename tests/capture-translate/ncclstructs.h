// SPDX-License-Identifier: MIT
// NCCL's NVTX payload structs, declared here as NCCL's sources declare them (not shared with the
// decoder, so that a slip in its copy shows), and helpers that wrap one in event attributes as
// NCCL's NVTX3_FUNC_WITH_PARAMS does (nvtxPayloadData_t array, count in reserved0).
#pragma once

#include "ncclpayload.h"

#include <cstddef>
#include <cstdint>
#include <nvtx3/nvToolsExtPayload.h>

namespace ridgeline::testing::nccl {

// nccl.h: a C enum (an int)
typedef enum {
    ncclSum = 0,
    ncclProd = 1,
    ncclMax = 2,
    ncclMin = 3,
    ncclAvg = 4
} ncclRedOp_t; // NOLINT(modernize-use-using)

// github.com/NVIDIA/nccl v2.24.3-1 (6aae37927840b2bd7b7d42d2f0050e75f88ee97f), src/collectives.cc
// and src/init.cc (the same since v2.19.3-1; v2.18.3-1 in src/collectives/*.cc).
namespace v2_24 {
struct NvtxParamsAllReduce {
    size_t bytes;
    ncclRedOp_t op;
};
struct NvtxParamsBroadcast {
    size_t bytes;
    int root;
};
struct NvtxParamsReduce {
    size_t bytes;
    int root;
    ncclRedOp_t op;
};
struct NvtxParamsReduceScatter {
    size_t bytes;
    ncclRedOp_t op;
};
struct NvtxParamsSendRecv {
    size_t bytes;
    int peer;
};
struct NvtxParamsCommInitRank {
    int rank;
    int nranks;
    int cudaDev;
};
// ncclAllGather passes `size_t msgsize`, ncclCommInitAll `int ndev`, each bare.
} // namespace v2_24

// github.com/NVIDIA/nccl master 5067397c2676d5aed50042fc39e5c8ee96eb0027,
// src/include/nvtx_payload_schemas.h (the same fields since v2.25.1-1 80f6bda; AlltoAll, Gather
// and Scatter since v2.28.3-1).
namespace v2_25 {
struct NcclNvtxParamsCommInitAll {
    uint64_t commhash;
    int ndev;
};
struct NcclNvtxParamsCommInitRank {
    uint64_t newcomm;
    int nranks;
    int myrank;
    int cudaDev;
};
struct NcclNvtxParamsAllGather {
    uint64_t comm;
    size_t bytes;
};
using NcclNvtxParamsAlltoAll = NcclNvtxParamsAllGather;
struct NcclNvtxParamsAllReduce {
    uint64_t comm;
    size_t bytes;
    ncclRedOp_t op;
};
struct NcclNvtxParamsBroadcast {
    uint64_t comm;
    size_t bytes;
    int root;
};
using NcclNvtxParamsGather = NcclNvtxParamsBroadcast;
using NcclNvtxParamsScatter = NcclNvtxParamsBroadcast;
struct NcclNvtxParamsReduce {
    uint64_t comm;
    size_t bytes;
    int root;
    ncclRedOp_t op;
};
struct NcclNvtxParamsReduceScatter {
    uint64_t comm;
    size_t bytes;
    ncclRedOp_t op;
};
struct NcclNvtxParamsSendRecv {
    uint64_t comm;
    size_t bytes;
    int peer;
};
} // namespace v2_25

// NVTX_SID_* of src/include/nvtx.h, as NCCL adds them to the static start.
constexpr uint64_t sid(int n)
{
    return NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + static_cast<uint64_t>(n);
}
constexpr int kCommInitRank = 0, kCommInitAll = 1, kCommDestroy = 2, kAllGather = 4, kAllReduce = 5, kBroadcast = 6,
              kReduceScatter = 7, kReduce = 8, kSend = 9, kRecv = 10, kCommInitRankConfig = 11, kCommSplit = 13,
              kAlltoAll = 16, kGather = 17, kScatter = 18;

// One payload as NCCL's NVTX3_FUNC_WITH_PARAMS passes it.
struct Event {
    nvtxPayloadData_t data[1];
    nvtxEventAttributes_t attributes;
};

template <typename T> void wrap(Event& e, int schema, const T& payload)
{
    e.data[0] = nvtxPayloadData_t { sid(schema), sizeof(T), &payload };
    e.attributes = {};
    e.attributes.version = NVTX_VERSION;
    e.attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    e.attributes.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    e.attributes.reserved0 = 1;
    e.attributes.payload.ullValue = reinterpret_cast<std::uintptr_t>(e.data);
}

} // namespace ridgeline::testing::nccl
