// SPDX-License-Identifier: MIT
#include "rooflinemetrics.h"

#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/model/resource.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <span>
#include <tuple>

namespace ridgeline::core::detail {

namespace {

// Seconds the launch ran: gpu__time_duration.sum, else SM cycles / SM cycles per second.
std::optional<double> countedSeconds(const MetricMap& metrics)
{
    if (auto ns = metricValue(metrics, metric::Duration); ns && *ns > 0)
        return *ns / 1e9;
    const auto cycles = metricValue(metrics, metric::SmCyclesElapsed), clock = metricValue(metrics, metric::SmClock);
    if (cycles && clock && *clock > 0)
        return *cycles / *clock;
    return std::nullopt;
}

std::optional<double> sassCount(const MetricMap& metrics, std::string_view op)
{
    for (const auto prefix : metric::SassPrefixes) {
        std::string name(prefix);
        name += op;
        name += metric::SassSuffix;
        if (auto value = metricValue(metrics, name))
            return value;
    }
    // Reports of ncu's roofline sections hold the rate instead: per SMSP cycle x SMSP cycles per
    // second x seconds (SpeedOfLight_Roofline's own "achieved work").
    std::string rate(metric::SassPrefixes[0]);
    rate += op;
    rate += metric::SassSuffix;
    rate += metric::PerCycleElapsed;
    const auto perCycle = metricValue(metrics, rate), clock = metricValue(metrics, metric::SmspClock);
    const auto seconds = countedSeconds(metrics);
    if (perCycle && clock && seconds)
        return *perCycle * *clock * *seconds;
    return std::nullopt;
}

// add + mul + fmaWeight * fma, when at least one of the three was counted.
std::optional<double> cudaCoreFlops(const MetricMap& metrics, std::string_view add, std::string_view mul,
    std::string_view fma, double addMulWeight, double fmaWeight)
{
    const auto a = sassCount(metrics, add), m = sassCount(metrics, mul), f = sassCount(metrics, fma);
    if (!a && !m && !f)
        return std::nullopt;
    return addMulWeight * (a.value_or(0) + m.value_or(0)) + fmaWeight * f.value_or(0);
}

// A tensor source type ("fp16_dst_fp32", "fp4_fp6_fp8_dst_fp16", ...) -> resource, by the
// per-chip names of metricnames.h. int1 and types no chip lists have no ceiling: not counted.
std::optional<Resource> tensorResource(std::string_view sourceType)
{
    const std::pair<std::span<const std::string_view>, Resource> groups[] = {
        { metric::TensorSrcFp64, Resource::FP64Tensor },
        { metric::TensorSrcTf32, Resource::TF32Tensor },
        { metric::TensorSrcFp16, Resource::FP16Tensor },
        { metric::TensorSrcBf16, Resource::BF16Tensor },
        { metric::TensorSrcFp8, Resource::FP8Tensor },
        { metric::TensorSrcInt8, Resource::INT8Tensor },
    };
    for (const auto& [names, res] : groups) {
        if (std::find(names.begin(), names.end(), sourceType) != names.end())
            return res;
    }
    return std::nullopt;
}

void addIfPresent(ResourceMap<double>& out, Resource level, std::optional<double> value)
{
    if (value)
        out[level] += *value;
}

std::optional<double> sumOf(const MetricMap& metrics, std::string_view a, std::string_view b)
{
    const auto x = metricValue(metrics, a), y = metricValue(metrics, b);
    if (!x && !y)
        return std::nullopt;
    return x.value_or(0) + y.value_or(0);
}

// Link ceilings are per direction, so a link is as loaded as its busier direction.
std::optional<double> busierDirection(const MetricMap& metrics, std::string_view a, std::string_view b)
{
    const auto x = metricValue(metrics, a), y = metricValue(metrics, b);
    if (!x && !y)
        return std::nullopt;
    return std::max(x.value_or(0), y.value_or(0));
}

bool isCompute(std::string_view resourceName)
{
    return std::find(resource::Compute.begin(), resource::Compute.end(), resourceName) != resource::Compute.end();
}

} // namespace

std::optional<Resource> tensorResourceOf(std::string_view sourceType)
{
    return tensorResource(sourceType);
}

std::optional<double> countedSecondsOf(const MetricMap& metrics)
{
    return countedSeconds(metrics);
}

std::optional<double> metricValue(const MetricMap& metrics, std::string_view name)
{
    auto it = metrics.find(name);
    if (it == metrics.end() || !std::isfinite(it->second))
        return std::nullopt;
    return it->second;
}

bool isTensor(std::string_view resourceName)
{
    return isTensorPipe(resourceName);
}

bool isFloatingPoint(std::string_view resourceName)
{
    return resourceName != resource::INT8Tensor;
}

std::optional<double> intensityAt(const KernelAnalysis& a, std::string_view level)
{
    const auto memory = resourceFromString(level);
    const auto it = memory ? a.intensity.find(*memory) : a.intensity.end();
    return it == a.intensity.end() ? std::nullopt : std::optional<double>(it->second);
}

ResourceMap<double> opsByPrecision(const MetricMap& metrics)
{
    ResourceMap<double> ops;
    using namespace metric;
    if (auto v = cudaCoreFlops(metrics, Dadd, Dmul, Dfma, 1.0, 2.0))
        ops[Resource::FP64] = *v;
    if (auto v = cudaCoreFlops(metrics, Fadd, Fmul, Ffma, 1.0, 2.0))
        ops[Resource::FP32] = *v;
    // HFMA2/HADD2/HMUL2 are packed: Nsight Compute counts 4 FLOPs per HFMA, 2 per HADD and HMUL.
    if (auto v = cudaCoreFlops(metrics, Hadd, Hmul, Hfma, 2.0, 4.0))
        ops[Resource::FP16] = *v;

    // Hopper and newer: operation counts per source type. A sparsity split of a type is
    // skipped when the type's own total is there too.
    std::map<std::string, double> bySource;
    for (auto it = metrics.lower_bound(TensorOpsPrefix); it != metrics.end(); ++it) {
        const std::string_view name = it->first;
        if (name.substr(0, TensorOpsPrefix.size()) != TensorOpsPrefix)
            break;
        if (name.size() <= TensorOpsPrefix.size() + TensorOpsSuffix.size()
            || name.substr(name.size() - TensorOpsSuffix.size()) != TensorOpsSuffix || !std::isfinite(it->second))
            continue;
        bySource[std::string(
            name.substr(TensorOpsPrefix.size(), name.size() - TensorOpsPrefix.size() - TensorOpsSuffix.size()))]
            = it->second;
    }
    bool hopperTensor = false;
    for (const auto& [source, value] : bySource) {
        const auto split = source.find("_sparsity_");
        if (split != std::string::npos && bySource.count(source.substr(0, split)))
            continue;
        if (const auto res = tensorResource(source)) {
            ops[*res] += value;
            hopperTensor = true;
        }
    }
    if (!hopperTensor) {
        if (auto inst = metricValue(metrics, TensorPipeInst))
            ops[Resource::FP16Tensor] += *inst * TensorPipeFlopsPerInst;
    }
    return ops;
}

bool tensorFromPipeEstimate(const MetricMap& metrics)
{
    const auto ops = opsByPrecision(metrics);
    if (!ops.contains(Resource::FP16Tensor))
        return false;
    // The per-type counters win in opsByPrecision: the figure is the x512 one only without them.
    for (auto it = metrics.lower_bound(metric::TensorOpsPrefix); it != metrics.end(); ++it) {
        if (std::string_view(it->first).substr(0, metric::TensorOpsPrefix.size()) != metric::TensorOpsPrefix)
            break;
        if (std::string_view(it->first).ends_with(metric::TensorOpsSuffix))
            return false;
    }
    const auto inst = metricValue(metrics, metric::TensorPipeInst);
    return inst && *inst > 0;
}

ResourceMap<double> bytesByLevel(const MetricMap& metrics)
{
    ResourceMap<double> bytes;
    using namespace metric;
    auto dram = metricValue(metrics, DramBytes);
    if (!dram)
        dram = sumOf(metrics, DramBytesRead, DramBytesWrite);
    if (!dram) { // a roofline section's rate x the launch's time
        const auto rate = metricValue(metrics, DramBytesPerSecond);
        const auto seconds = countedSeconds(metrics);
        if (rate && seconds)
            dram = *rate * *seconds;
    }
    if (!dram) // Blackwell GB20x names them by operation
        dram = sumOf(metrics, DramBytesOpRead, DramBytesOpWrite);
    addIfPresent(bytes, Resource::DRAM, dram);
    addIfPresent(bytes, Resource::L2, metricValue(metrics, L2Bytes));
    addIfPresent(bytes, Resource::L1, metricValue(metrics, L1Bytes));
    addIfPresent(bytes, Resource::NVLink, busierDirection(metrics, NvlinkRxBytes, NvlinkTxBytes));
    addIfPresent(bytes, Resource::PCIe, busierDirection(metrics, PcieReadBytes, PcieWriteBytes));
    return bytes;
}

ResourceMap<CeilingUsed> chooseCeilings(const KernelFacts& facts)
{
    // This launch's own peaks per cycle at the clock it ran at (Nsight Compute's ceilings) first,
    // so that they win over the counter ceilings its device stores (another launch's clock).
    std::vector<Ceiling> candidates = ceilingsFromCounters(facts.metrics, 0);

    // Datasheet peaks assume the boost clock; this launch may have run slower (or faster).
    const auto smClock = metricValue(facts.metrics, metric::SmClock);
    const double boostHz = facts.device ? static_cast<double>(facts.device->coreClockKhz) * 1e3 : 0.0;
    const double clockScale = (smClock && *smClock > 0 && boostHz > 0) ? *smClock / boostHz : 1.0;
    for (const auto& stored : facts.ceilings) {
        // L1 and L2 figures are bytes per clock too (A100: L2 5,120 B/clk, L1 128 B/clk/SM).
        const bool perClock
            = isCompute(stored.resource) || stored.resource == resource::L1 || stored.resource == resource::L2;
        const double scale = stored.source == CeilingSource::Datasheet && perClock ? clockScale : 1.0;
        // One device, the launch's; no unit or note (runs per launch: no long strings copied).
        candidates.push_back({ 0, stored.resource, stored.value * scale, {}, stored.source, {} });
    }

    ResourceMap<CeilingUsed> chosen;
    for (const auto& c : selectCeilings(candidates))
        if (const auto known = resourceFromString(c.resource))
            chosen[*known] = { c.value, c.source };
    return chosen;
}

} // namespace ridgeline::core::detail

