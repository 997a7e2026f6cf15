// SPDX-License-Identifier: MIT
// capture_e2e_target's `nccl` mode: NCCL API calls as NCCL makes them, without NCCL: each call is
// a range of the NVTX domain "NCCL" carrying an extended payload (an nvtxPayloadData_t array, its
// count in reserved0: NCCL's NVTX3_FUNC_WITH_PARAMS, src/include/nvtx.h), and the calls that move
// data launch an NCCL kernel inside their range. The payloads are in ncclcalls.h.
#include "ncclcalls.h"

#include <cstdio>
#include <cuda.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>

int modeNccl();

namespace {

int g_ncclFailures = 0;

void checkNccl(CUresult r, const char* what)
{
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "capture_e2e_target: %s failed (%d)\n", what, static_cast<int>(r));
        ++g_ncclFailures;
    }
}

// One NCCL call: push the range with `payload`, launch `kernel` (if any) inside it, pop.
template <typename T>
void ncclCall(nvtxDomainHandle_t domain, const char* name, int sid, const T& payload, CUfunction kernel)
{
    using namespace ridgeline::e2e::nccl;
    nvtxPayloadData_t data[] = { { kSchemaStart + static_cast<std::uint64_t>(sid), sizeof(T), &payload } };
    nvtxEventAttributes_t a {};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    a.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    a.reserved0 = 1;
    a.payload.ullValue = NVTX_POINTER_AS_PAYLOAD_ULLVALUE(data);
    nvtxDomainRangePushEx(domain, &a);
    if (kernel != nullptr)
        checkNccl(cuLaunchKernel(kernel, 8, 1, 1, 512, 1, 1, 0, nullptr, nullptr, nullptr), "cuLaunchKernel");
    nvtxDomainRangePop(domain);
}

} // namespace

int modeNccl()
{
    using namespace ridgeline::e2e::nccl;
    checkNccl(cuInit(0), "cuInit");
    CUdevice device = 0;
    CUcontext context = nullptr;
    checkNccl(cuDeviceGet(&device, 0), "cuDeviceGet");
    checkNccl(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    checkNccl(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    CUmodule module = nullptr;
    checkNccl(cuModuleLoadData(&module, "stand-in module"), "cuModuleLoadData");
    CUfunction allGather = nullptr, broadcast = nullptr, generic = nullptr;
    checkNccl(cuModuleGetFunction(&allGather, module, kAllGatherKernel), "cuModuleGetFunction");
    checkNccl(cuModuleGetFunction(&broadcast, module, kBroadcastKernel), "cuModuleGetFunction");
    checkNccl(cuModuleGetFunction(&generic, module, kGenericKernel), "cuModuleGetFunction");

    const nvtxDomainHandle_t domain = nvtxDomainCreateA("NCCL");
    ncclCall(domain, "ncclCommInitRank", kSidCommInitRank, kInit, nullptr);
    ncclCall(domain, "ncclAllGather", kSidAllGather, kAllGatherMessage, allGather); // a bare size_t
    ncclCall(domain, "ncclBroadcast", kSidBroadcast, kBroadcast, broadcast);
    ncclCall(domain, "ncclAllReduce", kSidAllReduce, kAllReduce, generic);
    // A kernel outside any NCCL call carries nothing.
    checkNccl(cuLaunchKernel(generic, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr), "cuLaunchKernel");
    checkNccl(cuCtxSynchronize(), "cuCtxSynchronize");
    return g_ncclFailures == 0 ? 0 : 2;
}
