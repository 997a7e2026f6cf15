// SPDX-License-Identifier: MIT
#include "ridgeline/core/store/kerneltotals.h"

#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <functional>

namespace ridgeline::core {

std::size_t KernelTotalsBuilder::KeyHash::operator()(const Key& k) const
{
    // Unsigned: a hostile session's ids can be anything (signed overflow is undefined).
    return std::hash<std::uint64_t>()(
        static_cast<std::uint64_t>(k.nameId) * 1000003u ^ static_cast<std::uint64_t>(k.deviceId));
}

KernelTotals& KernelTotalsBuilder::rowOf(std::int64_t nameId, std::int64_t deviceId, std::int64_t duration)
{
    auto [it, inserted] = m_byKey.try_emplace(Key { nameId, deviceId }, m_rows.size());
    if (inserted)
        m_rows.push_back(KernelTotals { nameId, deviceId, 0, 0, 0, duration, duration });
    return m_rows[it->second];
}

void KernelTotalsBuilder::add(
    std::int64_t nameId, std::int64_t deviceId, std::int64_t startNs, std::int64_t endNs, bool graphLevel)
{
    const std::int64_t duration = std::max<std::int64_t>(saturatingSub(endNs, startNs), 0);
    KernelTotals& row = rowOf(nameId, deviceId, duration);
    row.launches += 1;
    row.graphLevelLaunches += graphLevel ? 1 : 0;
    row.totalNs = saturatingAdd(row.totalNs, duration);
    row.minNs = std::min(row.minNs, duration);
    row.maxNs = std::max(row.maxNs, duration);
    m_allKernelNs = saturatingAdd(m_allKernelNs, duration);
}

void KernelTotalsBuilder::merge(const KernelTotals& theirs)
{
    KernelTotals& row = rowOf(theirs.nameId, theirs.deviceId, theirs.minNs);
    row.launches = saturatingAdd(row.launches, theirs.launches);
    row.graphLevelLaunches = saturatingAdd(row.graphLevelLaunches, theirs.graphLevelLaunches);
    row.totalNs = saturatingAdd(row.totalNs, theirs.totalNs);
    row.minNs = std::min(row.minNs, theirs.minNs);
    row.maxNs = std::max(row.maxNs, theirs.maxNs);
    m_allKernelNs = saturatingAdd(m_allKernelNs, theirs.totalNs);
}

void KernelTotalsBuilder::countGraphLevel(std::int64_t nameId, std::int64_t deviceId, std::int64_t change)
{
    if (auto it = m_byKey.find(Key { nameId, deviceId }); it != m_byKey.end())
        m_rows[it->second].graphLevelLaunches += change;
}

void KernelTotalsBuilder::clear()
{
    m_rows.clear();
    m_byKey.clear();
    m_allKernelNs = 0;
}

std::vector<KernelTotals> KernelTotalsBuilder::takeRows()
{
    auto rows = std::move(m_rows);
    clear();
    return rows;
}

bool plausibleKernelTotals(const KernelTotals& row)
{
    return row.launches >= 1 && row.graphLevelLaunches >= 0 && row.graphLevelLaunches <= row.launches && row.minNs >= 0
        && row.minNs <= row.maxNs && row.maxNs <= row.totalNs;
}

} // namespace ridgeline::core
