// SPDX-License-Identifier: MIT
#include "ncucsvinternal.h"

#include <algorithm>

namespace ridgeline::collectors::ncu {

std::uint32_t MetricTable::intern(std::string_view name, std::string_view unit)
{
    if (auto it = m_ids.find(name); it != m_ids.end()) {
        if (m_units[it->second].empty() && !unit.empty())
            m_units[it->second] = unit;
        return it->second;
    }
    const auto id = static_cast<std::uint32_t>(m_names.size());
    m_names.emplace_back(name);
    m_units.emplace_back(unit);
    m_ids.emplace(m_names.back(), id);
    return id;
}

std::optional<std::uint32_t> MetricTable::find(std::string_view name) const
{
    if (auto it = m_ids.find(name); it != m_ids.end())
        return it->second;
    return std::nullopt;
}

void KernelMetrics::normalise() const
{
    if (m_sorted)
        return;
    // Stable: of an id set twice, the later value comes last and stays (unique from the back keeps the last).
    std::stable_sort(m_values.begin(), m_values.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto kept = std::unique(
        m_values.rbegin(), m_values.rend(), [](const auto& a, const auto& b) { return a.first == b.first; });
    m_values.erase(m_values.begin(), kept.base());
    m_sorted = true;
}

const std::vector<std::pair<std::uint32_t, double>>& KernelMetrics::values() const
{
    normalise();
    return m_values;
}

std::optional<double> KernelMetrics::find(std::uint32_t id) const
{
    normalise();
    auto it = std::lower_bound(
        m_values.begin(), m_values.end(), id, [](const auto& entry, std::uint32_t key) { return entry.first < key; });
    if (it == m_values.end() || it->first != id)
        return std::nullopt;
    return it->second;
}

} // namespace ridgeline::collectors::ncu
