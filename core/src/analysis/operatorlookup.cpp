// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/operatorlookup.h"

#include "ridgeline/core/analysis/operatorlinks.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ridgeline::core {

namespace {

std::uint32_t narrow(std::size_t index)
{
    return index == GpuOpLink::kNone ? OperatorLookup::kNone : static_cast<std::uint32_t>(index);
}

template <typename T> std::size_t capacityBytes(const std::vector<T>& v)
{
    return v.capacity() * sizeof(T);
}

} // namespace

OperatorLookup OperatorLookup::build(const OperatorLinks& links,
    const std::map<std::int64_t, std::string>& names, const std::vector<std::uint32_t>& moduleOf,
    std::vector<std::string> modules)
{
    OperatorLookup out;
    const auto& ops = links.operators;
    const std::size_t n = ops.size();
    out.m_ids.reserve(n);
    out.m_starts.reserve(n);
    out.m_ends.reserve(n);
    out.m_parents.reserve(n);
    out.m_nameOf.reserve(n);
    out.m_threadOf.reserve(n);
    out.m_chunkOf.reserve(n);
    out.m_cpuOp.reserve(n);
    std::unordered_map<std::int64_t, std::uint32_t> nameIndex;
    for (const auto& [id, text] : names) {
        if (nameIndex.try_emplace(id, static_cast<std::uint32_t>(out.m_names.size())).second)
            out.m_names.push_back(text);
    }
    const auto unnamed = static_cast<std::uint32_t>(out.m_names.size());
    out.m_names.emplace_back();
    std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> threadIndex;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& op = ops[i];
        out.m_ids.push_back(op.id);
        out.m_starts.push_back(op.startNs);
        out.m_ends.push_back(op.endNs);
        out.m_parents.push_back(narrow(links.parent[i]));
        auto name = nameIndex.find(op.nameId);
        out.m_nameOf.push_back(name == nameIndex.end() ? unnamed : name->second);
        auto [thread, added] = threadIndex.try_emplace(
            { op.processId, op.threadId }, static_cast<std::uint32_t>(out.m_threads.size()));
        if (added)
            out.m_threads.emplace_back(op.processId, op.threadId);
        out.m_threadOf.push_back(thread->second);
        // Operators come in chunks of consecutive ids: a chunk repeats until the next begins.
        if (out.m_chunks.empty() || out.m_chunks.back() != op.chunk)
            out.m_chunks.push_back(op.chunk);
        out.m_chunkOf.push_back(static_cast<std::uint32_t>(out.m_chunks.size() - 1));
        out.m_cpuOp.push_back(links.isCpuOp(i));
    }
    if (moduleOf.size() == n) {
        out.m_moduleOf = moduleOf;
        out.m_modules = std::move(modules);
    }
    for (const auto& g : links.gpuOps) {
        if ((g.kind == LinkedOpKind::Kernel || g.kind == LinkedOpKind::Collective) && g.innermost != GpuOpLink::kNone)
            out.m_kernels.push_back({ g.sourceId, narrow(g.innermost), narrow(g.outermost) });
    }
    std::sort(out.m_kernels.begin(), out.m_kernels.end(),
        [](const KernelEntry& a, const KernelEntry& b) { return a.kernelId < b.kernelId; });
    out.m_chunks.shrink_to_fit();
    out.m_threads.shrink_to_fit();
    out.m_names.shrink_to_fit();
    return out;
}

std::string_view OperatorLookup::module(std::uint32_t op) const
{
    if (op >= m_moduleOf.size() || m_moduleOf[op] >= m_modules.size())
        return {};
    return m_modules[m_moduleOf[op]];
}

std::uint32_t OperatorLookup::find(std::int64_t operatorId) const
{
    // Ids ascend (OperatorLinks::operators is in id order).
    auto it = std::lower_bound(m_ids.begin(), m_ids.end(), operatorId);
    return it == m_ids.end() || *it != operatorId ? kNone : static_cast<std::uint32_t>(it - m_ids.begin());
}

std::vector<std::uint32_t> OperatorLookup::stack(std::uint32_t op) const
{
    std::vector<std::uint32_t> out;
    // linkOperators cuts parent loops; the bound keeps a walk finite whatever the links hold.
    for (std::uint32_t at = op; at != kNone && at < size() && out.size() <= size(); at = m_parents[at])
        out.push_back(at);
    return out;
}

OperatorLookup::Launch OperatorLookup::ofKernel(std::int64_t kernelId) const
{
    auto it = std::lower_bound(m_kernels.begin(), m_kernels.end(), kernelId,
        [](const KernelEntry& e, std::int64_t id) { return e.kernelId < id; });
    if (it == m_kernels.end() || it->kernelId != kernelId)
        return {};
    return { it->innermost, it->outermost };
}

std::size_t OperatorLookup::memoryBytes() const
{
    std::size_t bytes = sizeof(OperatorLookup) + capacityBytes(m_ids) + capacityBytes(m_starts) + capacityBytes(m_ends)
        + capacityBytes(m_parents) + capacityBytes(m_nameOf) + capacityBytes(m_moduleOf) + capacityBytes(m_threadOf)
        + capacityBytes(m_chunkOf) + m_cpuOp.capacity() / 8 + capacityBytes(m_threads) + capacityBytes(m_chunks)
        + capacityBytes(m_kernels) + capacityBytes(m_names) + capacityBytes(m_modules);
    for (const auto& s : m_names)
        bytes += s.capacity() > 15 ? s.capacity() + 1 : 0;
    for (const auto& s : m_modules)
        bytes += s.capacity() > 15 ? s.capacity() + 1 : 0;
    return bytes;
}

} // namespace ridgeline::core
