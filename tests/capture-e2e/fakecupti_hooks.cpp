// SPDX-License-Identifier: MIT
// What the stand-in libcupti.so.13 (fakecupti.cpp) does with what the stand-in libcuda.so.1
// reports (fakedriver.h): API calls become callbacks and API records, GPU work becomes kernel,
// copy, memset and synchronisation records (and counter ranges), new contexts device records.
// Also how it attaches to the driver when loaded, and what it does around fork().
#include "fakecupti.h"

#include <cstdint>
#include <cstring>
#include <cupti.h>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>
#include <set>
#include <vector>

using namespace fakecuda;
using namespace fakecuda::libcupti;

// ---------------------------------------------------------------------------------------------
// Hooks for the stand-in driver

namespace {

struct Frame {
    CUpti_CallbackDomain domain;
    std::uint32_t cbid;
    std::uint32_t correlation;
    std::uint64_t start;
    std::uint64_t correlationData;
    int result;
};
thread_local std::vector<Frame> t_frames;
thread_local std::uint32_t t_runtimeCorrelation = 0;

std::uint32_t contextId(CUcontext context)
{
    // The stand-in driver's contexts start with their id (fakecuda.cpp, struct Context).
    return context != nullptr ? *reinterpret_cast<const std::uint32_t*>(context) : 0;
}

void deviceRecord(std::uint32_t device)
{
    static std::mutex* mutex = new std::mutex();
    static auto* seen = new std::set<std::uint32_t>();
    {
        std::lock_guard lock(*mutex);
        if (!seen->insert(device).second)
            return;
    }
    auto d = zeroed<CUpti_ActivityDevice5>();
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.globalMemorySize = kMemoryBytes;
    d.l2CacheSize = kL2Bytes;
    d.numThreadsPerWarp = 32;
    d.coreClockRate = kCoreClockKhz;
    d.numMultiprocessors = kSmCount;
    d.maxWarpsPerMultiprocessor = 64;
    d.maxSharedMemoryPerMultiprocessor = 233'472;
    d.computeCapabilityMajor = kCcMajor;
    d.computeCapabilityMinor = kCcMinor;
    d.id = device;
    unsigned char uuid[16];
    deviceUuid(static_cast<int>(device), uuid);
    std::memcpy(d.uuid.bytes, uuid, 16);
    d.name = intern(kDeviceName);
    if (emit(&d))
        ledger("device\t%u\t%u\t%s", pid(), device, kDeviceName);
}

void onContextCreated(CUcontext context, std::uint32_t, std::uint32_t device)
{
    {
        std::lock_guard lock(contextMutex());
        contextDevices()[context] = device;
    }
    deviceRecord(device);
    CUpti_ResourceData data {};
    data.context = context;
    call(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED, &data);
}

std::uint32_t onApiEnter(CUpti_CallbackDomain domain, std::uint32_t cbid, const char* function, const char* symbol,
    CUcontext context, const void* params)
{
    Callbacks& c = callbacks();
    if (static_cast<std::size_t>(domain) < kDomains && cbid < kCbids)
        c.names[domain][cbid].store(function);
    std::uint32_t correlation = 0;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && t_runtimeCorrelation != 0)
        correlation = t_runtimeCorrelation; // a driver call inside a runtime call shares its id
    else
        correlation = ++c.correlation;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        t_runtimeCorrelation = correlation;
    t_frames.push_back(Frame { domain, cbid, correlation, timestamp(), 0, 0 });
    Frame& frame = t_frames.back();
    CUpti_CallbackData data {};
    data.callbackSite = CUPTI_API_ENTER;
    data.functionName = function;
    data.functionParams = params;
    data.functionReturnValue = &frame.result;
    data.symbolName = symbol;
    data.context = context;
    data.contextUid = contextId(context);
    data.correlationData = &frame.correlationData;
    data.correlationId = correlation;
    call(domain, cbid, &data);
    return correlation;
}

