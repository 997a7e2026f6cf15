// SPDX-License-Identifier: MIT
#include "speedoflight.h"

#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"
#include "verdictrules.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core::detail {

namespace {

constexpr const char* kSm = "SM";
constexpr const char* kMemory = "Memory";

// The roofline position beside ncu's class: "AI 0.3 FLOP/B, 62 % of the L1 roof", where the
// kernel's intensity at `level` and that level's ceiling are known. The roof at an intensity is
// min(the precision mix's peak, intensity x bandwidth), as on the chart.
std::string rooflinePosition(const KernelAnalysis& a, const std::string& level)
{
    const auto ai = intensityAt(a, level);
    const auto known = resourceFromString(level);
    const auto bandwidth = known ? a.ceilingsUsed.find(*known) : a.ceilingsUsed.end();
    if (!ai || bandwidth == a.ceilingsUsed.end() || !a.achievedFlopsPerS)
        return {};
    // Without the compute roof the position would be against the slope alone: not said.
    if (!a.mixCeilingFlopsPerS)
        return {};
    const double slope = *ai * bandwidth->second.value;
    const double roof = std::min(slope, *a.mixCeilingFlopsPerS);
    if (!(roof > 0))
        return {};
    // Right of the ridge the roof at this intensity is the compute peak of the kernel's mix.
    const std::string which = slope < *a.mixCeilingFlopsPerS ? level + " roof" : "compute roof";
    return fmt::format(
        "AI {:.3g} FLOP/B ({}), {} of the {}", *ai, level, percentText(*a.achievedFlopsPerS / roof), which);
}

// The compute resource doing the most work against its ceiling, for "compute-bound (FP32)".
struct SolBusiestPipe {
    std::string name; // empty when no compute resource has a ceiling
    double utilization = 0;
};

SolBusiestPipe busiestPipe(const KernelAnalysis& a)
{
    SolBusiestPipe best;
    double most = -1;
    for (const auto& [res, util] : a.utilization) {
        if (kindOf(res) == ResourceKind::Compute && util > most) {
            most = util;
            best = { toString(res), util };
        }
    }
    return best;
}

// ncu's SM throughput is the highest of the SM's sub-unit throughputs: instruction issue and each
// pipe's activity (ALU, FMA, FP64, tensor, load/store, ...). A floating-point utilisation here is
// FLOP/s over the pipe's peak of 2 FLOP per lane and cycle (an FMA); an add or a multiply fills
// the same issue slot for 1 FLOP, so a pipe at utilisation u was busy for at most 2u of its
// cycles. Below SM / 2 no floating-point pipe can be the unit that set the SM throughput.
constexpr double kSolPipeBusyPerFlopShare = 2.0;

// The file rules floating point out as the SM's bound: it counted the floating-point work (and
// every precision that did some has a ceiling), and the busiest pipe is under SM / 2.
bool solNotFloatingPoint(const KernelAnalysis& a, const SolBusiestPipe& pipe, double sm)
{
    if (a.flopsByPrecision.empty() || !(a.durationNs > 0))
        return false; // no FP counters, or no time to make rates of them: nothing is known about the pipes
    for (const auto& [precision, ops] : a.flopsByPrecision) {
        if (ops > 0 && !a.ceilingsUsed.contains(precision))
            return false; // work that cannot be weighed against its pipe
    }
    return pipe.utilization * kSolPipeBusyPerFlopShare < sm;
}

} // namespace

std::map<std::string, double> readSpeedOfLight(const MetricMap& metrics)
{
    std::map<std::string, double> sol;
    const auto put = [&](const char* key, std::initializer_list<std::string_view> names) {
        for (auto name : names) {
            if (auto pct = metricValue(metrics, name); pct && *pct >= 0) {
                sol[key] = *pct / 100.0;
                return;
            }
        }
    };
    put(kSm, { metric::SolSm });
    put(kMemory, { metric::SolMemory });
    put(resource::DRAM, { metric::SolDram, metric::SolDramAlt });
    put(resource::L2, { metric::SolL2 });
    put(resource::L1, { metric::SolL1, metric::SolL1Active });
    return sol;
}

bool hasSolInputs(const std::map<std::string, double>& sol)
{
    return sol.contains(kSm) && sol.contains(kMemory);
}

std::string withoutCeilings(const KernelAnalysis& a)
{
    const double seconds = a.durationNs / 1e9;
    if (!(seconds > 0))
        return {};
    std::string out;
    const auto name = [&](Resource res, double amount, const char* unit) {
        if (amount > 0 && !a.ceilingsUsed.contains(res))
            out += fmt::format("{}{}: {}, no ceiling known", out.empty() ? "" : "; ", toString(res),
                formatRate(amount / seconds, unit));
    };
    for (const auto& [precision, ops] : a.flopsByPrecision)
        name(precision, ops, precision == Resource::INT8Tensor ? "op/s" : "FLOP/s");
    for (const auto& [level, bytes] : a.bytesByLevel)
        name(level, bytes, "B/s");
    return out;
}

void classifyBySpeedOfLight(KernelAnalysis& a, const std::string& hint)
{
    const double sm = a.speedOfLight.at(kSm);
    const double memory = a.speedOfLight.at(kMemory);
    const std::string both = fmt::format("SM {}, memory {}", percentText(sm), percentText(memory));
    std::string position;
    if (sm >= kBoundThreshold && sm >= memory) {
        a.verdict = VerdictClass::ComputeBound;
        a.boundUtilization = sm;
        const SolBusiestPipe pipe = busiestPipe(a);
        if (solNotFloatingPoint(a, pipe, sm)) {
            a.boundBy = kSm;
            const std::string fp = pipe.utilization > 0 ? fmt::format("{} {}", pipe.name, percentText(pipe.utilization))
                                                        : std::string("no floating-point work");
            a.reason = fmt::format(
                "compute-bound (SM, not floating point: issue, integer or load/store work): SM {} of peak; "
                "{}; memory {}",
                percentText(sm), fp, percentText(memory));
        } else {
            a.boundBy = pipe.name.empty() ? std::string(kSm) : pipe.name;
            a.reason = fmt::format(
                "compute-bound ({}): SM {} of peak; memory {}", a.boundBy, percentText(sm), percentText(memory));
        }
        position = rooflinePosition(a, resource::DRAM);
    } else if (memory >= kBoundThreshold) {
        // The unit ncu names: the busiest of DRAM, L2 and L1 (SOLBottleneck's breakdown).
        std::string unit;
        double busiest = -1;
        for (const char* level : resource::Memory) {
            if (auto it = a.speedOfLight.find(level); it != a.speedOfLight.end() && it->second > busiest) {
                busiest = it->second;
                unit = level;
            }
        }
        a.verdict = VerdictClass::MemoryBound;
        a.boundBy = unit.empty() ? std::string(kMemory) : unit;
        a.boundUtilization = unit.empty() ? memory : busiest;
        a.reason = fmt::format(
            "memory-bound ({}): {} of peak; SM {}", a.boundBy, percentText(*a.boundUtilization), percentText(sm));
        if (!unit.empty())
            position = rooflinePosition(a, unit);
    } else {
        a.verdict = VerdictClass::LatencyBound;
        a.reason = fmt::format("latency-bound: {} of peak, both under 60 %; {}", both, hint);
        position = rooflinePosition(a, resource::DRAM);
    }
    if (!position.empty())
        a.reason += "; " + position;
}

} // namespace ridgeline::core::detail
