// SPDX-License-Identifier: MIT
#include "verdictrules.h"

#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/model/resource.h"
#include "rooflinemetrics.h"
#include "speedoflight.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core::detail {

namespace {

constexpr double kShortKernelNs = 5'000; // below this a launch is dominated by its ramp-up and tail

std::string percent(double fraction)
{
    return percentText(fraction);
}

// "DRAM at 12 % of peak", or empty when nothing else did any work.
std::string runnerUp(const KernelAnalysis& a, Resource except)
{
    const std::pair<const Resource, double>* best = nullptr;
    for (const auto& entry : a.utilization) {
        if (entry.first != except && entry.second > 0 && (!best || entry.second > best->second))
            best = &entry;
    }
    return best ? fmt::format("{} at {} of peak", toString(best->first), percent(best->second)) : std::string();
}

// Achieved rate and ceiling of a utilisation entry, for the sentence.
std::pair<double, double> rateAndCeiling(const KernelAnalysis& a, Resource res)
{
    const double seconds = a.durationNs / 1e9;
    const double util = a.utilization.at(res);
    double amount = 0;
    const auto amountOf = [&](const ResourceMap<double>& figures) {
        const auto it = figures.find(res);
        return it == figures.end() ? 0.0 : it->second;
    };
    if (res == Resource::Tensor) {
        for (const auto& [precision, ops] : a.flopsByPrecision) {
            if (isTensor(precision))
                amount += ops;
        }
    } else {
        amount = amountOf(kindOf(res) == ResourceKind::Compute ? a.flopsByPrecision : a.bytesByLevel);
    }
    const double rate = seconds > 0 ? amount / seconds : 0;
    return { rate, util > 0 ? rate / util : 0 };
}

} // namespace

std::string percentText(double fraction)
{
    if (fraction > 0 && fraction < 0.01)
        return fmt::format("{:.1g} %", fraction * 100.0);
    return fmt::format("{:.0f} %", fraction * 100.0);
}

std::string latencyHint(const KernelFacts& facts, double durationNs)
{
    std::optional<double> waves = metricValue(facts.metrics, metric::Waves);
    const double blocks = static_cast<double>(facts.grid.x) * facts.grid.y * facts.grid.z;
    const int sms = facts.device ? facts.device->smCount : 0;
    if (waves && *waves < 1.0)
        return fmt::format("less than one wave ({:.2f} waves per SM)", *waves);
    // A grid and block of 1 x 1 x 1 are what a file without launch sizes leaves (older ncu CSVs):
    // no claim about waves from them.
    const bool launchKnown = !(facts.grid == Dim3 {} && facts.block == Dim3 {});
    if (!waves && launchKnown && sms > 0 && blocks < sms)
        return fmt::format("less than one wave ({:.0f} blocks on {} SMs)", blocks, sms);
    if (durationNs > 0 && durationNs < kShortKernelNs)
        return fmt::format("too short to fill the GPU ({})", formatDuration(durationNs));
    return "no unit is busy: likely stalls on memory latency, dependencies or synchronisation";
}

void classify(KernelAnalysis& a, const std::string& collective, const std::string& deviceName, const std::string& hint)
{
    a.boundBy.clear();
    a.boundUtilization.reset();
    if (!collective.empty()) {
        classifyCollective(a, collective); // collectives.cpp: busbw against the link
        return;
    }
    if (!a.commByName.empty()) {
        a.verdict = VerdictClass::CommunicationBound;
        a.boundBy = "collective";
        a.reason = fmt::format("communication-bound: {} {} kernel (the trace records no collective or sizes for it)",
            a.commByName == "NCCL" ? "an" : "a", a.commByName);
        return;
    }
    if (!a.hasFigures()) {
        a.verdict = VerdictClass::Unknown;
        a.reason = "unknown: no counters for this kernel";
        return;
    }
    // Nsight Compute's own throughputs decide where the report has them. They are fractions of
    // peak over the launch's own time, so they need no duration: a file without one still gets
    // ncu's class (its rates stay unknown).
    if (hasSolInputs(a.speedOfLight)) {
        classifyBySpeedOfLight(a, hint);
        if (!(a.durationNs > 0))
            a.reason += "; no duration in the file, so no rates";
        return;
    }
    if (!(a.durationNs > 0)) {
        a.verdict = VerdictClass::Unknown;
        a.reason = "unknown: no duration, so no rates";
        return;
    }
    const std::string uncapped = withoutCeilings(a);
    if (a.utilization.empty()) {
        a.verdict = VerdictClass::Unknown;
        a.reason = fmt::format("unknown: no ceilings for {} to compare the {} with",
            deviceName.empty() ? "this device" : deviceName,
            a.figures == FigureSource::Shapes ? "figures from shapes" : "counters");
        if (!uncapped.empty())
            a.reason += " (" + uncapped + ")";
        return;
    }
    // Highest utilisation; ties go to the first in name order, so the answer is stable.
    const auto top = std::max_element(
        a.utilization.begin(), a.utilization.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    const Resource bound = top->first;
    const std::string res = toString(bound);
    const double util = top->second;
    if (util < kBoundThreshold) {
        a.verdict = VerdictClass::LatencyBound;
        // "No unit is busy" only when every unit that worked was measured against a ceiling.
        if (uncapped.empty())
            a.reason = fmt::format(
                "latency-bound: {}; the busiest resource, {}, is at {} of peak", hint, res, percent(util));
        else
            a.reason = fmt::format("latency-bound: nothing with a known ceiling is near it (the busiest, {}, is at {} "
                                   "of peak); {}",
                res, percent(util), uncapped);
        return;
    }
    a.boundBy = res;
    a.boundUtilization = util;
    const ResourceKind kind = kindOf(bound);
    a.verdict = kind == ResourceKind::Link ? VerdictClass::CommunicationBound
        : kind == ResourceKind::Memory     ? VerdictClass::MemoryBound
                                   : VerdictClass::ComputeBound;
    const auto [rate, ceiling] = rateAndCeiling(a, bound);
    const char* unit = kind == ResourceKind::Compute ? (bound == Resource::INT8Tensor ? "op/s" : "FLOP/s") : "B/s";
    a.reason = fmt::format(
        "{} ({}): {} = {} of {}", toString(a.verdict), res, formatRate(rate, unit), percent(util), formatRate(ceiling, unit));
    if (const auto second = runnerUp(a, bound); !second.empty())
        a.reason += "; " + second;
    if (!uncapped.empty())
        a.reason += "; " + uncapped;
    // Physically impossible: say so rather than present it as a fact.
    if (util > 1.0)
        a.reason += "; above its ceiling, so the ceiling or the counters are wrong";
}

} // namespace ridgeline::core::detail
