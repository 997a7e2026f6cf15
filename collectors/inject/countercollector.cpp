// SPDX-License-Identifier: MIT
#include "countercollector.h"

#include "contextprofiler.h"
#include "cuptierrors.h"
#include "ncclhooks.h"
#include "ncclkernel.h"
#include "ridgeline/core/model/demangle.h"

#include <cupti.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

// The NVTX types first: CUPTI's parameter structs are declared in terms of them.
// clang-format off
#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>
// clang-format on

namespace ridgeline::inject {

namespace {

// The driver calls that launch work on a context (docs/CAPTURE.md "Serialisation").
enum class LaunchKind {
    None,
    Kernel, // one kernel, named by the callback's symbol: can be profiled
    Graph, // cuGraphLaunch: the graph's kernels, one correlation id; profiled as a graph launch
    GateOnly, // kernels on several contexts at once: never profiled, but waits like any launch
};

LaunchKind launchKindOf(CUpti_CallbackId cbid)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
        return LaunchKind::Kernel;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
        return LaunchKind::Graph;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice:
        return LaunchKind::GateOnly;
    default:
        return LaunchKind::None;
    }
}

constexpr CUpti_CallbackId kLaunchCallbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
};

std::int64_t currentThread()
{
    return static_cast<std::int64_t>(syscall(SYS_gettid));
}

const char* eventMessage(const nvtxEventAttributes_t* attributes)
{
    if (!attributes || attributes->messageType != NVTX_MESSAGE_TYPE_ASCII)
        return nullptr;
    return attributes->message.ascii;
}

// The launch inside its API call on this thread (between the enter and exit callbacks): a
// profiled one, or one that passed the launch gate as a plain launch.
struct ActiveLaunch {
    ContextProfiler* profiler = nullptr;
    std::uint32_t correlationId = 0;
    std::string mangled;
    const void* plainContext = nullptr;
    bool graph = false;
};
thread_local ActiveLaunch t_active;

} // namespace

struct CounterCollector::Impl {
    InjectionConfig config;
    CounterSink sink;
    NcclCallRegistry* nccl = nullptr; // NCCL payloads followed when set (ncclhooks.h)
    CUpti_SubscriberHandle subscriber = nullptr;
    std::mutex stateMutex; // filter, NVTX tracker, profilers
    std::mutex launchMutex; // one profiled launch at a time, held from enter to exit
    LaunchGate gate; // per context: no other launch while a profiled one is in flight (rangecheck.h)
    std::optional<LaunchFilter> filter;
    NvtxRangeTracker ranges;
    std::map<CUcontext, std::unique_ptr<ContextProfiler>> profilers;
    std::map<CUcontext, bool> failedContexts;
    bool passesReported = false;
    bool stopped = false;
    pid_t owner = ::getpid(); // a forked child (no exec) profiles nothing: its records are not kept

    ContextProfiler* profilerFor(CUcontext context)
    {
        if (auto it = profilers.find(context); it != profilers.end())
            return it->second.get();
        if (failedContexts.count(context) != 0)
            return nullptr;
        std::uint32_t deviceId = 0;
        if (const CUptiResult r = cuptiGetDeviceId(context, &deviceId); r != CUPTI_SUCCESS) {
            failedContexts[context] = true;
            sink.problem(cuptiErrorSentence(r, CuptiStage::Counters, "cuptiGetDeviceId"), true);
            return nullptr;
        }
        auto chip = ContextProfiler::chipOf(deviceId);
        if (chip.hasError()) {
            failedContexts[context] = true;
            sink.problem(chip.error().message, true);
            return nullptr;
        }
        auto groups = counterGroups(config, chip.value());
        if (groups.hasError()) {
            failedContexts[context] = true;
            sink.problem(groups.error().message, true);
            return nullptr;
        }
        auto profiler = ContextProfiler::create(context, chip.value(), groups.value());
        if (profiler.hasError()) {
            failedContexts[context] = true;
            sink.problem(profiler.error().message, true);
            return nullptr;
        }
        if (!passesReported) {
            std::string passes;
            for (std::size_t g = 0; g < profiler.value()->groupCount(); ++g)
                passes += (g == 0 ? "" : "+") + std::to_string(profiler.value()->passes(g));
            sink.passes(passes);
            passesReported = true;
        }
        return profilers.emplace(context, std::move(profiler).value()).first->second.get();
    }

    // GPU counters (group 0) for every selected launch; an NCCL kernel gets the system units'
    // link counters (group 1) instead when the set has them (docs/CAPTURE.md).
    static std::size_t groupFor(const ContextProfiler& profiler, const char* symbol)
    {
        if (profiler.groupCount() > 1 && symbol && ncclKernelInfo(symbol))
            return 1;
        return 0;
    }

