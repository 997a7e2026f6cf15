// SPDX-License-Identifier: MIT
// What capture_e2e_target's `nccl` mode sends as NCCL would (target_nccl.cpp), for the test that
// checks the session's comm_ops rows against it (test_capture_e2e_nccl.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ridgeline::e2e::nccl {

// NCCL 2.24 layout (github.com/NVIDIA/nccl v2.24.3-1 src/init.cc, src/collectives.cc): no communicator.
struct V224CommInitRank {
    int rank;
    int nranks;
    int cudaDev;
};
struct V224Broadcast {
    std::size_t bytes;
    int root;
};
// NCCL >= 2.25 layout (src/include/nvtx_payload_schemas.h): the communicator's hash first.
struct V225AllReduce {
    std::uint64_t comm;
    std::size_t bytes;
    int op;
};

constexpr std::uint64_t kSchemaStart = 1ULL << 24; // NVTX_PAYLOAD_ENTRY_TYPE_SCHEMA_ID_STATIC_START
constexpr int kSidCommInitRank = 0, kSidAllGather = 4, kSidAllReduce = 5, kSidBroadcast = 6; // NVTX_SID_*

constexpr V224CommInitRank kInit { 1, 4, 0 };
constexpr std::size_t kAllGatherMessage = 3 * 1024 * 4; // sendcount x sizeof(float)
constexpr V224Broadcast kBroadcast { 1 << 20, 2 };
constexpr V225AllReduce kAllReduce { 0x5eed0123456789abULL, 8 << 20, 0 };

constexpr const char* kAllGatherKernel = "ncclDevKernel_AllGather_RING_LL";
constexpr const char* kBroadcastKernel = "ncclDevKernel_Broadcast_RING_LL";
constexpr const char* kGenericKernel = "ncclDevKernel_Generic";

} // namespace ridgeline::e2e::nccl