void onApiExit(CUpti_CallbackDomain domain, std::uint32_t cbid, const char* function, const char* symbol,
    CUcontext context, const void* params, int result)
{
    if (t_frames.empty())
        return;
    Frame frame = t_frames.back();
    t_frames.pop_back();
    frame.result = result;
    const std::uint64_t end = timestamp();
    CUpti_CallbackData data {};
    data.callbackSite = CUPTI_API_EXIT;
    data.functionName = function;
    data.functionParams = params;
    data.functionReturnValue = &frame.result;
    data.symbolName = symbol;
    data.context = context;
    data.contextUid = contextId(context);
    data.correlationData = &frame.correlationData;
    data.correlationId = frame.correlation;
    call(domain, cbid, &data);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        t_runtimeCorrelation = 0;

    auto a = zeroed<CUpti_ActivityAPI>();
    a.kind = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CUPTI_ACTIVITY_KIND_RUNTIME : CUPTI_ACTIVITY_KIND_DRIVER;
    a.cbid = cbid;
    a.start = frame.start;
    a.end = end;
    a.processId = pid();
    a.threadId = tid();
    a.correlationId = frame.correlation;
    a.returnValue = static_cast<std::uint32_t>(result);
    if (emit(&a))
        ledger("api\t%u\t%s\t%u\t%u\t%u\t%llu\t%llu\t%d\t%s", pid(),
            domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver", cbid, frame.correlation, a.threadId,
            static_cast<unsigned long long>(a.start), static_cast<unsigned long long>(a.end), result, function);
}

