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
#include "fakedriver.h"
#include "fakework.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace fakecuda;

namespace {

constexpr CUresult kOk = CUDA_SUCCESS;

std::atomic<const Hooks*> g_hooks { nullptr };
std::atomic<std::uint32_t> g_correlation { 1 }; // used only when no tool is attached

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

std::uint64_t now()
{
    if (const Hooks* h = g_hooks.load(); h != nullptr && h->timestamp != nullptr)
        return h->timestamp();
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

struct Context {
    std::uint32_t id = 0;
    int device = 0;
};

struct Stream {
    std::uint32_t id = 0;
    Context* context = nullptr;
    std::uint64_t lastEnd = 0;
};

struct Function {
    std::string name;
    std::uint32_t block[3] = { 1, 1, 1 };
};

struct GraphNode {
    Function* function = nullptr;
    std::uint32_t grid[3] = { 1, 1, 1 };
    std::uint32_t block[3] = { 1, 1, 1 };
    std::uint32_t shared = 0;
    std::uint64_t id = 0;
};

struct Graph {
    std::uint32_t id = 0;
    std::vector<GraphNode> nodes {};
};

struct GraphExec {
    Graph* graph = nullptr;
};

// Never destroyed: the process's threads may still call in while statics die.
struct Driver {
    std::mutex mutex;
    bool initialised = false;
    CUresult initResult = kOk;
    std::vector<Context*> primary; // per device
    std::map<std::pair<Context*, std::uint32_t>, Stream*> defaultStreams;
    std::uint32_t nextContextId = 1;
    std::uint32_t nextStreamId = 7;
    std::uint32_t nextGraphId = 1;
    std::uint64_t nextAddress = 0x7f0000000000ULL;
    // Every handle the driver gave out stays reachable from here (never freed, as a program's
    // handles live as long as it does; no leak for LeakSanitizer to report).
    std::vector<std::shared_ptr<void>> handles;
};
Driver& driver()
{
    static Driver* d = new Driver();
    return *d;
}

// A new handle object, kept by the driver. Caller holds the driver's mutex when `locked`.
template <typename T, typename... Args> T* handle(bool locked, Args&&... args)
{
    auto object = std::make_shared<T>(T { std::forward<Args>(args)... });
    T* raw = object.get();
    if (locked) {
        driver().handles.push_back(std::move(object));
    } else {
        std::lock_guard lock(driver().mutex);
        driver().handles.push_back(std::move(object));
    }
    return raw;
}

thread_local Context* t_current = nullptr;

Stream* streamOf(CUstream stream, Context* context)
{
    if (stream != nullptr)
        return reinterpret_cast<Stream*>(stream);
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    auto& s = d.defaultStreams[{ context, 0 }];
    if (s == nullptr)
        s = handle<Stream>(true, d.nextStreamId++, context, std::uint64_t { 0 });
    return s;
}

// Places work of `duration` on the stream's timeline (after what is queued there).
void place(Work& w, Stream* s, std::uint64_t durationNs)
{
    std::lock_guard lock(driver().mutex);
    w.start = std::max(now() + 500, s->lastEnd);
    w.end = w.start + durationNs;
    s->lastEnd = w.end;
    w.streamId = s->id;
    w.context = reinterpret_cast<CUcontext>(s->context);
    w.contextId = s->context != nullptr ? s->context->id : 0;
    w.deviceId = s->context != nullptr ? static_cast<std::uint32_t>(s->context->device) : 0;
}

void report(const Work& w)
{
    if (const Hooks* h = g_hooks.load(); h != nullptr && h->work != nullptr)
        h->work(w);
}

// One driver API call, reported to the tool on entry and exit.
class Api {
public:
    Api(std::uint32_t cbid, const char* function, const void* params, const char* symbol = nullptr)
        : m_cbid(cbid)
        , m_function(function)
        , m_symbol(symbol)
        , m_params(params)
    {
        m_context = reinterpret_cast<CUcontext>(t_current);
        if (const Hooks* h = g_hooks.load(); h != nullptr && h->apiEnter != nullptr)
            m_correlation = h->apiEnter(CUPTI_CB_DOMAIN_DRIVER_API, cbid, function, symbol, m_context, params);
        else
            m_correlation = g_correlation++;
    }
    CUresult done(CUresult result)
    {
        if (const Hooks* h = g_hooks.load(); h != nullptr && h->apiExit != nullptr)
            h->apiExit(CUPTI_CB_DOMAIN_DRIVER_API, m_cbid, m_function, m_symbol, m_context, m_params,
                static_cast<int>(result));
        return result;
    }
    std::uint32_t correlation() const { return m_correlation; }

private:
    std::uint32_t m_cbid;
    const char* m_function;
    const char* m_symbol;
    const void* m_params;
    CUcontext m_context = nullptr;
    std::uint32_t m_correlation = 0;
};

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

Work kernelWork(const Function* f, const std::uint32_t grid[3], const std::uint32_t block[3], std::uint32_t shared,
    std::uint32_t correlation)
{
    Work w;
    w.kind = WorkKind::Kernel;
    w.correlationId = correlation;
    w.name = f->name.c_str();
    std::copy(grid, grid + 3, w.grid);
    std::copy(block, block + 3, w.block);
    w.dynamicShared = shared;
    return w;
}

CUresult launch(const Function* f, const std::uint32_t grid[3], const std::uint32_t block[3], std::uint32_t shared,
    CUstream stream, std::uint32_t correlation, bool cooperative)
{
    if (f == nullptr)
        return CUDA_ERROR_INVALID_HANDLE;
    if (t_current == nullptr && stream == nullptr)
        return CUDA_ERROR_INVALID_CONTEXT;
    Stream* s = streamOf(stream, t_current);
    Work w = kernelWork(f, grid, block, shared, correlation);
    w.cooperative = cooperative;
    place(w, s, profileOf(w.name).durationNs);
    report(w);
    return kOk;
}

CUresult copy(WorkKind kind, std::uint8_t copyKind, std::uint8_t src, std::uint8_t dst, std::size_t bytes,
    CUstream stream, std::uint32_t correlation, double bytesPerSecond)
{
    if (t_current == nullptr)
        return CUDA_ERROR_INVALID_CONTEXT;
    Work w;
    w.kind = kind;
    w.correlationId = correlation;
    w.copyKind = copyKind;
    w.srcKind = src;
    w.dstKind = dst;
    w.bytes = bytes;
    place(w, streamOf(stream, t_current),
        1000 + static_cast<std::uint64_t>(static_cast<double>(bytes) / bytesPerSecond * 1e9));
    report(w);
    return kOk;
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

CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void*, size_t bytes)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2", nullptr);
    return api.done(copy(WorkKind::Memcpy, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
        CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, bytes, nullptr, api.correlation(), 25e9));
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr, const void*, size_t bytes, CUstream stream)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2", nullptr);
    return api.done(copy(WorkKind::Memcpy, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
        CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, bytes, stream, api.correlation(), 50e9));
}