    void onLaunch(const CUpti_CallbackData& data, LaunchKind kind)
    {
        if (data.callbackSite == CUPTI_API_ENTER) {
            if (::getpid() != owner)
                return;
            if (nccl && kind == LaunchKind::Kernel)
                ncclOnLaunch(*nccl, data);
            ContextProfiler* profiler = nullptr;
            std::size_t group = 0;
            const bool graph = kind == LaunchKind::Graph;
            {
                std::lock_guard lock(stateMutex);
                // No launch will be profiled any more: no launch needs to wait either.
                if (stopped || !filter || filter->exhausted())
                    return;
                const std::string symbol = data.symbolName ? data.symbolName : "";
                const bool needsName = !config.kernelRegex.empty();
                const bool inside = config.nvtxRange.empty() || ranges.inside(currentThread(), config.nvtxRange);
                // A graph launch names no kernel: a name filter cannot select it.
                const bool selectable = kind == LaunchKind::Kernel || (graph && !needsName);
                if (selectable && filter->select(symbol, needsName ? core::demangle(symbol) : std::string(), inside)) {
                    profiler = profilerFor(data.context);
                    if (profiler && !graph)
                        group = groupFor(*profiler, data.symbolName);
                }
            }
            if (!profiler) {
                // Any other launch on a context waits while a profiled launch is in flight there.
                gate.enterPlain(data.context);
                t_active = ActiveLaunch { nullptr, 0, {}, data.context };
                return;
            }
            launchMutex.lock();
            gate.enterProfiled(data.context);
            if (auto begun = graph ? profiler->beginGraph() : profiler->begin(group); begun.hasError()) {
                gate.exitProfiled(data.context);
                launchMutex.unlock();
                sink.problem(begun.error().message, false);
                return;
            }
            if (graph)
                sink.expectGraph(data.correlationId);
            else
                sink.expect(data.correlationId);
            t_active
                = ActiveLaunch { profiler, data.correlationId, data.symbolName ? data.symbolName : "", nullptr, graph };
            return;
        }
        ActiveLaunch active = std::move(t_active);
        t_active = {};
        if (active.plainContext) {
            gate.exitPlain(active.plainContext);
            return;
        }
        if (!active.profiler)
            return;
        if (active.graph) {
            endGraph(active, data.context);
            return;
        }
        auto counters = active.profiler->end(active.mangled, core::demangle(active.mangled));
        gate.exitProfiled(data.context);
        launchMutex.unlock();
        if (counters.hasError()) {
            sink.problem(counters.error().message, false);
            return;
        }
        auto& c = counters.value();
        reportGaps(c.lost, c.missing, [&] { return "a launch of " + core::demangle(active.mangled); });
        if (!c.values.empty())
            sink.values(active.correlationId, std::move(c.values));
    }

    void endGraph(const ActiveLaunch& active, CUcontext context)
    {
        auto counters = active.profiler->endGraph();
        gate.exitProfiled(context);
        launchMutex.unlock();
        if (counters.hasError()) {
            sink.graphValues(active.correlationId, {});
            sink.problem(counters.error().message, false);
            return;
        }
        auto& c = counters.value();
        reportGaps(c.lost, c.missing, [] { return std::string("a CUDA graph launch"); });
        sink.graphValues(active.correlationId, std::move(c.ranges));
    }

    // Why a launch has no counters, and the counters it lacks, as (not fatal) problems; `launch()` names it.
    template <typename Describe>
    void reportGaps(const std::string& lost, const std::vector<std::string>& missing, Describe launch)
    {
        if (!lost.empty())
            sink.problem(lost, false);
        if (!missing.empty())
            sink.problem(fmt::format("{} counter{} could not be collected for {} (recorded as missing, not 0): {}.",
                             missing.size(), missing.size() == 1 ? "" : "s", launch(), fmt::join(missing, ", ")),
                false);
    }

