// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/roofline.h"

#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/commnames.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/model/resource.h"
#include "rooflinemetrics.h"
#include "speedoflight.h"
#include "verdictrules.h"

#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core {

using namespace detail;

namespace {

constexpr const char* kTensorEstimateNote = "; its FP16 tensor FLOPs are an estimate (tensor pipe instructions x 512: "
                                            "the chip counts no tensor operations by type)";

// Total FLOPs (INT8 ops excluded) and, when every precision has a ceiling, the seconds the
// mix would take at peak.
struct MixFigures {
    double flops = 0;
    double peakSeconds = 0;
    bool complete = true;
};

MixFigures mixOf(const ResourceMap<double>& ops, const ResourceMap<CeilingUsed>& ceilings)
{
    MixFigures mix;
    for (const auto& [precision, count] : ops) {
        // Integer ops are no FLOPs; a precision that did no work needs no ceiling.
        if (!isFloatingPoint(precision) || !(count > 0))
            continue;
        mix.flops += count;
        auto c = ceilings.find(precision);
        if (c == ceilings.end())
            mix.complete = false;
        else
            mix.peakSeconds += count / c->second.value;
    }
    return mix;
}

// Intensity, achieved FLOP/s and the combined point from totals over `seconds`.
void deriveRates(KernelAnalysis& a, double seconds, const MixFigures& mix)
{
    if (a.flopsByPrecision.empty())
        return;
    a.flops = mix.flops;
    if (seconds > 0)
        a.achievedFlopsPerS = mix.flops / seconds;
    for (const auto level : { Resource::DRAM, Resource::L2, Resource::L1 }) {
        auto bytes = a.bytesByLevel.find(level);
        if (bytes != a.bytesByLevel.end() && bytes->second > 0)
            a.intensity[level] = mix.flops / bytes->second;
    }
    if (mix.complete && mix.peakSeconds > 0)
        a.mixCeilingFlopsPerS = mix.flops / mix.peakSeconds;
}

// Says in the reason that the figures are worked out from the operator's shapes, and how.
void noteShapeFigures(KernelAnalysis& a, std::int64_t modelled, std::int64_t launches)
{
    if (!a.shapes || !a.shapes->call || !a.collective.empty() || !a.commByName.empty())
        return;
    const ShapeFigures& s = *a.shapes;
    const OperatorWork& w = s.call->work;
    a.reason += fmt::format("; from shapes: {} ({} {}: {})", s.call->operatorName, w.precision, w.family, w.formula);
    if (s.share < 1)
        a.reason += fmt::format(", this kernel's share of its time {}", percentText(s.share));
    if (modelled < launches)
        a.reason += fmt::format("; {} of {} launches modelled", modelled, launches);
}

} // namespace

ResourceMap<CeilingUsed> deviceRoofs(const Device* device, const std::vector<Ceiling>& ceilings)
{
    KernelFacts facts; // no metrics: no counter ceilings, no clock scaling
    facts.device = device;
    facts.ceilings = ceilings;
    return chooseCeilings(facts);
}

