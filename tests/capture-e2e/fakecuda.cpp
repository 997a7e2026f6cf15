// SPDX-License-Identifier: MIT
// A stand-in libcuda.so.1 for the end-to-end capture tests: the driver API calls the launcher's
// probe and the test program (capture_e2e_target) make, on a simulated GPU. No GPU, no NVIDIA
// code. Like the real driver, cuInit loads $CUDA_INJECTION64_PATH and calls its
// InitializeInjection; every API call is reported to the (stand-in) CUPTI, which makes the
// callbacks and activity records (fakedriver.h).
//
// Cues, read from the environment:
//   RIDGELINE_FAKE_NO_DEVICE=1        cuInit answers CUDA_ERROR_NO_DEVICE, no device is listed
//   RIDGELINE_FAKE_CUDA_VERSION=N     cuDriverGetVersion's answer (default 13000: CUDA 13.0)
//   RIDGELINE_FAKE_DEVICES=N          GPUs (default 2, for peer copies)
//
// This file: the driver's state, cuInit and the injection, devices, contexts, modules, streams and
// memory; fakecuda_work.cpp the calls that put work on the simulated GPU (copies, memsets,
// synchronisations, launches, graphs); fakecuda.h what they share.
#include "fakecuda.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>

using namespace fakecuda;
using namespace fakecuda::libcuda;

namespace fakecuda::libcuda {

std::atomic<const Hooks*> g_hooks { nullptr };
std::atomic<std::uint32_t> g_correlation { 1 }; // used only when no tool is attached

} // namespace fakecuda::libcuda

