// SPDX-License-Identifier: MIT
// The private interface between the stand-in libcuda.so.1 (fakecuda.cpp) and the stand-in
// libcupti.so.13 (fakecupti.cpp) of the end-to-end capture tests. Tests only: nothing here is
// NVIDIA's. The real driver and CUPTI talk through undocumented export tables; the stand-ins talk
// through this: the driver reports each API call (enter and exit) and each piece of "GPU work" it
// simulates, and CUPTI turns them into callbacks, CUDA 13 activity records and counter ranges.
//
// libcupti attaches when the injection library (which links it) is loaded by the driver's cuInit:
// it looks up `ridgelineFakeCudaAttach` in the already loaded libcuda.so.1 and hands it its hooks.
#pragma once

#include <cstdint>
#include <cuda.h>
#include <cupti.h>

namespace fakecuda {

inline constexpr std::uint32_t kHooksVersion = 1;

enum class WorkKind : std::uint32_t { Kernel, Memcpy, PeerCopy, Memset, Sync };

// One piece of simulated GPU work, already placed on the GPU timeline by the driver.
struct Work {
    WorkKind kind = WorkKind::Kernel;
    std::uint32_t correlationId = 0;
    CUcontext context = nullptr;
    std::uint32_t contextId = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t streamId = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    // Kernel
    const char* name = nullptr; // mangled; lives as long as the process
    std::uint32_t grid[3] = { 1, 1, 1 };
    std::uint32_t block[3] = { 1, 1, 1 };
    std::uint32_t dynamicShared = 0;
    std::uint32_t graphId = 0; // 0: not from a graph
    std::uint64_t graphNodeId = 0;
    std::uint32_t graphNodeIndex = 0; // position among the kernel nodes of this graph launch
    std::uint32_t graphNodeCount = 0; // kernel nodes of this graph launch
    bool cooperative = false;
    // Copies and memsets
    std::uint8_t copyKind = 0; // CUpti_ActivityMemcpyKind
    std::uint8_t srcKind = 0; // CUpti_ActivityMemoryKind
    std::uint8_t dstKind = 0;
    std::uint64_t bytes = 0;
    std::uint32_t srcDeviceId = 0;
    std::uint32_t dstDeviceId = 0;
    std::uint32_t srcContextId = 0;
    std::uint32_t dstContextId = 0;
    std::uint32_t value = 0; // memset
    std::uint32_t syncType = 0; // CUpti_ActivitySynchronizationType
};

struct Hooks {
    std::uint32_t version = kHooksVersion;
    // Called on entry to a driver (or emulated runtime) API call; returns its correlation id.
    std::uint32_t (*apiEnter)(CUpti_CallbackDomain domain, std::uint32_t cbid, const char* function, const char* symbol,
        CUcontext context, const void* params)
        = nullptr;
    void (*apiExit)(CUpti_CallbackDomain domain, std::uint32_t cbid, const char* function, const char* symbol,
        CUcontext context, const void* params, int result)
        = nullptr;
    void (*work)(const Work& work) = nullptr;
    void (*contextCreated)(CUcontext context, std::uint32_t contextId, std::uint32_t deviceId) = nullptr;
    std::uint64_t (*timestamp)() = nullptr;
};

// Exported by the stand-in libcuda.so.1.
using AttachFunction = void (*)(const Hooks* hooks);
inline constexpr const char* kAttachSymbol = "ridgelineFakeCudaAttach";

// Device properties both stand-ins report (an H100 SXM5 as the CUDA driver names it).
inline constexpr const char* kDeviceName = "NVIDIA H100 80GB HBM3";
inline constexpr int kCcMajor = 9;
inline constexpr int kCcMinor = 0;
inline constexpr int kSmCount = 132;
inline constexpr int kCoreClockKhz = 1'980'000;
inline constexpr std::uint64_t kMemoryBytes = 85'899'345'920ULL;
inline constexpr int kL2Bytes = 52'428'800;

// The device UUID's bytes: 0x10 + i, with device id in the last byte.
inline void deviceUuid(int device, unsigned char out[16])
{
    for (int i = 0; i < 16; ++i)
        out[i] = static_cast<unsigned char>(0x10 + i);
    out[15] = static_cast<unsigned char>(0xa0 + device);
}

} // namespace fakecuda
