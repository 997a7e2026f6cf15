// SPDX-License-Identifier: MIT
#include "activitytranslate.h"

#include "ncclkernel.h"

#include <cctype>

namespace ridgeline::inject {

namespace {

std::int64_t ns(std::uint64_t timestamp)
{
    return static_cast<std::int64_t>(timestamp);
}

core::Dim3 dim(std::int32_t x, std::int32_t y, std::int32_t z)
{
    auto u = [](std::int32_t v) { return v > 0 ? static_cast<std::uint32_t>(v) : 0U; };
    return core::Dim3 { u(x), u(y), u(z) };
}

} // namespace

bool TranslatedBatch::empty() const
{
    return devices.empty() && threads.empty() && kernels.empty() && memops.empty() && apiCalls.empty()
        && nvtxRanges.empty() && commOps.empty();
}

std::string withoutVersionSuffix(std::string name)
{
    const auto pos = name.rfind("_v");
    if (pos == std::string::npos || pos + 2 >= name.size())
        return name;
    for (std::size_t i = pos + 2; i < name.size(); ++i) {
        if (std::isdigit(static_cast<unsigned char>(name[i])) == 0)
            return name;
    }
    name.resize(pos);
    return name;
}

const char* memoryKindName(std::uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
        return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
        return "managed";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return "device static";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return "managed static";
    default:
        return "";
    }
}

core::MemOpKind memcpyKind(std::uint32_t copyKind)
{
    switch (copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return core::MemOpKind::MemcpyHtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return core::MemOpKind::MemcpyDtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return core::MemOpKind::MemcpyDtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return core::MemOpKind::MemcpyHtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return core::MemOpKind::MemcpyPtoP;
    default:
        return core::MemOpKind::Other;
    }
}

const char* synchronizationName(CUpti_ActivitySynchronizationType type)
{
    switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        return "EventSynchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        return "StreamWaitEvent";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        return "StreamSynchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        return "ContextSynchronize";
    default:
        return "Synchronize";
    }
}

const char* overheadName(CUpti_ActivityOverheadKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
        return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
        return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
        return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
        return "CUPTI resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "runtime-triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
        return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
        return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
        return "unified memory activity init";
    default:
        return "unknown overhead";
    }
}

ActivityTranslator::ActivityTranslator(std::int64_t processId, CallbackNamer namer)
    : m_processId(processId)
    , m_namer(std::move(namer))
{ }

void ActivityTranslator::translate(std::span<const CUpti_Activity* const> records, TranslatedBatch& out)
{
    for (const CUpti_Activity* record : records) {
        if (record)
            translate(*record, out);
    }
}

