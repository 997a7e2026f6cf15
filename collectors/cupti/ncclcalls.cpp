// SPDX-License-Identifier: MIT
#include "ncclcalls.h"

#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace ridgeline::inject {

void NcclThreadCalls::pushed(const NcclPayload& payload)
{
    if (m_depth < std::numeric_limits<int>::max())
        ++m_depth;
    if (payload.kind != NcclPayload::Kind::Call)
        return;
    if (m_count == m_pending.size()) {
        m_overflow = true;
        return;
    }
    m_pending[m_count++] = payload.call;
}

void NcclThreadCalls::popped()
{
    if (m_depth > 0)
        --m_depth;
}

std::optional<NcclCall> NcclThreadCalls::take()
{
    const std::size_t count = m_count;
    const bool overflow = m_overflow;
    m_count = 0;
    m_overflow = false;
    if (count == 0)
        return std::nullopt;
    NcclCall merged = m_pending[0];
    bool sameCollective = !overflow;
    bool sameComm = true;
    for (std::size_t i = 1; i < count; ++i) {
        const NcclCall& c = m_pending[i];
        sameComm = sameComm && c.hasComm == merged.hasComm && c.comm == merged.comm;
        sameCollective = sameCollective && std::strcmp(c.collective, merged.collective) == 0;
        if (c.root != merged.root)
            merged.root = -1;
        if (c.peer != merged.peer)
            merged.peer = -1;
        if (c.reductionOp != merged.reductionOp)
            merged.reductionOp = -1;
        merged.messageBytes = c.messageBytes > std::numeric_limits<std::uint64_t>::max() - merged.messageBytes
            ? 0
            : merged.messageBytes + c.messageBytes;
    }
    if (!sameComm)
        return std::nullopt;
    if (!sameCollective) {
        // Only the communicator is certain (e.g. a Send and a Recv run by one SendRecv kernel).
        NcclCall commOnly;
        commOnly.hasComm = merged.hasComm;
        commOnly.comm = merged.comm;
        return commOnly;
    }
    return merged;
}

void NcclCallRegistry::domainCreated(const void* handle, std::string_view name)
{
    if (handle && name == "NCCL")
        m_domain.store(handle, std::memory_order_release);
}

bool NcclCallRegistry::isNcclDomain(const void* handle) const
{
    return handle && m_domain.load(std::memory_order_acquire) == handle;
}

void NcclCallRegistry::adoptDomain(const void* handle)
{
    const void* none = nullptr;
    if (handle)
        m_domain.compare_exchange_strong(none, handle, std::memory_order_acq_rel);
}

void NcclCallRegistry::noteComm(const NcclCommInfo& comm)
{
    if (comm.ranks <= 0)
        return;
    std::lock_guard lock(m_mutex);
    if (comm.hasComm)
        m_commRanks[comm.comm] = comm.ranks;
    else
        m_unkeyedRanks.insert(comm.ranks);
}

void NcclCallRegistry::attach(std::uint32_t correlationId, const NcclCall& call)
{
    std::lock_guard lock(m_mutex);
    m_byCorrelation[correlationId] = call;
    if (m_byCorrelation.size() > kMaxAttached)
        m_byCorrelation.erase(m_byCorrelation.begin());
}

std::optional<NcclCall> NcclCallRegistry::take(std::uint32_t correlationId)
{
    std::lock_guard lock(m_mutex);
    auto it = m_byCorrelation.find(correlationId);
    if (it == m_byCorrelation.end())
        return std::nullopt;
    NcclCall call = it->second;
    m_byCorrelation.erase(it);
    return call;
}

int NcclCallRegistry::ranksOf(const NcclCall& call) const
{
    std::lock_guard lock(m_mutex);
    if (call.hasComm) {
        auto it = m_commRanks.find(call.comm);
        return it != m_commRanks.end() ? it->second : 0;
    }
    return m_unkeyedRanks.size() == 1 ? *m_unkeyedRanks.begin() : 0;
}

std::size_t NcclCallRegistry::attached() const
{
    std::lock_guard lock(m_mutex);
    return m_byCorrelation.size();
}

void applyNcclCall(const NcclCall& call, int ranks, core::CommOp& op)
{
    if (op.collective.empty() && call.collective && *call.collective != '\0')
        op.collective = call.collective;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (ranks > 0)
        op.groupSize = ranks;
    std::uint64_t bytes = call.messageBytes;
    if (call.perRankMessage)
        bytes = ranks > 0 && bytes <= kMax / static_cast<std::uint64_t>(ranks)
            ? bytes * static_cast<std::uint64_t>(ranks)
            : 0;
    op.bytes = bytes <= kMax ? static_cast<std::int64_t>(bytes) : 0;
    if (call.root >= 0)
        op.root = call.root;
    if (call.hasComm)
        op.processGroup = fmt::format("{:#x}", call.comm);
}

} // namespace ridgeline::inject
