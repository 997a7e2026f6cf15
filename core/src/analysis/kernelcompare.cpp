// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/kernelcompare.h"

#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace ridgeline::core {

namespace {

using KernelKey = std::tuple<std::string, std::string, std::size_t>; // name, device name, device slot

// Per device id: its index among the devices of the same name, in id order.
std::map<std::int64_t, std::size_t> deviceSlots(std::span<const KernelSummary> rows)
{
    std::map<std::int64_t, const std::string*> names; // ordered by id
    for (const auto& row : rows)
        names.try_emplace(row.deviceId, &comparedDeviceName(row));
    std::map<std::string, std::size_t> seen;
    std::map<std::int64_t, std::size_t> slots;
    for (const auto& [id, name] : names)
        slots[id] = seen[*name]++;
    return slots;
}

// Summary indices by key, each list in mangled-name order.
std::map<KernelKey, std::vector<std::size_t>> byKey(std::span<const KernelSummary> rows)
{
    const auto slots = deviceSlots(rows);
    std::map<KernelKey, std::vector<std::size_t>> keyed;
    for (std::size_t i = 0; i < rows.size(); ++i)
        keyed[KernelKey { rows[i].name, comparedDeviceName(rows[i]), slots.at(rows[i].deviceId) }].push_back(i);
    for (auto& [key, indices] : keyed) {
        std::stable_sort(indices.begin(), indices.end(),
            [&](std::size_t a, std::size_t b) { return rows[a].mangledName < rows[b].mangledName; });
    }
    return keyed;
}

// Pairs current with baseline summaries of one key: equal mangled names first, then in order.
void pairWithin(const std::vector<std::size_t>& current, std::vector<std::size_t> baseline,
    std::span<const KernelSummary> currentRows, std::span<const KernelSummary> baselineRows,
    std::vector<std::optional<std::size_t>>& pairs)
{
    std::vector<std::size_t> unpaired;
    for (std::size_t c : current) {
        auto same = std::find_if(baseline.begin(), baseline.end(),
            [&](std::size_t b) { return baselineRows[b].mangledName == currentRows[c].mangledName; });
        if (same == baseline.end()) {
            unpaired.push_back(c);
            continue;
        }
        pairs[c] = *same;
        baseline.erase(same);
    }
    for (std::size_t i = 0; i < unpaired.size() && i < baseline.size(); ++i)
        pairs[unpaired[i]] = baseline[i];
}

KernelDelta deltaOf(std::size_t index, const KernelSummary& now, const KernelSummary* before)
{
    KernelDelta d;
    d.current = index;
    d.verdictAfter = now.analysis.verdict;
    d.boundByAfter = now.analysis.boundBy;
    d.deltaNs = now.totalNs;
    if (!before)
        return d;
    d.baselineTotalNs = before->totalNs;
    d.baselineLaunches = before->launches;
    d.baselineAverageNs = before->averageNs();
    d.deltaNs = saturatingSub(now.totalNs, before->totalNs); // totals saturate at the int64 range
    if (before->totalNs > 0)
        d.deltaPct = static_cast<double>(d.deltaNs) / static_cast<double>(before->totalNs) * 100.0;
    d.verdictBefore = before->analysis.verdict;
    d.boundByBefore = before->analysis.boundBy;
    if (before->analysis.boundUtilization && now.analysis.boundUtilization) {
        d.roofBefore = before->analysis.boundUtilization;
        d.roofAfter = now.analysis.boundUtilization;
    }
    return d;
}

} // namespace

std::optional<double> ComparisonTotals::deltaPct() const
{
    if (kernelNsBefore <= 0)
        return std::nullopt;
    return static_cast<double>(deltaNs()) / static_cast<double>(kernelNsBefore) * 100.0;
}

const std::string& comparedDeviceName(const KernelSummary& row)
{
    return row.deviceName.empty() ? row.analysis.deviceName : row.deviceName;
}

std::string formatDeltaDuration(std::int64_t ns)
{
    const std::string text = formatDuration(static_cast<double>(ns));
    return ns >= 0 ? "+" + text : text;
}

std::string formatDeltaPct(const std::optional<double>& pct)
{
    return pct ? fmt::format("{:+.1f} %", *pct) : std::string("-");
}

KernelComparison compareKernels(std::span<const KernelSummary> current, std::span<const KernelSummary> baseline)
{
    std::vector<std::optional<std::size_t>> pairs(current.size());
    const auto baselineByKey = byKey(baseline);
    for (const auto& [key, indices] : byKey(current)) {
        if (auto found = baselineByKey.find(key); found != baselineByKey.end())
            pairWithin(indices, found->second, current, baseline, pairs);
    }

    KernelComparison result;
    std::vector<bool> paired(baseline.size(), false);
    result.kernels.reserve(current.size());
    for (std::size_t i = 0; i < current.size(); ++i) {
        const KernelSummary* before = pairs[i] ? &baseline[*pairs[i]] : nullptr;
        result.kernels.push_back(deltaOf(i, current[i], before));
        result.kernels.back().baseline = pairs[i];
        if (pairs[i])
            paired[*pairs[i]] = true;
        result.totals.kernelNsAfter = saturatingAdd(result.totals.kernelNsAfter, current[i].totalNs);
        result.totals.launchesAfter += current[i].launches;
        ++(before ? result.totals.matched : result.totals.added);
    }
    for (std::size_t i = 0; i < baseline.size(); ++i) {
        result.totals.kernelNsBefore = saturatingAdd(result.totals.kernelNsBefore, baseline[i].totalNs);
        result.totals.launchesBefore += baseline[i].launches;
        if (!paired[i])
            result.gone.push_back(i);
    }
    std::sort(result.gone.begin(), result.gone.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = baseline[a];
        const auto& y = baseline[b];
        return std::tie(y.totalNs, x.name, x.deviceId) < std::tie(x.totalNs, y.name, y.deviceId);
    });
    result.totals.gone = result.gone.size();
    return result;
}

} // namespace ridgeline::core