void ActivityTranslator::translate(const CUpti_Activity& record, TranslatedBatch& out)
{
    ++out.records;
    // Each record is read through the struct of its kind (the buffer holds that struct).
    switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        kernel(reinterpret_cast<const CUpti_ActivityKernel10&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        memcpy(reinterpret_cast<const CUpti_ActivityMemcpy6&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        peerCopy(reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        memset(reinterpret_cast<const CUpti_ActivityMemset4&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        api(reinterpret_cast<const CUpti_ActivityAPI&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_MARKER:
        marker(reinterpret_cast<const CUpti_ActivityMarker2&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        markerData(reinterpret_cast<const CUpti_ActivityMarkerData2&>(record));
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        synchronization(reinterpret_cast<const CUpti_ActivitySynchronization2&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        overhead(reinterpret_cast<const CUpti_ActivityOverhead3&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        device(reinterpret_cast<const CUpti_ActivityDevice5&>(record), out);
        break;
    case CUPTI_ACTIVITY_KIND_NAME:
        name(reinterpret_cast<const CUpti_ActivityName&>(record), out);
        break;
    default:
        ++out.unknownRecords;
        break;
    }
}

void ActivityTranslator::kernel(const CUpti_ActivityKernel10& k, TranslatedBatch& out)
{
    core::Kernel kernel;
    kernel.processId = m_processId;
    kernel.deviceId = k.deviceId;
    kernel.contextId = k.contextId;
    kernel.streamId = k.streamId;
    kernel.correlationId = k.correlationId;
    kernel.startNs = ns(k.start);
    kernel.endNs = ns(k.end);
    kernel.grid = dim(k.gridX, k.gridY, k.gridZ);
    kernel.block = dim(k.blockX, k.blockY, k.blockZ);
    kernel.registersPerThread = k.registersPerThread;
    kernel.staticSharedBytes = k.staticSharedMemory;
    kernel.dynamicSharedBytes = k.dynamicSharedMemory;
    kernel.graphId = k.graphId;
    kernel.graphNodeId = static_cast<std::int64_t>(k.graphNodeId);
    const std::string rawName = k.name ? k.name : "";
    if (auto nccl = ncclKernelInfo(rawName)) {
        PendingCommOp comm;
        comm.kernelIndex = out.kernels.size();
        comm.op.processId = m_processId;
        comm.op.deviceId = kernel.deviceId;
        comm.op.collective = nccl->collective;
        comm.op.dataType = nccl->dataType;
        comm.op.algorithm = nccl->algorithm;
        comm.op.protocol = nccl->protocol;
        comm.op.startNs = kernel.startNs;
        comm.op.endNs = kernel.endNs;
        if (m_ncclCalls) {
            if (auto call = m_ncclCalls->take(k.correlationId))
                applyNcclCall(*call, m_ncclCalls->ranksOf(*call), comm.op);
        }
        out.commOps.push_back(std::move(comm));
    }
    out.kernels.push_back(kernel);
    out.kernelNames.push_back(rawName.empty() ? std::string("<unnamed kernel>") : rawName);
}

namespace {

// The fields every copy and memset record has, whatever its struct version.
template <typename Record> core::MemOp memOpOf(const Record& m, std::int64_t processId, core::MemOpKind kind)
{
    core::MemOp op;
    op.processId = processId;
    op.deviceId = m.deviceId;
    op.streamId = m.streamId;
    op.correlationId = m.correlationId;
    op.kind = kind;
    op.bytes = static_cast<std::int64_t>(m.bytes);
    op.startNs = ns(m.start);
    op.endNs = ns(m.end);
    return op;
}

} // namespace

void ActivityTranslator::memcpy(const CUpti_ActivityMemcpy6& m, TranslatedBatch& out)
{
    core::MemOp op = memOpOf(m, m_processId, memcpyKind(m.copyKind));
    op.srcMemory = memoryKindName(m.srcKind);
    op.dstMemory = memoryKindName(m.dstKind);
    out.memops.push_back(std::move(op));
}

void ActivityTranslator::peerCopy(const CUpti_ActivityMemcpyPtoP4& m, TranslatedBatch& out)
{
    core::MemOp op = memOpOf(m, m_processId, core::MemOpKind::MemcpyPtoP);
    op.srcDeviceId = m.srcDeviceId;
    op.dstDeviceId = m.dstDeviceId;
    op.srcMemory = memoryKindName(m.srcKind);
    op.dstMemory = memoryKindName(m.dstKind);
    out.memops.push_back(std::move(op));
}

void ActivityTranslator::memset(const CUpti_ActivityMemset4& m, TranslatedBatch& out)
{
    core::MemOp op = memOpOf(m, m_processId, core::MemOpKind::Memset);
    op.dstMemory = memoryKindName(m.memoryKind);
    out.memops.push_back(std::move(op));
}

void ActivityTranslator::api(const CUpti_ActivityAPI& a, TranslatedBatch& out)
{
    core::ApiCall call;
    call.processId = m_processId;
    call.threadId = a.threadId;
    call.domain = a.kind == CUPTI_ACTIVITY_KIND_RUNTIME ? "runtime" : "driver";
    call.name = m_namer ? withoutVersionSuffix(m_namer(a.kind, a.cbid)) : std::string();
    if (call.name.empty())
        call.name = call.domain + " API " + std::to_string(a.cbid);
    call.correlationId = a.correlationId;
    call.startNs = ns(a.start);
    call.endNs = ns(a.end);
    call.returnCode = a.returnValue;
    noteThread(call.threadId, {}, out);
    out.apiCalls.push_back(std::move(call));
}

void ActivityTranslator::marker(const CUpti_ActivityMarker2& m, TranslatedBatch& out)
{
    const bool start = (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_START) != 0;
    const bool end = (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_END) != 0;
    const bool instant = (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) != 0;
    if (end) {
        auto it = m_open.find(m.id);
        if (it == m_open.end())
            return; // its start was never seen (enabled late): nothing to pair it with
        core::NvtxRange range = std::move(it->second.range);
        m_open.erase(it);
        range.endNs = std::max(range.startNs, ns(m.timestamp));
        if (auto style = m_markerStyle.find(m.id); style != m_markerStyle.end()) {
            range.color = style->second.first;
            range.category = style->second.second;
            m_markerStyle.erase(style);
        }
        out.nvtxRanges.push_back(std::move(range));
        return;
    }
    if (!start && !instant)
        return; // synchronisation markers (acquire/release) are not ranges
    core::NvtxRange range;
    range.processId = m_processId;
    if (m.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || m.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS)
        range.threadId = m.objectId.pt.threadId;
    range.domain = m.domain && *m.domain ? m.domain : "default";
    range.name = m.name ? m.name : "";
    range.startNs = ns(m.timestamp);
    range.endNs = range.startNs;
    if (range.threadId != 0)
        noteThread(range.threadId, {}, out);
    if (instant) {
        if (auto style = m_markerStyle.find(m.id); style != m_markerStyle.end()) {
            range.color = style->second.first;
            range.category = style->second.second;
            m_markerStyle.erase(style);
        }
        out.nvtxRanges.push_back(std::move(range));
        return;
    }
    m_open[m.id] = OpenRange { std::move(range) };
}

std::vector<std::pair<std::uint32_t, core::NvtxRange>> ActivityTranslator::openRangeList() const
{
    std::vector<std::pair<std::uint32_t, core::NvtxRange>> out;
    out.reserve(m_open.size());
    for (const auto& [id, open] : m_open)
        out.emplace_back(id, open.range);
    return out;
}

void ActivityTranslator::resumeOpenRange(std::uint32_t markerId, core::NvtxRange range)
{
    range.processId = m_processId;
    m_open[markerId] = OpenRange { std::move(range) };
}

void ActivityTranslator::markerData(const CUpti_ActivityMarkerData2& d)
{
    const std::uint32_t color = (d.flags & CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB) != 0 ? d.color : 0;
    if (auto it = m_open.find(d.id); it != m_open.end()) {
        it->second.range.color = color;
        it->second.range.category = d.category;
        return;
    }
    m_markerStyle[d.id] = { color, static_cast<std::int64_t>(d.category) };
}

void ActivityTranslator::synchronization(const CUpti_ActivitySynchronization2& s, TranslatedBatch& out)
{
    core::ApiCall call;
    call.processId = m_processId;
    call.domain = "sync";
    call.name = synchronizationName(s.type);
    call.correlationId = s.correlationId;
    call.startNs = ns(s.start);
    call.endNs = ns(s.end);
    call.returnCode = s.returnValue;
    out.apiCalls.push_back(std::move(call));
}

void ActivityTranslator::overhead(const CUpti_ActivityOverhead3& o, TranslatedBatch& out)
{
    core::ApiCall call;
    call.processId = m_processId;
    if (o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || o.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS)
        call.threadId = o.objectId.pt.threadId;
    call.domain = "overhead";
    call.name = overheadName(o.overheadKind);
    call.correlationId = o.correlationId;
    call.startNs = ns(o.start);
    call.endNs = ns(o.end);
    out.apiCalls.push_back(std::move(call));
}

void ActivityTranslator::device(const CUpti_ActivityDevice5& d, TranslatedBatch& out)
{
    if (!m_devicesSeen.insert(d.id).second)
        return;
    core::Device device;
    device.id = d.id;
    device.ordinal = static_cast<int>(d.id);
    device.name = d.name ? d.name : "";
    char uuid[64] = {};
    for (std::size_t i = 0; i < sizeof(d.uuid.bytes); ++i) {
        static constexpr char kHex[] = "0123456789abcdef";
        const auto byte = static_cast<unsigned char>(d.uuid.bytes[i]);
        const std::size_t at = i * 2 + (i >= 4) + (i >= 6) + (i >= 8) + (i >= 10);
        uuid[at] = kHex[byte >> 4];
        uuid[at + 1] = kHex[byte & 15];
        if (i == 3 || i == 5 || i == 7 || i == 9)
            uuid[at + 2] = '-';
    }
    device.uuid = std::string("GPU-") + uuid;
    device.ccMajor = static_cast<int>(d.computeCapabilityMajor);
    device.ccMinor = static_cast<int>(d.computeCapabilityMinor);
    device.smCount = static_cast<int>(d.numMultiprocessors);
    device.coreClockKhz = d.coreClockRate;
    device.memoryBytes = static_cast<std::int64_t>(d.globalMemorySize);
    device.l2CacheBytes = d.l2CacheSize;
    device.maxThreadsPerSm = static_cast<int>(d.maxWarpsPerMultiprocessor * d.numThreadsPerWarp);
    device.sharedMemoryPerSmBytes = d.maxSharedMemoryPerMultiprocessor;
    out.devices.push_back(std::move(device));
}

void ActivityTranslator::name(const CUpti_ActivityName& n, TranslatedBatch& out)
{
    if (n.objectKind != CUPTI_ACTIVITY_OBJECT_THREAD || !n.name)
        return; // device, context and stream names have no column yet
    noteThread(n.objectId.pt.threadId, n.name, out);
}

void ActivityTranslator::noteThread(std::int64_t tid, const std::string& threadName, TranslatedBatch& out)
{
    if (!m_threadsSeen.insert(tid).second)
        return; // a name given after the thread was first seen is not recorded
    out.threads.push_back(core::Thread { 0, m_processId, tid, threadName });
}

} // namespace ridgeline::inject