namespace ridgeline::core {

bool feedsAnalysis(std::string_view name)
{
    using namespace metric;
    // CUDA-core instructions (counts, rates, peaks), tensor operations per type, the tensor pipe.
    for (const auto prefix : SassPrefixes) {
        if (name.starts_with(prefix))
            return true;
    }
    if (name.starts_with(TensorOpsPrefix) || name.starts_with(TensorPipeInst))
        return true;
    static const std::string_view exact[] = { DramBytes, DramBytesRead, DramBytesWrite, DramBytesOpRead,
        DramBytesOpWrite, DramBytesPerSecond, DramBytesPeakPerCycle, L2Bytes, L1Bytes, NvlinkRxBytes, NvlinkTxBytes,
        PcieReadBytes, PcieWriteBytes, Duration, SmCyclesElapsed, SmClock, SmspClock, DramClock, L2Clock, L1Clock,
        Waves, SolSm, SolMemory, SolDram, SolDramAlt, SolL2, SolL1, SolL1Active, L2CyclesPeakPerCycle };
    if (std::find(std::begin(exact), std::end(exact), name) != std::end(exact))
        return true;
    for (const auto& names : { std::span<const std::string_view>(L2BytesPeakPerCycle),
             std::span<const std::string_view>(L1BytesPeakPerCycle),
             std::span<const std::string_view>(L1CyclesPeakPerCycle) }) {
        if (std::find(names.begin(), names.end(), name) != names.end())
            return true;
    }
    return false;
}

std::vector<Ceiling> ceilingsFromCounters(const detail::MetricMap& metrics, std::int64_t deviceId)
{
    using detail::metricValue;
    std::vector<Ceiling> out;
    auto add = [&](const char* res, double value, const char* unit, std::string note) {
        if (value > 0 && std::isfinite(value))
            out.push_back({ deviceId, res, value, unit, CeilingSource::Counters, std::move(note) });
    };
    if (const auto smClock = metricValue(metrics, metric::SmClock)) {
        const std::tuple<std::string_view, const char*, double> perCycle[] = {
            { metric::FfmaPeakPerCycle, resource::FP32, 2.0 },
            { metric::DfmaPeakPerCycle, resource::FP64, 2.0 },
            { metric::HfmaPeakPerCycle, resource::FP16, 4.0 },
        };
        for (const auto& [name, res, flopsPerInst] : perCycle) {
            if (auto peak = metricValue(metrics, name))
                add(res, *peak * flopsPerInst * *smClock, "FLOP/s",
                    fmt::format("{} x {} x SM clock {:.0f} MHz", name, flopsPerInst, *smClock / 1e6));
        }
    }
    const auto dramPeak = metricValue(metrics, metric::DramBytesPeakPerCycle);
    const auto dramClock = metricValue(metrics, metric::DramClock);
    if (dramPeak && dramClock)
        add(resource::DRAM, *dramPeak * *dramClock, "B/s",
            fmt::format("{} x DRAM clock {:.0f} MHz", metric::DramBytesPeakPerCycle, *dramClock / 1e6));
    // L2 and L1: bytes per cycle at peak (derived, or active cycles x bytes per cycle) x the unit's clock.
    const auto level
        = [&](const char* res, std::span<const std::string_view> bytePeaks,
              std::span<const std::string_view> cyclePeaks, double bytesPerCycle, std::string_view clockName) {
              const auto clock = metricValue(metrics, clockName);
              if (!clock)
                  return;
              const auto note = [&](std::string_view name, double factor) {
                  return factor == 1.0 ? fmt::format("{} x clock {:.0f} MHz", name, *clock / 1e6)
                                       : fmt::format("{} x {:.0f} B x clock {:.0f} MHz", name, factor, *clock / 1e6);
              };
              for (auto name : bytePeaks) {
                  if (auto peak = metricValue(metrics, name))
                      return add(res, *peak * *clock, "B/s", note(name, 1.0));
              }
              for (auto name : cyclePeaks) {
                  if (auto peak = metricValue(metrics, name))
                      return add(res, *peak * bytesPerCycle * *clock, "B/s", note(name, bytesPerCycle));
              }
          };
    const std::string_view l2Cycles[] = { metric::L2CyclesPeakPerCycle };
    level(resource::L2, metric::L2BytesPeakPerCycle, l2Cycles, metric::L2BytesPerCycle, metric::L2Clock);
    level(resource::L1, metric::L1BytesPeakPerCycle, metric::L1CyclesPeakPerCycle, metric::L1BytesPerCycle,
        metric::L1Clock);
    // Tensor: operations per cycle per source type (Hopper+), else pipe instructions x 512.
    if (const auto smClock = metricValue(metrics, metric::SmClock)) {
        bool perType = false;
        for (auto it = metrics.lower_bound(metric::TensorOpsPrefix); it != metrics.end(); ++it) {
            const std::string_view name = it->first;
            if (!name.starts_with(metric::TensorOpsPrefix))
                break;
            constexpr std::string_view suffix = ".sum.peak_sustained";
            if (!name.ends_with(suffix) || !std::isfinite(it->second))
                continue;
            const auto type = name.substr(
                metric::TensorOpsPrefix.size(), name.size() - metric::TensorOpsPrefix.size() - suffix.size());
            if (const auto res = detail::tensorResourceOf(type)) {
                add(toString(*res), it->second * *smClock, *res == Resource::INT8Tensor ? "op/s" : "FLOP/s",
                    fmt::format("{} x SM clock {:.0f} MHz", name, *smClock / 1e6));
                perType = true;
            }
        }
        if (!perType) {
            if (auto peak = metricValue(metrics, metric::TensorPipePeakPerCycle))
                add(resource::FP16Tensor, *peak * metric::TensorPipeFlopsPerInst * *smClock, "FLOP/s",
                    fmt::format("{} x 512 x SM clock {:.0f} MHz", metric::TensorPipePeakPerCycle, *smClock / 1e6));
        }
    }
    // ncu's own DRAM throughput: achieved bytes/s / its % of peak is the peak it measured against.
    const auto dramPct = metricValue(metrics, metric::SolDram);
    const auto seconds = detail::countedSecondsOf(metrics);
    const auto bytes = detail::bytesByLevel(metrics);
    if (!dramPeak && dramPct && *dramPct >= 1.0 && seconds && bytes.contains(Resource::DRAM))
        add(resource::DRAM, bytes.at(Resource::DRAM) / *seconds / (*dramPct / 100.0), "B/s",
            fmt::format("DRAM bytes per second / {} ({:.1f} %)", metric::SolDram, *dramPct));
    return out;
}

} // namespace ridgeline::core
