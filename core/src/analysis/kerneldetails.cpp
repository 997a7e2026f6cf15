// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/kerneldetails.h"

#include "ridgeline/core/store/sessionreader.h"
#include "sessionanalysis.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::core {

namespace {

// Launches whose counters are looked up before giving up (each lookup is one index probe).
constexpr std::size_t kMaxCounterProbes = 4096;

std::vector<LaunchConfig> configsOf(const std::vector<Kernel>& launches)
{
    std::vector<LaunchConfig> configs;
    for (const auto& k : launches) {
        LaunchConfig c { k.grid, k.block, k.registersPerThread, k.staticSharedBytes, k.dynamicSharedBytes, 0 };
        auto it = std::find_if(configs.begin(), configs.end(), [&](const LaunchConfig& o) {
            return o.grid == c.grid && o.block == c.block && o.registersPerThread == c.registersPerThread
                && o.staticSharedBytes == c.staticSharedBytes && o.dynamicSharedBytes == c.dynamicSharedBytes;
        });
        if (it == configs.end())
            it = configs.insert(configs.end(), c);
        ++it->launches;
    }
    std::stable_sort(
        configs.begin(), configs.end(), [](const auto& a, const auto& b) { return a.launches > b.launches; });
    return configs;
}

Result<KernelAnalysis> analyzeLaunch(
    SessionReader& reader, const Kernel& launch, const std::vector<MetricValue>& metrics)
{
    auto devices = reader.devices();
    if (devices.hasError())
        return devices.error();
    auto ceilings = reader.ceilings(launch.deviceId);
    if (ceilings.hasError())
        return ceilings.error();
    auto comms = reader.commOps(TimeQuery { launch.deviceId, std::nullopt, launch.startNs, launch.endNs });
    if (comms.hasError())
        return comms.error();
    KernelFacts facts = detail::launchFacts(launch);
    for (const auto& d : devices.value()) {
        if (d.id == launch.deviceId)
            facts.device = &d;
    }
    for (const auto& m : metrics)
        facts.metrics[m.name] = m.value;
    facts.ceilings = std::move(ceilings).value();
    for (const auto& op : comms.value()) {
        if (op.kernelId == launch.id)
            facts.collective = op.collective;
    }
    return analyzeKernel(facts);
}

} // namespace

Result<KernelDetails> loadKernelDetails(
    SessionReader& reader, std::int64_t nameId, std::int64_t deviceId, std::int64_t launchId)
{
    KernelDetails details;
    std::vector<Kernel> launches;
    if (launchId >= 0) {
        auto found = reader.kernelsById({ launchId });
        if (found.hasError())
            return found.error();
        launches = std::move(found).value();
        if (launches.empty() || launches.front().nameId != nameId || launches.front().deviceId != deviceId)
            return makeError(ErrorCode::NotFound,
                fmt::format("launch {} is not a launch of kernel {} on device {}", launchId, nameId, deviceId));
    } else {
        auto found = reader.kernelsOfName(nameId, deviceId);
        if (found.hasError())
            return found.error();
        launches = std::move(found).value();
    }
    details.launches = static_cast<std::int64_t>(launches.size());
    details.configs = configsOf(launches);
    if (launchId >= 0) {
        auto call = reader.launchingCall(launches.front());
        if (call.hasError())
            return call.error();
        details.launchingCall = std::move(call).value();
    } else {
        auto delays = reader.launchDelays(nameId, deviceId);
        if (delays.hasError())
            return delays.error();
        details.launchDelays = delays.value();
    }

    std::stable_sort(launches.begin(), launches.end(),
        [](const Kernel& a, const Kernel& b) { return a.durationNs() > b.durationNs(); });
    const std::size_t probes = std::min(launches.size(), kMaxCounterProbes);
    for (std::size_t i = 0; i < probes; ++i) {
        auto metrics = reader.metrics(launches[i].id);
        if (metrics.hasError())
            return metrics.error();
        if (!metrics.value().empty() || launchId >= 0) {
            details.countersLaunch = launches[i];
            details.metrics = std::move(metrics).value();
            break;
        }
    }
    if (launchId >= 0 && details.countersLaunch) {
        auto analysis = analyzeLaunch(reader, *details.countersLaunch, details.metrics);
        if (analysis.hasError())
            return analysis.error();
        details.launchAnalysis = std::move(analysis).value();
    }
    return details;
}

} // namespace ridgeline::core
