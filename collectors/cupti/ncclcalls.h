// SPDX-License-Identifier: MIT
// The NCCL calls of a capture, from their NVTX payloads (ncclpayload.h) to the comm_ops rows of the
// kernels they launched. Pure (no CUPTI call) so that it is tested with payloads built by hand:
//  - NcclThreadCalls: one application thread's open NCCL ranges and the calls not yet launched.
//    The collector keeps one per thread (thread_local): no lock, no allocation.
//  - NcclCallRegistry: shared and thread-safe: NCCL's domain handle, communicator sizes, and the
//    call attached to each launch's correlation id until its kernel record takes it.
// docs/CAPTURE.md "NCCL collectives" says what is attached when.
#pragma once

#include "ncclpayload.h"
#include "ridgeline/core/model/model.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>

namespace ridgeline::inject {

class NcclThreadCalls {
public:
    static constexpr std::size_t kMaxPending = 8;

    // An NCCL-domain range was pushed on this thread with `payload` (possibly none) / popped.
    void pushed(const NcclPayload& payload);
    void popped();
    // Inside an NCCL API call (an NCCL range is open) with calls waiting for their kernel.
    bool launching() const { return m_depth > 0 && (m_count > 0 || m_overflow); }
    // The calls since the last launch, as the one call their kernel carries; clears them. Several
    // calls (a group) of one collective on one communicator add their messages; otherwise only the
    // communicator they share is kept, or nothing.
    std::optional<NcclCall> take();
    int depth() const { return m_depth; }

private:
    std::array<NcclCall, kMaxPending> m_pending {};
    std::size_t m_count = 0;
    bool m_overflow = false;
    int m_depth = 0;
};

class NcclCallRegistry {
public:
    static constexpr std::size_t kMaxAttached = 1 << 16;

    // nvtxDomainCreateA(name) returned `handle`: remembered when the name is "NCCL".
    void domainCreated(const void* handle, std::string_view name);
    bool isNcclDomain(const void* handle) const;
    // No "NCCL" domain was seen created (NCCL made it before the collector subscribed): the first
    // domain whose range carries a payload this decoder knows is taken for NCCL's.
    bool domainKnown() const { return m_domain.load(std::memory_order_acquire) != nullptr; }
    void adoptDomain(const void* handle);

    void noteComm(const NcclCommInfo& comm);
    // The kernel launched with `correlationId` ran `call`. The oldest are forgotten past kMaxAttached.
    void attach(std::uint32_t correlationId, const NcclCall& call);
    // What the kernel record of `correlationId` gets; the call is forgotten.
    std::optional<NcclCall> take(std::uint32_t correlationId);
    // Ranks of the call's communicator: its own (NCCL >= 2.25) or, for payloads without one, the
    // only size any communicator of the process had; 0 when not known.
    int ranksOf(const NcclCall& call) const;
    std::size_t attached() const;

private:
    std::atomic<const void*> m_domain { nullptr };
    mutable std::mutex m_mutex;
    std::map<std::uint64_t, int> m_commRanks;
    std::set<int> m_unkeyedRanks;
    std::map<std::uint32_t, NcclCall> m_byCorrelation;
};

// Fills what the call tells into `op` (a kernel's comm_ops row from its name): bytes as nccl-tests
// counts S (the whole output of AllGather/Gather, the whole input of ReduceScatter/Scatter/AlltoAll:
// the per-rank message x ranks, 0 when the ranks are unknown), groupSize, root (rooted collectives
// only: a Send/Recv peer is not a root and comm_ops has no column for it), processGroup (the
// communicator id in hex) and the collective when the kernel's name did not tell it
// (ncclDevKernel_Generic).
void applyNcclCall(const NcclCall& call, int ranks, core::CommOp& op);

} // namespace ridgeline::inject
