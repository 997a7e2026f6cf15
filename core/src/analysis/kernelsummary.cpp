// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/kernelsummary.h"

#include "base/enumnames.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionreader.h"
#include "sessionanalysis.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <thread>
#include <unordered_map>

namespace ridgeline::core {

namespace {

constexpr std::array<std::pair<KernelSort, const char*>, 5> kSortNames { {
    { KernelSort::TotalTime, "total" },
    { KernelSort::Launches, "launches" },
    { KernelSort::AverageTime, "avg" },
    { KernelSort::MaxTime, "max" },
    { KernelSort::Name, "name" },
} };

struct SummaryKey {
    std::int64_t nameId;
    std::int64_t deviceId;
    bool operator==(const SummaryKey&) const = default;
};

struct SummaryKeyHash {
    // Unsigned: a hostile session's ids can be anything (signed overflow is undefined).
    std::size_t operator()(const SummaryKey& k) const
    {
        return std::hash<std::uint64_t>()(
            static_cast<std::uint64_t>(k.nameId) * 1000003u ^ static_cast<std::uint64_t>(k.deviceId));
    }
};

void addTiming(KernelTotalsBuilder& totals, const SessionReader::KernelTiming& k)
{
    totals.add(k.nameId, k.deviceId, k.startNs, k.endNs, k.graphRangeKernels > 0);
}

// One narrow pass over the kernels table (two halves side by side when it is large).
Status scanKernelTotals(SessionReader& reader, KernelTotalsBuilder& times)
{
    const auto all = [&] { return reader.forEachKernelTiming([&](const auto& k) { addTiming(times, k); }); };
    auto range = reader.kernelIdRange();
    if (range.hasError())
        return range.error();
    if (!range.value())
        return all();
    auto second = reader.readerForSplitScan(*range.value());
    if (!second)
        return all();
    // Plain variables, not a structured binding: clang 14 (the sanitizer build) refuses to capture
    // one in the lambda below.
    const std::int64_t lowest = range.value()->first;
    const std::int64_t highest = range.value()->second;
    const std::int64_t middle = lowest / 2 + highest / 2; // no overflow, whatever the ids
    KernelTotalsBuilder upper;
    Status upperRead;
    Status lowerRead;
    {
        std::jthread worker([&] {
            upperRead = second->forEachKernelTiming(middle, highest, [&](const auto& k) { addTiming(upper, k); });
        });
        lowerRead = reader.forEachKernelTiming(lowest, middle - 1, [&](const auto& k) { addTiming(times, k); });
    }
    RIDGELINE_TRY(lowerRead);
    RIDGELINE_TRY(upperRead);
    for (const auto& row : upper.rows())
        times.merge(row);
    return {};
}

// The totals the writer stored, or else one pass over the kernels.
Status readKernelTotals(SessionReader& reader, KernelTotalsBuilder& times)
{
    auto stored = reader.storedKernelTotals();
    if (stored.hasError())
        return stored.error();
    if (!stored.value())
        return scanKernelTotals(reader, times);
    for (const auto& row : *stored.value())
        times.merge(row);
    return {};
}

} // namespace

std::optional<KernelSort> kernelSortFromString(std::string_view text)
{
    return detail::valueOf(kSortNames, text);
}

std::vector<std::string> kernelSortNames()
{
    std::vector<std::string> names;
    for (const auto& entry : kSortNames)
        names.emplace_back(entry.second);
    return names;
}

Result<std::vector<KernelSummary>> summarizeKernels(SessionReader& reader)
{
    KernelTotalsBuilder times;
    RIDGELINE_TRY(readKernelTotals(reader, times));
    const std::int64_t allKernelNs = times.allKernelNs();
    std::vector<KernelSummary> rows;
    rows.reserve(times.rows().size());
    for (const auto& t : times.rows()) {
        rows.emplace_back();
        auto& row = rows.back();
        row.nameId = t.nameId;
        row.deviceId = t.deviceId;
        row.launches = t.launches;
        row.graphLevelLaunches = t.graphLevelLaunches;
        row.totalNs = t.totalNs;
        row.minNs = t.minNs;
        row.maxNs = t.maxNs;
    }

    auto facts = detail::SessionFacts::load(reader);
    if (facts.hasError())
        return facts.error();
    auto analysed = reader.kernelsById(facts.value().analysedKernelIds());
    if (analysed.hasError())
        return analysed.error();
    std::unordered_map<SummaryKey, LaunchAccumulator, SummaryKeyHash> accumulators;
    for (const auto& kernel : analysed.value())
        accumulators[SummaryKey { kernel.nameId, kernel.deviceId }].add(analyzeKernel(facts.value().factsFor(kernel)));

    auto names = reader.kernelNames();
    if (names.hasError())
        return names.error();
    auto devices = reader.devices();
    if (devices.hasError())
        return devices.error();
    std::unordered_map<std::int64_t, const KernelName*> nameById;
    for (const auto& n : names.value())
        nameById[n.id] = &n;
    std::unordered_map<std::int64_t, std::string> deviceNameById;
    for (const auto& d : devices.value())
        deviceNameById[d.id] = d.name;

    for (auto& row : rows) {
        const SummaryKey key { row.nameId, row.deviceId };
        if (auto it = nameById.find(key.nameId); it != nameById.end()) {
            row.name = it->second->demangled.empty() ? it->second->raw : it->second->demangled;
            row.mangledName = it->second->raw;
        } else {
            row.name = "<unnamed kernel>";
        }
        row.shortName = shortKernelName(row.name);
        if (auto it = deviceNameById.find(key.deviceId); it != deviceNameById.end())
            row.deviceName = it->second;
        row.shareOfKernelTime
            = allKernelNs > 0 ? static_cast<double>(row.totalNs) / static_cast<double>(allKernelNs) : 0.0;
        auto acc = accumulators.find(key);
        row.analysis = acc != accumulators.end() ? acc->second.result() : LaunchAccumulator().result();
        noteGraphLevelCounters(row.analysis, row.graphLevelLaunches, row.launches);
    }
    sortKernelSummaries(rows, KernelSort::TotalTime);
    return rows;
}

void sortKernelSummaries(std::vector<KernelSummary>& rows, KernelSort sort)
{
    // Ties fall back to name and device so that output is stable across runs.
    auto tieBreak = [](const KernelSummary& a, const KernelSummary& b) {
        // The name id last: two ids may share a name, and the rows come in another order when they
        // are read from the stored totals than from a scan.
        return std::tie(a.name, a.deviceId, a.nameId) < std::tie(b.name, b.deviceId, b.nameId);
    };
    auto descending = [&](auto key) {
        std::sort(rows.begin(), rows.end(), [&](const KernelSummary& a, const KernelSummary& b) {
            const auto ka = key(a), kb = key(b);
            return ka != kb ? ka > kb : tieBreak(a, b);
        });
    };
    switch (sort) {
    case KernelSort::TotalTime:
        descending([](const KernelSummary& r) { return r.totalNs; });
        break;
    case KernelSort::Launches:
        descending([](const KernelSummary& r) { return r.launches; });
        break;
    case KernelSort::AverageTime:
        descending([](const KernelSummary& r) { return r.averageNs(); });
        break;
    case KernelSort::MaxTime:
        descending([](const KernelSummary& r) { return r.maxNs; });
        break;
    case KernelSort::Name: // by the name tables show, ignoring case as a person reading it does
        std::sort(rows.begin(), rows.end(), [&](const KernelSummary& a, const KernelSummary& b) {
            const auto& x = a.displayName();
            const auto& y = b.displayName();
            const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
            const auto [ix, iy] = std::mismatch(
                x.begin(), x.end(), y.begin(), y.end(), [&](char l, char r) { return lower(l) == lower(r); });
            if (ix != x.end() || iy != y.end()) {
                if (ix == x.end() || iy == y.end())
                    return ix == x.end();
                return lower(*ix) < lower(*iy);
            }
            return tieBreak(a, b);
        });
        break;
    }
}

} // namespace ridgeline::core