CUresult cuMemcpyDtoH_v2(void*, CUdeviceptr, size_t bytes)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2", nullptr);
    return api.done(copy(WorkKind::Memcpy, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
        CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, bytes, nullptr, api.correlation(), 25e9));
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr, CUdeviceptr, size_t bytes)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2, "cuMemcpyDtoD_v2", nullptr);
    return api.done(copy(WorkKind::Memcpy, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
        CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, bytes, nullptr, api.correlation(), 1.5e12));
}

CUresult cuMemcpyPeer(CUdeviceptr, CUcontext dstContext, CUdeviceptr, CUcontext srcContext, size_t bytes)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer, "cuMemcpyPeer", nullptr);
    auto* src = reinterpret_cast<Context*>(srcContext);
    auto* dst = reinterpret_cast<Context*>(dstContext);
    if (src == nullptr || dst == nullptr)
        return api.done(CUDA_ERROR_INVALID_CONTEXT);
    Work w;
    w.kind = WorkKind::PeerCopy;
    w.correlationId = api.correlation();
    w.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    w.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    w.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    w.bytes = bytes;
    w.srcDeviceId = static_cast<std::uint32_t>(src->device);
    w.dstDeviceId = static_cast<std::uint32_t>(dst->device);
    w.srcContextId = src->id;
    w.dstContextId = dst->id;
    place(w, streamOf(nullptr, src), 1000 + static_cast<std::uint64_t>(static_cast<double>(bytes) / 300e9 * 1e9));
    report(w);
    return api.done(kOk);
}