    void onNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData& data)
    {
        if (nccl)
            ncclOnNvtx(*nccl, cbid, data);
        // The range tracker serves --nvtx-range only (NVTX callbacks may be on for NCCL alone).
        if (config.nvtxRange.empty())
            return;
        std::lock_guard lock(stateMutex);
        const std::int64_t tid = currentThread();
        switch (cbid) {
        case CUPTI_CBID_NVTX_nvtxRangePushA: {
            const auto* p = static_cast<const nvtxRangePushA_params*>(data.functionParams);
            ranges.push(tid, p && p->message ? p->message : "");
            break;
        }
        case CUPTI_CBID_NVTX_nvtxRangePushEx: {
            const auto* p = static_cast<const nvtxRangePushEx_params*>(data.functionParams);
            const char* message = p ? eventMessage(p->eventAttrib) : nullptr;
            ranges.push(tid, message ? message : "");
            break;
        }
        case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
            const auto* p = static_cast<const nvtxDomainRangePushEx_params*>(data.functionParams);
            const char* message = p ? eventMessage(p->core.eventAttrib) : nullptr;
            ranges.push(tid, message ? message : "");
            break;
        }
        case CUPTI_CBID_NVTX_nvtxRangePop:
        case CUPTI_CBID_NVTX_nvtxDomainRangePop:
            ranges.pop(tid);
            break;
        case CUPTI_CBID_NVTX_nvtxRangeStartA:
        case CUPTI_CBID_NVTX_nvtxRangeStartEx:
        case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
            const char* message = nullptr;
            if (cbid == CUPTI_CBID_NVTX_nvtxRangeStartA) {
                const auto* p = static_cast<const nvtxRangeStartA_params*>(data.functionParams);
                message = p ? p->message : nullptr;
            } else if (cbid == CUPTI_CBID_NVTX_nvtxRangeStartEx) {
                const auto* p = static_cast<const nvtxRangeStartEx_params*>(data.functionParams);
                message = p ? eventMessage(p->eventAttrib) : nullptr;
            } else {
                const auto* p = static_cast<const nvtxDomainRangeStartEx_params*>(data.functionParams);
                message = p ? eventMessage(p->core.eventAttrib) : nullptr;
            }
            const auto* id = static_cast<const nvtxRangeId_t*>(data.functionReturnValue);
            if (id && message)
                ranges.start(*id, message);
            break;
        }
        case CUPTI_CBID_NVTX_nvtxRangeEnd: {
            const auto* p = static_cast<const nvtxRangeEnd_params*>(data.functionParams);
            if (p)
                ranges.end(p->id);
            break;
        }
        case CUPTI_CBID_NVTX_nvtxDomainRangeEnd: {
            const auto* p = static_cast<const nvtxDomainRangeEnd_params*>(data.functionParams);
            if (p)
                ranges.end(p->core.id);
            break;
        }
        default:
            break;
        }
    }

    void onContextDestroyed(CUcontext context)
    {
        std::lock_guard lock(stateMutex);
        profilers.erase(context);
        failedContexts.erase(context);
    }
};

namespace {

void CUPTIAPI callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data)
{
    auto* impl = static_cast<CounterCollector::Impl*>(userdata);
    if (!impl || !data)
        return;
    if (const LaunchKind kind = domain == CUPTI_CB_DOMAIN_DRIVER_API ? launchKindOf(cbid) : LaunchKind::None;
        kind != LaunchKind::None) {
        impl->onLaunch(*static_cast<const CUpti_CallbackData*>(data), kind);
    } else if (domain == CUPTI_CB_DOMAIN_NVTX) {
        impl->onNvtx(cbid, *static_cast<const CUpti_NvtxData*>(data));
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        impl->onContextDestroyed(static_cast<const CUpti_ResourceData*>(data)->context);
    }
}

} // namespace

core::Result<std::unique_ptr<CounterCollector>> CounterCollector::start(
    const InjectionConfig& config, CounterSink sink, NcclCallRegistry* nccl)
{
    auto impl = std::make_unique<Impl>();
    impl->config = config;
    impl->sink = std::move(sink);
    impl->nccl = nccl;
    auto filter = LaunchFilter::create(
        LaunchFilterOptions { config.kernelRegex, config.launchSkip, config.launchCount, config.nvtxRange });
    if (filter.hasError())
        return filter.error();
    impl->filter.emplace(std::move(filter).value());

    auto fail = [](CUptiResult r, const char* call) {
        return core::makeError(core::ErrorCode::Internal, cuptiErrorSentence(r, CuptiStage::Counters, call));
    };
    if (const CUptiResult r = cuptiSubscribe(&impl->subscriber, callback, impl.get()); r != CUPTI_SUCCESS)
        return fail(r, "cuptiSubscribe");
    for (const CUpti_CallbackId cbid : kLaunchCallbacks) {
        if (const CUptiResult r = cuptiEnableCallback(1, impl->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
            r != CUPTI_SUCCESS) {
            cuptiUnsubscribe(impl->subscriber);
            return fail(r, "cuptiEnableCallback");
        }
    }
    (void)cuptiEnableCallback(
        1, impl->subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    if (!config.nvtxRange.empty() || nccl)
        (void)cuptiEnableDomain(1, impl->subscriber, CUPTI_CB_DOMAIN_NVTX);
    return std::unique_ptr<CounterCollector>(new CounterCollector(std::move(impl)));
}

CounterCollector::CounterCollector(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{ }

void CounterCollector::stop()
{
    std::lock_guard lock(m_impl->stateMutex);
    m_impl->stopped = true;
}

CounterCollector::~CounterCollector()
{
    if (m_impl && m_impl->subscriber)
        cuptiUnsubscribe(m_impl->subscriber);
}

} // namespace ridgeline::inject