KernelAnalysis analyzeKernel(const KernelFacts& facts)
{
    KernelAnalysis a;
    a.kernelId = facts.kernelId;
    a.collective = facts.collective;
    a.comm = facts.comm;
    a.deviceName = facts.device ? facts.device->name : std::string();
    const auto measured = metricValue(facts.metrics, metric::Duration);
    a.durationNs
        = measured && *measured > 0 ? *measured : static_cast<double>(std::max<std::int64_t>(facts.durationNs, 0));

    // A launch with no counters (every kernel of a timeline import) has nothing to derive: the
    // lookups below would build a few dozen metric names each to find none.
    const bool counted = !facts.metrics.empty();
    if (counted) {
        a.flopsByPrecision = opsByPrecision(facts.metrics);
        a.bytesByLevel = bytesByLevel(facts.metrics);
        a.speedOfLight = readSpeedOfLight(facts.metrics);
    }
    a.hasCounters = !a.flopsByPrecision.empty() || !a.bytesByLevel.empty() || !a.speedOfLight.empty();
    if (a.hasCounters) {
        a.figures = FigureSource::Counters;
    } else if (facts.shapes && facts.shapes->call) {
        a.figures = FigureSource::Shapes;
        a.shapes = facts.shapes;
        const auto& pipe = facts.shapes->call->work.pipe;
        if (pipe && facts.shapes->flops > 0)
            a.flopsByPrecision[*pipe] = facts.shapes->flops;
        if (facts.shapes->bytes > 0)
            a.bytesByLevel[Resource::DRAM] = facts.shapes->bytes;
    }
    if (const auto comm = communicationKernel(facts.name); comm && facts.collective.empty())
        a.commByName = comm->library;
    a.ceilingsUsed = facts.roofs && !counted ? *facts.roofs : chooseCeilings(facts);
    a.latencyHint = latencyHint(facts, a.durationNs);

    const double seconds = a.durationNs / 1e9;
    if (a.hasFigures() && seconds > 0) {
        double tensor = 0;
        bool anyTensor = false;
        for (const auto& [precision, ops] : a.flopsByPrecision) {
            auto c = a.ceilingsUsed.find(precision);
            if (c == a.ceilingsUsed.end())
                continue;
            const double util = ops / seconds / c->second.value;
            if (isTensor(precision)) {
                tensor += util;
                anyTensor = true;
            } else {
                a.utilization[precision] = util;
            }
        }
        if (anyTensor)
            a.utilization[Resource::Tensor] = tensor;
        for (const auto& [level, bytes] : a.bytesByLevel) {
            if (auto c = a.ceilingsUsed.find(level); c != a.ceilingsUsed.end())
                a.utilization[level] = bytes / seconds / c->second.value;
        }
    }
    if (a.hasFigures())
        a.figuresNs = a.durationNs;
    deriveRates(a, seconds, mixOf(a.flopsByPrecision, a.ceilingsUsed));
    classify(a, a.collective, a.deviceName, a.latencyHint);
    if (a.figures == FigureSource::Shapes)
        noteShapeFigures(a, 1, 1);
    a.tensorEstimated = counted && tensorFromPipeEstimate(facts.metrics);
    if (a.tensorEstimated)
        a.reason += kTensorEstimateNote;
    a.graphRangeKernels = facts.graphRangeKernels;
    if (facts.graphRangeKernels > 0) {
        if (a.hasCounters) {
            a.reason = fmt::format("graph-level counters (one range over the {} kernels of its CUDA graph launch): {}",
                facts.graphRangeKernels, a.reason);
        } else {
            a.verdict = VerdictClass::Unknown;
            a.boundBy.clear();
            a.boundUtilization.reset();
            a.reason = fmt::format("unknown: graph-level counters only (its CUDA graph launch of {} kernels was "
                                   "counted as one range, kept on the launch's first kernel)",
                facts.graphRangeKernels);
        }
    }
    return a;
}

void noteGraphLevelCounters(KernelAnalysis& a, std::int64_t graphLevel, std::int64_t launches)
{
    if (graphLevel <= 0)
        return;
    if (!a.hasCounters) {
        a.verdict = VerdictClass::Unknown;
        a.boundBy.clear();
        a.boundUtilization.reset();
        a.reason = fmt::format("unknown: graph-level counters only ({} of {} launches ran in CUDA graph launches "
                               "counted as one range each)",
            graphLevel, launches);
        return;
    }
    a.reason += fmt::format(
        "; {} of {} launches have graph-level counters only (CUDA graph launches counted as one range each)",
        graphLevel, launches);
}

KernelAnalysis analyzeMemOp(const MemOp& op)
{
    KernelAnalysis a;
    a.kernelId = op.id;
    a.durationNs = static_cast<double>(std::max<std::int64_t>(saturatingSub(op.endNs, op.startNs), 0));
    const auto bytes = static_cast<double>(op.bytes);
    const std::string rate = a.durationNs > 0 ? " at " + formatRate(bytes / (a.durationNs / 1e9), "B/s") : "";
    const std::string size = fmt::format("{:.0f} bytes", bytes);
    a.verdict = memOpVerdict(op.kind);
    switch (op.kind) {
    case MemOpKind::MemcpyHtoD:
    case MemOpKind::MemcpyDtoH:
        a.boundBy = resource::PCIe;
        a.reason = fmt::format("communication-bound (PCIe): {} copy of {}{}",
            op.kind == MemOpKind::MemcpyHtoD ? "host-to-device" : "device-to-host", size, rate);
        a.bytesByLevel[Resource::PCIe] = bytes;
        break;
    case MemOpKind::MemcpyPtoP:
        a.boundBy = resource::NVLink;
        a.reason = fmt::format("communication-bound (NVLink): peer-to-peer copy of {}{}", size, rate);
        a.bytesByLevel[Resource::NVLink] = bytes;
        break;
    case MemOpKind::MemcpyDtoD:
    case MemOpKind::Memset:
        a.boundBy = resource::DRAM;
        a.reason = fmt::format("memory-bound (DRAM): {} of {} in device memory{}",
            op.kind == MemOpKind::Memset ? "memset" : "device-to-device copy", size, rate);
        a.bytesByLevel[Resource::DRAM] = bytes;
        break;
    case MemOpKind::MemcpyHtoH:
    case MemOpKind::Other:
        a.reason = "unknown: a copy that does not involve a GPU's memory";
        break;
    }
    return a;
}