CUresult cuMemsetD8_v2(CUdeviceptr, unsigned char value, size_t count)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2, "cuMemsetD8_v2", nullptr);
    if (t_current == nullptr)
        return api.done(CUDA_ERROR_INVALID_CONTEXT);
    Work w;
    w.kind = WorkKind::Memset;
    w.correlationId = api.correlation();
    w.bytes = count;
    w.value = value;
    w.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    place(w, streamOf(nullptr, t_current), 1000 + count / 2000);
    report(w);
    return api.done(kOk);
}

CUresult cuStreamSynchronize(CUstream stream)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, "cuStreamSynchronize", nullptr);
    if (t_current == nullptr && stream == nullptr)
        return api.done(CUDA_ERROR_INVALID_CONTEXT);
    Stream* s = streamOf(stream, t_current);
    Work w;
    w.kind = WorkKind::Sync;
    w.correlationId = api.correlation();
    w.syncType = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    w.start = now();
    {
        std::lock_guard lock(driver().mutex);
        w.end = std::max(w.start + 100, s->lastEnd);
    }
    w.streamId = s->id;
    w.context = reinterpret_cast<CUcontext>(s->context);
    w.contextId = s->context != nullptr ? s->context->id : 0;
    report(w);
    return api.done(kOk);
}

CUresult cuCtxSynchronize()
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize", nullptr);
    if (t_current == nullptr)
        return api.done(CUDA_ERROR_INVALID_CONTEXT);
    Work w;
    w.kind = WorkKind::Sync;
    w.correlationId = api.correlation();
    w.syncType = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    w.start = now();
    {
        std::lock_guard lock(driver().mutex);
        w.end = w.start + 100;
        for (const auto& [key, s] : driver().defaultStreams)
            w.end = std::max(w.end, s->lastEnd);
    }
    w.context = reinterpret_cast<CUcontext>(t_current);
    w.contextId = t_current->id;
    report(w);
    return api.done(kOk);
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
    unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void**, void**)
{
    const auto* function = reinterpret_cast<const Function*>(f);
    Api api(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel", nullptr,
        function != nullptr ? function->name.c_str() : nullptr);
    const std::uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
    return api.done(launch(function, grid, block, shared, stream, api.correlation(), false));
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
    unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void**)
{
    const auto* function = reinterpret_cast<const Function*>(f);
    Api api(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", nullptr,
        function != nullptr ? function->name.c_str() : nullptr);
    const std::uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
    return api.done(launch(function, grid, block, shared, stream, api.correlation(), true));
}

CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS* list, unsigned int count, unsigned int)
{
    Api api(
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice, "cuLaunchCooperativeKernelMultiDevice", nullptr);
    if (list == nullptr)
        return api.done(CUDA_ERROR_INVALID_VALUE);
    for (unsigned int i = 0; i < count; ++i) {
        const CUDA_LAUNCH_PARAMS& p = list[i];
        const std::uint32_t grid[3] = { p.gridDimX, p.gridDimY, p.gridDimZ };
        const std::uint32_t block[3] = { p.blockDimX, p.blockDimY, p.blockDimZ };
        if (const CUresult r = launch(reinterpret_cast<const Function*>(p.function), grid, block, p.sharedMemBytes,
                p.hStream, api.correlation(), true);
            r != kOk)
            return api.done(r);
    }
    return api.done(kOk);
}

