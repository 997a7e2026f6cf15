// SPDX-License-Identifier: MIT
#include "records.h"

#include <cstring>

namespace ridgeline::testing {

namespace {

// CUPTI hands out zero-padded records; start from all zero bytes like it does.
template <typename Record> Record zeroed()
{
    Record record;
    std::memset(&record, 0, sizeof(record));
    return record;
}

// A GPU op of device `deviceId`, context 1, stream `streamId`, over [start, end).
template <typename Record>
void placeGpuOp(Record& r, std::uint32_t correlationId, std::uint32_t deviceId, std::uint32_t streamId,
    std::uint64_t start, std::uint64_t end)
{
    r.start = start;
    r.end = end;
    r.deviceId = deviceId;
    r.contextId = 1;
    r.streamId = streamId;
    r.correlationId = correlationId;
}

// A copy of `bytes` of `kind` from memory of `src` to memory of `dst`.
template <typename Record>
void describeCopy(Record& r, CUpti_ActivityMemcpyKind kind, CUpti_ActivityMemoryKind src, CUpti_ActivityMemoryKind dst,
    std::uint64_t bytes)
{
    r.copyKind = static_cast<std::uint8_t>(kind);
    r.srcKind = static_cast<std::uint8_t>(src);
    r.dstKind = static_cast<std::uint8_t>(dst);
    r.bytes = bytes;
}

// A record about thread `threadId` of process 4242.
template <typename Record> void aboutThread(Record& r, std::uint32_t threadId)
{
    r.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    r.objectId.pt.processId = 4242;
    r.objectId.pt.threadId = threadId;
}

} // namespace

CUpti_ActivityKernel10 kernelRecord(
    std::uint32_t correlationId, const char* name, std::uint64_t start, std::uint64_t end)
{
    auto k = zeroed<CUpti_ActivityKernel10>();
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    placeGpuOp(k, correlationId, 0, 7, start, end);
    k.registersPerThread = 40;
    k.completed = end;
    k.gridX = 1024;
    k.gridY = 2;
    k.gridZ = 1;
    k.blockX = 256;
    k.blockY = 1;
    k.blockZ = 1;
    k.staticSharedMemory = 4096;
    k.dynamicSharedMemory = 8192;
    k.gridId = 11;
    k.name = name;
    k.graphId = 0;
    return k;
}

CUpti_ActivityMemcpy6 memcpyRecord(std::uint32_t correlationId, CUpti_ActivityMemcpyKind kind, std::uint64_t bytes,
    std::uint64_t start, std::uint64_t end)
{
    auto m = zeroed<CUpti_ActivityMemcpy6>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    describeCopy(m, kind,
        kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
        kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE
                                                : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
        bytes);
    placeGpuOp(m, correlationId, 0, 7, start, end);
    return m;
}

CUpti_ActivityMemcpyPtoP4 peerCopyRecord(std::uint32_t correlationId, std::uint32_t src, std::uint32_t dst,
    std::uint64_t bytes, std::uint64_t start, std::uint64_t end)
{
    auto m = zeroed<CUpti_ActivityMemcpyPtoP4>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    describeCopy(m, CUPTI_ACTIVITY_MEMCPY_KIND_PTOP, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
        CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, bytes);
    placeGpuOp(m, correlationId, src, 9, start, end);
    m.srcDeviceId = src;
    m.srcContextId = 1;
    m.dstDeviceId = dst;
    m.dstContextId = 2;
    return m;
}

CUpti_ActivityMemset4 memsetRecord(
    std::uint32_t correlationId, std::uint64_t bytes, std::uint64_t start, std::uint64_t end)
{
    auto m = zeroed<CUpti_ActivityMemset4>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.value = 0;
    m.bytes = bytes;
    placeGpuOp(m, correlationId, 0, 7, start, end);
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    return m;
}

CUpti_ActivityAPI apiRecord(CUpti_ActivityKind kind, CUpti_CallbackId cbid, std::uint32_t correlationId,
    std::uint32_t threadId, std::uint64_t start, std::uint64_t end)
{
    auto a = zeroed<CUpti_ActivityAPI>();
    a.kind = kind;
    a.cbid = cbid;
    a.start = start;
    a.end = end;
    a.processId = 4242;
    a.threadId = threadId;
    a.correlationId = correlationId;
    a.returnValue = 0;
    return a;
}

CUpti_ActivityMarker2 markerRecord(CUpti_ActivityFlag flags, std::uint32_t id, std::uint32_t threadId,
    std::uint64_t timestamp, const char* name, const char* domain)
{
    auto m = zeroed<CUpti_ActivityMarker2>();
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = flags;
    m.timestamp = timestamp;
    m.id = id;
    aboutThread(m, threadId);
    m.name = name;
    m.domain = domain;
    return m;
}

CUpti_ActivityMarkerData2 markerDataRecord(std::uint32_t id, std::uint32_t color, std::uint32_t category)
{
    auto d = zeroed<CUpti_ActivityMarkerData2>();
    d.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
    d.flags = CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB;
    d.id = id;
    d.color = color;
    d.category = category;
    return d;
}

CUpti_ActivitySynchronization2 syncRecord(
    CUpti_ActivitySynchronizationType type, std::uint32_t correlationId, std::uint64_t start, std::uint64_t end)
{
    auto s = zeroed<CUpti_ActivitySynchronization2>();
    s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s.type = type;
    s.start = start;
    s.end = end;
    s.correlationId = correlationId;
    s.contextId = 1;
    s.streamId = 7;
    return s;
}

CUpti_ActivityOverhead3 overheadRecord(
    CUpti_ActivityOverheadKind kind, std::uint32_t threadId, std::uint64_t start, std::uint64_t end)
{
    auto o = zeroed<CUpti_ActivityOverhead3>();
    o.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    o.overheadKind = kind;
    aboutThread(o, threadId);
    o.start = start;
    o.end = end;
    return o;
}

CUpti_ActivityDevice5 deviceRecord(std::uint32_t id, const char* name)
{
    auto d = zeroed<CUpti_ActivityDevice5>();
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.globalMemorySize = 85'899'345'920ULL;
    d.l2CacheSize = 52'428'800;
    d.numThreadsPerWarp = 32;
    d.coreClockRate = 1'980'000;
    d.numMultiprocessors = 132;
    d.maxWarpsPerMultiprocessor = 64;
    d.maxSharedMemoryPerMultiprocessor = 233'472;
    d.computeCapabilityMajor = 9;
    d.computeCapabilityMinor = 0;
    d.id = id;
    for (int i = 0; i < 16; ++i)
        d.uuid.bytes[i] = static_cast<char>(0x10 + i);
    d.name = name;
    return d;
}

CUpti_ActivityName threadNameRecord(std::uint32_t threadId, const char* name)
{
    auto n = zeroed<CUpti_ActivityName>();
    n.kind = CUPTI_ACTIVITY_KIND_NAME;
    aboutThread(n, threadId);
    n.name = name;
    return n;
}

} // namespace ridgeline::testing
