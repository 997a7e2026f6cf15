// SPDX-License-Identifier: MIT
// The stand-in libcuda.so.1's calls that put work on its simulated GPU (what the stand-in is:
// fakecuda.cpp): copies, memsets, synchronisations, kernel launches of every kind and graph
// launches, each placed on its stream's timeline (durations from fakework.h) and reported to
// the (stand-in) CUPTI.
#include "fakecuda.h"
#include "fakework.h"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <mutex>

using namespace fakecuda;
using namespace fakecuda::libcuda;

namespace {

std::uint64_t now()
{
    if (const Hooks* h = g_hooks.load(); h != nullptr && h->timestamp != nullptr)
        return h->timestamp();
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

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