namespace {

bool cue(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

int deviceCount()
{
    if (cue("RIDGELINE_FAKE_NO_DEVICE"))
        return 0;
    const char* v = std::getenv("RIDGELINE_FAKE_DEVICES");
    const int n = v != nullptr ? std::atoi(v) : 2;
    return std::clamp(n, 1, 8);
}

} // namespace

namespace fakecuda::libcuda {

Driver& driver()
{
    static Driver* d = new Driver();
    return *d;
}

thread_local Context* t_current = nullptr;

} // namespace fakecuda::libcuda

namespace {

Context* contextFor(int device)
{
    Driver& d = driver();
    Context* created = nullptr;
    {
        std::lock_guard lock(d.mutex);
        if (d.primary.size() < static_cast<std::size_t>(deviceCount()))
            d.primary.resize(static_cast<std::size_t>(deviceCount()), nullptr);
        auto& c = d.primary.at(static_cast<std::size_t>(device));
        if (c == nullptr) {
            c = handle<Context>(true, d.nextContextId++, device);
            created = c;
        }
        if (created == nullptr)
            return c;
    }
    if (const Hooks* h = g_hooks.load(); h != nullptr && h->contextCreated != nullptr)
        h->contextCreated(
            reinterpret_cast<CUcontext>(created), created->id, static_cast<std::uint32_t>(created->device));
    return created;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void ridgelineFakeCudaAttach(const Hooks* hooks)
{
    if (hooks == nullptr || hooks->version == kHooksVersion)
        g_hooks.store(hooks);
}

// An emulated CUDA runtime call around `body` (the test program has no libcudart): reported in
// the runtime API domain; driver calls inside it share its correlation id, as with the real runtime.
__attribute__((visibility("default"))) int ridgelineFakeRuntimeCall(
    std::uint32_t cbid, const char* function, int (*body)(void*), void* argument)
{
    const Hooks* h = g_hooks.load();
    const CUcontext context = reinterpret_cast<CUcontext>(t_current);
    if (h != nullptr && h->apiEnter != nullptr)
        h->apiEnter(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, function, nullptr, context, argument);
    const int result = body(argument);
    if (h != nullptr && h->apiExit != nullptr)
        h->apiExit(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, function, nullptr, context, argument, result);
    return result;
}

CUresult cuInit(unsigned int)
{
    Driver& d = driver();
    {
        std::lock_guard lock(d.mutex);
        if (d.initialised)
            return d.initResult;
        d.initialised = true;
        if (deviceCount() == 0) {
            d.initResult = CUDA_ERROR_NO_DEVICE;
            return d.initResult;
        }
    }
    // As the real driver does: load the injection library and call its entry point, inside cuInit.
    if (const char* path = std::getenv("CUDA_INJECTION64_PATH"); path != nullptr && *path != '\0') {
        void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            std::fprintf(stderr, "fakecuda: cannot load the injection library: %s\n", dlerror());
        } else if (auto* entry = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"))) {
            (void)entry();
        }
    }
    return kOk;
}

CUresult cuDriverGetVersion(int* version)
{
    if (version == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    const char* v = std::getenv("RIDGELINE_FAKE_CUDA_VERSION");
    *version = v != nullptr ? std::atoi(v) : 13000;
    return kOk;
}

CUresult cuDeviceGetCount(int* count)
{
    if (count == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    if (!driver().initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    *count = deviceCount();
    return kOk;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal)
{
    if (device == nullptr || ordinal < 0 || ordinal >= deviceCount())
        return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return kOk;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice)
{
    if (name == nullptr || length <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    std::snprintf(name, static_cast<std::size_t>(length), "%s", kDeviceName);
    return kOk;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device)
{
    if (value == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
        *value = kCoreClockKhz;
        break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
        *value = kSmCount;
        break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
        *value = 0x18 + device;
        break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
        *value = 2'619'000;
        break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
        *value = 5120;
        break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
        *value = kL2Bytes;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
        *value = 2048;
        break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
        *value = kCcMajor;
        break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
        *value = kCcMinor;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
        *value = 233'472;
        break;
    default:
        *value = 0;
    }
    return kOk;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice)
{
    if (bytes == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = kMemoryBytes;
    return kOk;
}

CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice device)
{
    if (uuid == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned char bytes[16];
    deviceUuid(device, bytes);
    std::memcpy(uuid->bytes, bytes, 16);
    return kOk;
}

CUresult cuGetErrorName(CUresult error, const char** name)
{
    if (name == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
    case CUDA_SUCCESS:
        *name = "CUDA_SUCCESS";
        return kOk;
    case CUDA_ERROR_NO_DEVICE:
        *name = "CUDA_ERROR_NO_DEVICE";
        return kOk;
    case CUDA_ERROR_NOT_INITIALIZED:
        *name = "CUDA_ERROR_NOT_INITIALIZED";
        return kOk;
    default:
        *name = nullptr;
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device)
{
    if (context == nullptr || device < 0 || device >= deviceCount())
        return CUDA_ERROR_INVALID_VALUE;
    if (!driver().initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr);
    *context = reinterpret_cast<CUcontext>(contextFor(device));
    return api.done(kOk);
}

CUresult cuCtxSetCurrent(CUcontext context)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, "cuCtxSetCurrent", nullptr);
    t_current = reinterpret_cast<Context*>(context);
    return api.done(kOk);
}

CUresult cuModuleLoadData(CUmodule* module, const void* image)
{
    if (module == nullptr || image == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, "cuModuleLoadData", nullptr);
    *module = reinterpret_cast<CUmodule>(handle<int>(false, 1));
    return api.done(kOk);
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule, const char* name)
{
    if (function == nullptr || name == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, "cuModuleGetFunction", nullptr);
    *function = reinterpret_cast<CUfunction>(handle<Function>(false, std::string(name)));
    return api.done(kOk);
}

CUresult cuFuncSetBlockShape(CUfunction function, int x, int y, int z)
{
    if (function == nullptr)
        return CUDA_ERROR_INVALID_HANDLE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuFuncSetBlockShape, "cuFuncSetBlockShape", nullptr);
    auto* f = reinterpret_cast<Function*>(function);
    f->block[0] = static_cast<std::uint32_t>(x);
    f->block[1] = static_cast<std::uint32_t>(y);
    f->block[2] = static_cast<std::uint32_t>(z);
    return api.done(kOk);
}

CUresult cuStreamCreate(CUstream* stream, unsigned int)
{
    if (stream == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuStreamCreate, "cuStreamCreate", nullptr);
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    *stream = reinterpret_cast<CUstream>(handle<Stream>(true, d.nextStreamId++, t_current, std::uint64_t { 0 }));
    return api.done(kOk);
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes)
{
    if (pointer == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2", nullptr);
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    *pointer = d.nextAddress;
    d.nextAddress += (bytes + 0xfff) & ~std::uint64_t { 0xfff };
    return api.done(kOk);
}

CUresult cuMemFree_v2(CUdeviceptr)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cuMemFree_v2", nullptr);
    return api.done(kOk);
}

} // extern "C"