void onWork(const Work& w)
{
    const auto start = static_cast<unsigned long long>(w.start);
    const auto end = static_cast<unsigned long long>(w.end);
    switch (w.kind) {
    case WorkKind::Kernel: {
        auto k = zeroed<CUpti_ActivityKernel10>();
        k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k.registersPerThread = 32;
        k.start = w.start;
        k.end = w.end;
        k.completed = w.end;
        k.deviceId = w.deviceId;
        k.contextId = w.contextId;
        k.streamId = w.streamId;
        k.gridX = static_cast<std::int32_t>(w.grid[0]);
        k.gridY = static_cast<std::int32_t>(w.grid[1]);
        k.gridZ = static_cast<std::int32_t>(w.grid[2]);
        k.blockX = static_cast<std::int32_t>(w.block[0]);
        k.blockY = static_cast<std::int32_t>(w.block[1]);
        k.blockZ = static_cast<std::int32_t>(w.block[2]);
        k.staticSharedMemory = 0;
        k.dynamicSharedMemory = static_cast<std::int32_t>(w.dynamicShared);
        k.correlationId = w.correlationId;
        k.name = intern(w.name);
        k.graphId = w.graphId;
        k.graphNodeId = w.graphNodeId;
        k.isSharedMemoryCarveoutRequested = 0;
        k.launchType
            = w.cooperative ? CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE : CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
        profileKernel(w); // the range first: a crash right after still finds both
        if (emit(&k))
            ledger("kernel\t%u\t%u\t%u\t%u\t%u\t%llu\t%llu\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%llu\t%s", pid(),
                w.correlationId, w.deviceId, w.contextId, w.streamId, start, end, w.grid[0], w.grid[1], w.grid[2],
                w.block[0], w.block[1], w.block[2], w.dynamicShared, w.graphId,
                static_cast<unsigned long long>(w.graphNodeId), w.name);
        break;
    }
    case WorkKind::Memcpy: {
        auto m = zeroed<CUpti_ActivityMemcpy6>();
        m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        m.copyKind = w.copyKind;
        m.srcKind = w.srcKind;
        m.dstKind = w.dstKind;
        m.bytes = w.bytes;
        m.start = w.start;
        m.end = w.end;
        m.deviceId = w.deviceId;
        m.contextId = w.contextId;
        m.streamId = w.streamId;
        m.correlationId = w.correlationId;
        if (emit(&m))
            ledger("memcpy\t%u\t%u\t%u\t%u\t%llu\t%llu\t%u\t%u\t%u\t%llu", pid(), w.correlationId, w.deviceId,
                w.streamId, start, end, w.copyKind, w.srcKind, w.dstKind, static_cast<unsigned long long>(w.bytes));
        break;
    }
    case WorkKind::PeerCopy: {
        auto m = zeroed<CUpti_ActivityMemcpyPtoP4>();
        m.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
        m.copyKind = w.copyKind;
        m.srcKind = w.srcKind;
        m.dstKind = w.dstKind;
        m.bytes = w.bytes;
        m.start = w.start;
        m.end = w.end;
        m.deviceId = w.deviceId;
        m.contextId = w.contextId;
        m.streamId = w.streamId;
        m.srcDeviceId = w.srcDeviceId;
        m.srcContextId = w.srcContextId;
        m.dstDeviceId = w.dstDeviceId;
        m.dstContextId = w.dstContextId;
        m.correlationId = w.correlationId;
        if (emit(&m))
            ledger("p2p\t%u\t%u\t%u\t%u\t%llu\t%llu\t%u\t%u\t%llu", pid(), w.correlationId, w.deviceId, w.streamId,
                start, end, w.srcDeviceId, w.dstDeviceId, static_cast<unsigned long long>(w.bytes));
        break;
    }
    case WorkKind::Memset: {
        auto m = zeroed<CUpti_ActivityMemset4>();
        m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        m.value = w.value;
        m.bytes = w.bytes;
        m.start = w.start;
        m.end = w.end;
        m.deviceId = w.deviceId;
        m.contextId = w.contextId;
        m.streamId = w.streamId;
        m.correlationId = w.correlationId;
        m.memoryKind = w.dstKind;
        if (emit(&m))
            ledger("memset\t%u\t%u\t%u\t%u\t%llu\t%llu\t%llu\t%u", pid(), w.correlationId, w.deviceId, w.streamId,
                start, end, static_cast<unsigned long long>(w.bytes), w.value);
        break;
    }
    case WorkKind::Sync: {
        auto s = zeroed<CUpti_ActivitySynchronization2>();
        s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
        s.type = static_cast<CUpti_ActivitySynchronizationType>(w.syncType);
        s.start = w.start;
        s.end = w.end;
        s.correlationId = w.correlationId;
        s.contextId = w.contextId;
        s.streamId = w.streamId;
        if (emit(&s))
            ledger("sync\t%u\t%u\t%u\t%llu\t%llu", pid(), w.correlationId, w.syncType, start, end);
        break;
    }
    }
}

std::uint64_t onTimestamp()
{
    return timestamp();
}

const Hooks kHooks = [] {
    Hooks h;
    h.apiEnter = onApiEnter;
    h.apiExit = onApiExit;
    h.work = onWork;
    h.contextCreated = onContextCreated;
    h.timestamp = onTimestamp;
    return h;
}();

void forkPrepare()
{
    activity().delivery.lock();
    activity().mutex.lock();
    profiler().mutex.lock();
}

void forkParent()
{
    profiler().mutex.unlock();
    activity().mutex.unlock();
    activity().delivery.unlock();
}

void forkChild()
{
    profiler().mutex.unlock();
    activity().mutex.unlock();
    activity().delivery.unlock();
    ledger("fork\t%u", pid());
    // Threads do not survive fork: the child gets a flush thread of its own.
    Activity& a = activity();
    if (a.threadRunning) {
        a.threadRunning = false;
        startFlushThread(a);
    }
}

__attribute__((constructor)) void attach()
{
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (driver == nullptr)
        return;
    if (auto* attachTo = reinterpret_cast<AttachFunction>(dlsym(driver, kAttachSymbol)))
        attachTo(&kHooks);
    pthread_atfork(forkPrepare, forkParent, forkChild);
    ledger("attach\t%u", pid());
}

} // namespace
