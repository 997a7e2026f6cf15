// SPDX-License-Identifier: MIT
#include "launchfilter.h"

#include <algorithm>

namespace ridgeline::inject {

void NvtxRangeTracker::push(std::int64_t threadId, std::string name)
{
    m_stacks[threadId].push_back(std::move(name));
}

void NvtxRangeTracker::pop(std::int64_t threadId)
{
    auto it = m_stacks.find(threadId);
    if (it == m_stacks.end() || it->second.empty())
        return; // an unmatched pop (the program's bug) changes nothing
    it->second.pop_back();
    if (it->second.empty())
        m_stacks.erase(it);
}

void NvtxRangeTracker::start(std::uint64_t rangeId, std::string name)
{
    m_started[rangeId] = std::move(name);
}

void NvtxRangeTracker::end(std::uint64_t rangeId)
{
    m_started.erase(rangeId);
}

bool NvtxRangeTracker::inside(std::int64_t threadId, const std::string& name) const
{
    if (auto it = m_stacks.find(threadId); it != m_stacks.end()) {
        if (std::find(it->second.begin(), it->second.end(), name) != it->second.end())
            return true;
    }
    return std::any_of(m_started.begin(), m_started.end(), [&](const auto& entry) { return entry.second == name; });
}

core::Result<LaunchFilter> LaunchFilter::create(const LaunchFilterOptions& options)
{
    LaunchFilter filter(options);
    if (!options.kernelRegex.empty()) {
        try {
            filter.m_regex.emplace(options.kernelRegex, std::regex::ECMAScript | std::regex::optimize);
        } catch (const std::regex_error& error) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                "the kernel regex \"" + options.kernelRegex + "\" is not valid (" + error.what()
                    + "); no kernel gets counters.");
        }
    }
    return filter;
}

LaunchFilter::LaunchFilter(LaunchFilterOptions options)
    : m_options(std::move(options))
{ }

bool LaunchFilter::exhausted() const
{
    return m_options.count && m_profiled >= *m_options.count;
}

bool LaunchFilter::select(const std::string& mangled, const std::string& demangled, bool insideRange)
{
    if (exhausted())
        return false;
    if (!m_options.nvtxRange.empty() && !insideRange)
        return false;
    if (m_regex && !std::regex_search(mangled, *m_regex) && !std::regex_search(demangled, *m_regex))
        return false;
    if (m_matched++ < m_options.skip)
        return false;
    ++m_profiled;
    return true;
}

} // namespace ridgeline::inject