CUresult cuLaunchGridAsync(CUfunction f, int width, int height, CUstream stream)
{
    const auto* function = reinterpret_cast<const Function*>(f);
    Api api(CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync, "cuLaunchGridAsync", nullptr,
        function != nullptr ? function->name.c_str() : nullptr);
    if (function == nullptr)
        return api.done(CUDA_ERROR_INVALID_HANDLE);
    const std::uint32_t grid[3] = { static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1 };
    return api.done(launch(function, grid, function->block, 0, stream, api.correlation(), false));
}

CUresult cuLaunchGrid(CUfunction f, int width, int height)
{
    const auto* function = reinterpret_cast<const Function*>(f);
    Api api(CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid, "cuLaunchGrid", nullptr,
        function != nullptr ? function->name.c_str() : nullptr);
    if (function == nullptr)
        return api.done(CUDA_ERROR_INVALID_HANDLE);
    const std::uint32_t grid[3] = { static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1 };
    return api.done(launch(function, grid, function->block, 0, nullptr, api.correlation(), false));
}

CUresult cuLaunch(CUfunction f)
{
    const auto* function = reinterpret_cast<const Function*>(f);
    Api api(
        CUPTI_DRIVER_TRACE_CBID_cuLaunch, "cuLaunch", nullptr, function != nullptr ? function->name.c_str() : nullptr);
    if (function == nullptr)
        return api.done(CUDA_ERROR_INVALID_HANDLE);
    const std::uint32_t grid[3] = { 1, 1, 1 };
    return api.done(launch(function, grid, function->block, 0, nullptr, api.correlation(), false));
}

CUresult cuGraphCreate(CUgraph* graph, unsigned int)
{
    if (graph == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuGraphCreate, "cuGraphCreate", nullptr);
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    *graph = reinterpret_cast<CUgraph>(handle<Graph>(true, d.nextGraphId++));
    return api.done(kOk);
}

CUresult cuGraphAddKernelNode_v2(
    CUgraphNode* node, CUgraph graph, const CUgraphNode*, size_t, const CUDA_KERNEL_NODE_PARAMS* params)
{
    if (node == nullptr || graph == nullptr || params == nullptr || params->func == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2, "cuGraphAddKernelNode_v2", nullptr);
    auto* g = reinterpret_cast<Graph*>(graph);
    GraphNode n;
    n.function = reinterpret_cast<Function*>(params->func);
    n.grid[0] = params->gridDimX;
    n.grid[1] = params->gridDimY;
    n.grid[2] = params->gridDimZ;
    n.block[0] = params->blockDimX;
    n.block[1] = params->blockDimY;
    n.block[2] = params->blockDimZ;
    n.shared = params->sharedMemBytes;
    n.id = (std::uint64_t { g->id } << 32) | (g->nodes.size() + 1);
    g->nodes.push_back(n);
    *node = reinterpret_cast<CUgraphNode>(n.id);
    return api.done(kOk);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long)
{
    if (exec == nullptr || graph == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
    Api api(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", nullptr);
    *exec = reinterpret_cast<CUgraphExec>(handle<GraphExec>(false, reinterpret_cast<Graph*>(graph)));
    return api.done(kOk);
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream)
{
    Api api(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch", nullptr);
    if (exec == nullptr)
        return api.done(CUDA_ERROR_INVALID_VALUE);
    if (t_current == nullptr && stream == nullptr)
        return api.done(CUDA_ERROR_INVALID_CONTEXT);
    const Graph* g = reinterpret_cast<GraphExec*>(exec)->graph;
    Stream* s = streamOf(stream, t_current);
    for (std::size_t i = 0; i < g->nodes.size(); ++i) {
        const GraphNode& n = g->nodes[i];
        Work w = kernelWork(n.function, n.grid, n.block, n.shared, api.correlation());
        w.graphId = g->id;
        w.graphNodeId = n.id;
        w.graphNodeIndex = static_cast<std::uint32_t>(i);
        w.graphNodeCount = static_cast<std::uint32_t>(g->nodes.size());
        place(w, s, profileOf(w.name).durationNs);
        report(w);
    }
    return api.done(kOk);
}

} // extern "C"