void LaunchAccumulator::add(const KernelAnalysis& launch)
{
    if (m_launches++ == 0) {
        m_kernelId = launch.kernelId;
        m_deviceName = launch.deviceName;
    }
    m_durationNs += launch.durationNs;
    if (!launch.collective.empty())
        m_collective = launch.collective;
    if (m_commByName.empty())
        m_commByName = launch.commByName;
    m_tensorEstimated = m_tensorEstimated || launch.tensorEstimated;
    if (launch.comm) {
        if (!m_comm)
            m_comm.emplace();
        m_comm->add(*launch.comm);
    }
    if (launch.hasCounters)
        m_counters.add(launch);
    else if (launch.figures == FigureSource::Shapes)
        m_shapes.add(launch);
}

void LaunchAccumulator::FigureSums::add(const KernelAnalysis& launch)
{
    ++launches;
    durationNs += launch.durationNs;
    hintTime[launch.latencyHint] += launch.durationNs;
    for (const auto& [precision, count] : launch.flopsByPrecision)
        ops[precision] += count;
    for (const auto& [level, count] : launch.bytesByLevel)
        bytes[level] += count;
    for (const auto& [res, util] : launch.utilization) {
        auto& [weighted, time] = utilization[res];
        weighted += util * launch.durationNs;
        time += launch.durationNs;
    }
    for (const auto& [unit, fraction] : launch.speedOfLight) {
        auto& sum = speedOfLight[unit];
        if (launch.durationNs > 0) {
            sum.weighted += fraction * launch.durationNs;
            sum.time += launch.durationNs;
        } else {
            sum.untimed += fraction;
            ++sum.untimedLaunches;
        }
    }
    const MixFigures mix = mixOf(launch.flopsByPrecision, launch.ceilingsUsed);
    peakSeconds += mix.peakSeconds;
    mixComplete = mixComplete && mix.complete;
    if (launch.durationNs > longestNs) {
        longestNs = launch.durationNs;
        ceilings = launch.ceilingsUsed;
        shapes = launch.shapes;
    }
}

KernelAnalysis LaunchAccumulator::result() const
{
    KernelAnalysis a;
    a.kernelId = m_kernelId;
    a.collective = m_collective;
    a.comm = m_comm;
    a.deviceName = m_deviceName;
    a.hasCounters = m_counters.launches > 0;
    // Counters win: shapes stand in only for a kernel none of whose launches was counted.
    const FigureSums& sums = a.hasCounters ? m_counters : m_shapes;
    a.figures = a.hasCounters   ? FigureSource::Counters
        : m_shapes.launches > 0 ? FigureSource::Shapes
                                : FigureSource::None;
    if (a.figures == FigureSource::Shapes)
        a.shapes = sums.shapes;
    a.flopsByPrecision = sums.ops;
    a.bytesByLevel = sums.bytes;
    a.ceilingsUsed = sums.ceilings;
    a.commByName = m_collective.empty() ? m_commByName : std::string();
    for (const auto& [res, weighted] : sums.utilization) {
        if (weighted.second > 0)
            a.utilization[res] = weighted.first / weighted.second;
    }
    for (const auto& [unit, sum] : sums.speedOfLight) {
        if (sum.time > 0)
            a.speedOfLight[unit] = sum.weighted / sum.time;
        else if (sum.untimedLaunches > 0)
            a.speedOfLight[unit] = sum.untimed / static_cast<double>(sum.untimedLaunches);
    }
    // The latency hint that covers the most time.
    double hintTime = -1;
    for (const auto& [hint, time] : sums.hintTime) {
        if (time > hintTime) {
            hintTime = time;
            a.latencyHint = hint;
        }
    }
    MixFigures mix = mixOf(sums.ops, {});
    mix.peakSeconds = sums.peakSeconds;
    mix.complete = sums.mixComplete;
    deriveRates(a, sums.durationNs / 1e9, mix);
    // Rates in the sentence are over the launches that were measured (or modelled).
    a.durationNs = sums.durationNs;
    a.figuresNs = a.figures == FigureSource::None ? 0.0 : sums.durationNs;
    classify(a, a.collective, a.deviceName, a.latencyHint);
    a.tensorEstimated = m_tensorEstimated && a.flopsByPrecision.contains(Resource::FP16Tensor);
    if (a.tensorEstimated)
        a.reason += kTensorEstimateNote;
    if (a.figures == FigureSource::Shapes)
        noteShapeFigures(a, sums.launches, m_launches);
    a.durationNs = m_durationNs;
    return a;
}

KernelAnalysis aggregateLaunches(std::span<const KernelAnalysis> launches)
{
    LaunchAccumulator accumulator;
    for (const auto& launch : launches)
        accumulator.add(launch);
    return accumulator.result();
}

Verdict toVerdict(const KernelAnalysis& a)
{
    return Verdict { a.kernelId, a.verdict, a.boundBy, a.boundUtilization, a.reason };
}

} // namespace ridgeline::core
