// SPDX-License-Identifier: MIT
// Metric units and derived counts for the .ncu-rep importer. A report stores each value in
// Nsight Compute's base unit (ns, bytes, bytes per second, cycles, kHz for the CUDA device
// clocks) without naming the unit; the unit follows from the metric's name.
#include "ncurepinternal.h"
#include "ridgeline/core/model/metricnames.h"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace ridgeline::collectors::ncu {

namespace {

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool isByteQuantity(std::string_view name)
{
    return contains(name, "bytes") || contains(name, "shared_mem") || contains(name, "memory_per")
        || endsWith(name, "_memory") || endsWith(name, "cache_size") || endsWith(name, "_window_size");
}

// The counts the roofline reads (core/model/metricnames.h), which a report may hold only as rates.
std::vector<std::string> roofCounts()
{
    namespace m = core::metric;
    std::vector<std::string> names;
    for (const auto prefix : m::SassPrefixes) {
        for (const auto op : { m::Dadd, m::Dmul, m::Dfma, m::Fadd, m::Fmul, m::Ffma, m::Hadd, m::Hmul, m::Hfma })
            names.push_back(std::string(prefix) + std::string(op) + std::string(m::SassSuffix));
    }
    for (const auto name : { m::DramBytes, m::DramBytesRead, m::DramBytesWrite, m::L2Bytes, m::L1Bytes,
             m::SmCyclesElapsed, m::TensorPipeInst })
        names.emplace_back(name);
    return names;
}

} // namespace

std::string reportUnit(std::string_view name)
{
    if (contains(name, ".pct") || endsWith(name, "_pct"))
        return "%";
    if (name.substr(0, 19) == "gpu__time_duration.")
        return "ns";
    if (endsWith(name, ".per_second")) {
        if (contains(name, "cycles"))
            return "Hz";
        return isByteQuantity(name) ? "byte/s" : "";
    }
    if (contains(name, ".per_cycle") || contains(name, "per_active_cycle"))
        return "";
    if (endsWith(name, ".peak_sustained"))
        return isByteQuantity(name) ? "byte/cycle" : "";
    if (name.substr(0, 18) == "device__attribute_") {
        if (endsWith(name, "clock_rate") || endsWith(name, "_khz"))
            return "kHz";
        return isByteQuantity(name) && !contains(name, "supported") ? "byte" : "";
    }
    if (isByteQuantity(name))
        return "byte";
    if (contains(name, "__cycles_"))
        return "cycle";
    return "";
}

std::set<std::string> deriveCounts(ParsedProfile& profile, std::size_t firstKernel)
{
    static const std::vector<std::string> kCounts = roofCounts();
    auto& table = profile.metricNames;
    // Per count: its own id (interned only when some kernel gets it) and those of its rates.
    struct Rates {
        const std::string* name;
        std::optional<std::uint32_t> perSecond, perCycle, clock;
    };
    std::vector<Rates> rates;
    for (const auto& name : kCounts) {
        Rates r { &name, table.find(name + ".per_second"),
            table.find(name + std::string(core::metric::PerCycleElapsed)),
            table.find(name.substr(0, name.find("__")) + "__cycles_elapsed.avg.per_second") };
        if (r.perSecond || (r.perCycle && r.clock))
            rates.push_back(r);
    }
    std::set<std::string> derived;
    const auto duration = table.find(core::metric::Duration);
    if (rates.empty() || !duration)
        return derived;
    for (std::size_t k = firstKernel; k < profile.kernels.size(); ++k) {
        auto& metrics = profile.kernels[k].metrics;
        const auto ns = metrics.find(*duration);
        if (!ns || !(*ns > 0))
            continue;
        const double seconds = *ns * 1e-9;
        for (const auto& r : rates) {
            const auto own = table.find(*r.name);
            if (own && metrics.contains(*own))
                continue;
            double value = std::numeric_limits<double>::quiet_NaN();
            if (auto rate = r.perSecond ? metrics.find(*r.perSecond) : std::nullopt) {
                value = *rate * seconds;
            } else if (auto perCycle = r.perCycle ? metrics.find(*r.perCycle) : std::nullopt) {
                // X.per_cycle_elapsed = X / <unit>__cycles_elapsed.avg (Nsight Compute's definition).
                if (auto clock = metrics.find(*r.clock))
                    value = *perCycle * *clock * seconds;
            }
            if (!std::isfinite(value))
                continue;
            metrics.set(table.intern(*r.name, reportUnit(*r.name)), value);
            derived.insert(*r.name);
        }
    }
    return derived;
}

} // namespace ridgeline::collectors::ncu
