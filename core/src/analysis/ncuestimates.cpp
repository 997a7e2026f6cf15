// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/ncuestimates.h"

#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <fmt/format.h>
#include <tuple>
#include <unordered_map>

namespace ridgeline::core {

namespace {

// One rule message over the launches of one kernel: which launch spoke, and how long it ran.
struct NcuEstimateSum {
    NcuEstimate estimate;
    std::int64_t longestNs = -1; // of the launch whose message is kept
    std::int64_t longestSpeedupNs = -1; // of the launch whose speedup type is kept
    double weighted = 0; // Σ speedup × duration
    double weight = 0; // Σ duration of the launches with a speedup
    double plain = 0; // Σ speedup
    std::int64_t withSpeedup = 0;
};

NcuEstimate ncuEstimateOf(const NcuRule& r)
{
    NcuEstimate e;
    e.rule = r.identifier;
    e.name = r.name.empty() ? r.identifier : r.name;
    e.section = r.section;
    e.type = r.type;
    e.message = r.message;
    e.speedupPct = r.speedupPct;
    e.speedupType = r.speedupType;
    e.launches = 1;
    return e;
}

void ncuSortEstimates(std::vector<NcuEstimate>& estimates)
{
    std::stable_sort(estimates.begin(), estimates.end(), [](const NcuEstimate& a, const NcuEstimate& b) {
        const double sa = a.speedupPct.value_or(-1), sb = b.speedupPct.value_or(-1);
        return std::tie(sb, a.rule) < std::tie(sa, b.rule);
    });
}

// Rules grouped per kernel (name and device), then per (rule, n-th message of it in one launch).
Result<std::map<NcuKernelKey, std::vector<NcuEstimate>>> ncuAggregate(
    SessionReader& reader, std::optional<NcuKernelKey> only)
{
    auto rules = reader.ncuRules();
    if (rules.hasError())
        return rules.error();
    std::map<NcuKernelKey, std::vector<NcuEstimate>> out;
    if (rules.value().empty())
        return out;
    std::vector<std::int64_t> ids;
    for (const auto& r : rules.value()) {
        if (ids.empty() || ids.back() != r.kernelId)
            ids.push_back(r.kernelId); // ncuRules() is ordered by kernel id
    }
    auto kernels = reader.kernelsById(ids);
    if (kernels.hasError())
        return kernels.error();
    std::unordered_map<std::int64_t, const Kernel*> byId;
    for (const auto& k : kernels.value())
        byId.emplace(k.id, &k);

    std::map<NcuKernelKey, std::map<std::pair<std::string, int>, NcuEstimateSum>> sums;
    std::int64_t launch = -1;
    std::map<std::string, int> ordinal; // messages of each rule so far in this launch
    for (const auto& r : rules.value()) {
        const auto kernel = byId.find(r.kernelId);
        if (kernel == byId.end())
            continue;
        const Kernel& k = *kernel->second;
        const NcuKernelKey key { k.nameId, k.deviceId };
        if (only && key != *only)
            continue;
        if (r.kernelId != launch) {
            launch = r.kernelId;
            ordinal.clear();
        }
        auto& sum = sums[key][{ r.identifier, ordinal[r.identifier]++ }];
        const std::int64_t ns = std::max<std::int64_t>(k.durationNs(), 0);
        if (ns > sum.longestNs) { // the texts of the longest launch
            NcuEstimate texts = ncuEstimateOf(r);
            texts.launches = sum.estimate.launches;
            texts.speedupPct.reset();
            texts.speedupType = std::move(sum.estimate.speedupType);
            sum.estimate = std::move(texts);
            sum.longestNs = ns;
        }
        ++sum.estimate.launches;
        if (r.speedupPct) {
            sum.weighted += *r.speedupPct * static_cast<double>(ns);
            sum.weight += static_cast<double>(ns);
            sum.plain += *r.speedupPct;
            ++sum.withSpeedup;
            if (ns > sum.longestSpeedupNs) {
                sum.longestSpeedupNs = ns;
                sum.estimate.speedupType = r.speedupType;
            }
        }
    }
    for (auto& [key, byRule] : sums) {
        auto& estimates = out[key];
        for (auto& [rule, sum] : byRule) {
            if (sum.withSpeedup > 0)
                sum.estimate.speedupPct
                    = sum.weight > 0 ? sum.weighted / sum.weight : sum.plain / static_cast<double>(sum.withSpeedup);
            estimates.push_back(std::move(sum.estimate));
        }
        ncuSortEstimates(estimates);
    }
    return out;
}

} // namespace

Result<std::map<NcuKernelKey, std::vector<NcuEstimate>>> ncuEstimatesByKernel(SessionReader& reader)
{
    return ncuAggregate(reader, std::nullopt);
}

Result<std::vector<NcuEstimate>> ncuEstimatesOfKernel(SessionReader& reader, std::int64_t nameId, std::int64_t deviceId)
{
    auto all = ncuAggregate(reader, NcuKernelKey { nameId, deviceId });
    if (all.hasError())
        return all.error();
    auto it = all.value().find({ nameId, deviceId });
    return it == all.value().end() ? std::vector<NcuEstimate>() : std::move(it->second);
}

Result<std::vector<NcuEstimate>> ncuEstimatesOfLaunch(SessionReader& reader, std::int64_t kernelId)
{
    auto rules = reader.ncuRules(kernelId);
    if (rules.hasError())
        return rules.error();
    std::vector<NcuEstimate> out;
    out.reserve(rules.value().size());
    for (const auto& r : rules.value())
        out.push_back(ncuEstimateOf(r));
    return out;
}

std::string ncuSpeedupText(const NcuEstimate& e)
{
    if (!e.speedupPct)
        return {};
    const double pct = *e.speedupPct;
    const std::string number = fmt::format("{:.1f}", pct);
    return e.speedupType.empty() ? fmt::format("{} %", number) : fmt::format("{} % ({})", number, e.speedupType);
}

} // namespace ridgeline::core
