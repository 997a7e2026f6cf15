// SPDX-License-Identifier: MIT
// Pairs NCCL's API calls (their NVTX ranges) with the NCCL kernels they launched. A call's range
// on thread T encloses the CUDA launch (a CUPTI_ACTIVITY_KIND_RUNTIME or _DRIVER row of T whose
// correlationId is the kernel's). Calls between ncclGroupStart and ncclGroupEnd launch nothing
// themselves: their kernels are launched inside the outermost ncclGroupEnd, and they are paired
// in order only when the group launched exactly as many NCCL kernels as it holds calls and each
// kernel's symbol agrees with its call. Anything else stays without sizes, and a warning says how
// many (NCCL may fuse a group's operations into fewer kernels).
#include "nsysinternal.h"
#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/model/ncclkernel.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::collectors::nsys {

namespace {

constexpr std::int64_t kMaxRanks = std::int64_t { 1 } << 20;
constexpr std::int64_t kMaxMessageBytes = std::int64_t { 1 } << 40; // 1 TiB: larger is not believed

constexpr std::string_view kComm = "NCCL communicator ID";
constexpr std::string_view kMessage = "Message size [bytes]";
constexpr std::string_view kRoot = "Root";
constexpr std::string_view kRanks = "No. of ranks";

std::optional<std::int64_t> valueOf(const PayloadValues& values, std::string_view name)
{
    const auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
}

core::CollectiveType typeOfCall(std::string_view name)
{
    if (name.rfind("nccl", 0) != 0)
        return core::CollectiveType::Unknown;
    return core::collectiveTypeFromName(name.substr(4));
}

// Does the kernel's symbol allow it to carry a call of `type`? The generic kernel (NCCL >= 2.19)
// carries anything; a SendRecv kernel carries sends and receives.
bool agrees(core::CollectiveType type, core::CollectiveType kernel)
{
    return kernel == core::CollectiveType::Unknown || kernel == type
        || (kernel == core::CollectiveType::SendRecv
            && (type == core::CollectiveType::Send || type == core::CollectiveType::Recv));
}

struct Launch {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::size_t kernel = 0;
    core::CollectiveType type = core::CollectiveType::Unknown; // from the kernel's symbol
    bool claimed = false;
};

// The unclaimed launches inside [start, end] (launches sorted by start).
std::vector<Launch*> launchesIn(std::vector<Launch>& launches, std::int64_t start, std::int64_t end)
{
    std::vector<Launch*> inside;
    auto it = std::lower_bound(
        launches.begin(), launches.end(), start, [](const Launch& l, std::int64_t t) { return l.startNs < t; });
    for (; it != launches.end() && it->startNs <= end; ++it) {
        if (!it->claimed && it->endNs <= end)
            inside.push_back(&*it);
    }
    return inside;
}

class Matcher {
public:
    explicit Matcher(Activity& activity)
        : m_activity(activity)
    {
        readCommunicators();
    }

    void thread(const std::vector<const NcclCall*>& calls, std::vector<Launch>& launches)
    {
        int depth = 0;
        std::vector<const NcclCall*> pending; // calls of the open group, in order
        for (const NcclCall* call : calls) {
            if (call->name == "ncclGroupStart") {
                ++depth;
                continue;
            }
            if (call->name == "ncclGroupEnd") {
                depth = std::max(depth - 1, 0);
                if (depth == 0 && !pending.empty()) {
                    pairGroup(pending, launchesIn(launches, call->startNs, call->endNs));
                    pending.clear();
                }
                continue;
            }
            const auto type = typeOfCall(call->name);
            if (type == core::CollectiveType::Unknown || type == core::CollectiveType::Barrier)
                continue; // communicator management, not an operation
            auto inside = launchesIn(launches, call->startNs, call->endNs);
            if (inside.size() == 1 && agrees(type, inside.front()->type))
                claim(*call, type, *inside.front());
            else if (inside.empty() && depth > 0)
                pending.push_back(call);
            else
                ++m_unmatched;
        }
        m_unmatched += static_cast<std::int64_t>(pending.size());
    }

    std::int64_t unmatched() const { return m_unmatched; }
    std::int64_t conflictingCommunicators() const { return static_cast<std::int64_t>(m_conflicting.size()); }

private:
    // Ranks per communicator from the payloads that carry both (ncclCommInitRank and its kin).
    void readCommunicators()
    {
        for (const auto& call : m_activity.ncclCalls) {
            const auto comm = valueOf(call.values, kComm);
            const auto ranks = valueOf(call.values, kRanks);
            if (!comm || !ranks || *ranks < 1 || *ranks > kMaxRanks)
                continue;
            auto [it, added] = m_ranks.try_emplace(*comm, static_cast<int>(*ranks));
            if (!added && it->second != *ranks)
                m_conflicting.insert(*comm);
        }
        for (auto comm : m_conflicting)
            m_ranks.erase(comm);
    }

    void pairGroup(const std::vector<const NcclCall*>& calls, const std::vector<Launch*>& launches)
    {
        bool fits = calls.size() == launches.size();
        for (std::size_t i = 0; fits && i < calls.size(); ++i)
            fits = agrees(typeOfCall(calls[i]->name), launches[i]->type);
        if (!fits) {
            m_unmatched += static_cast<std::int64_t>(calls.size());
            return;
        }
        for (std::size_t i = 0; i < calls.size(); ++i)
            claim(*calls[i], typeOfCall(calls[i]->name), *launches[i]);
    }

    void claim(const NcclCall& call, core::CollectiveType type, Launch& launch)
    {
        launch.claimed = true;
        NcclArgs args;
        args.collective = core::toString(type);
        const auto comm = valueOf(call.values, kComm);
        if (comm) {
            args.processGroup = fmt::format("{:#018x}", static_cast<std::uint64_t>(*comm));
            if (auto it = m_ranks.find(*comm); it != m_ranks.end())
                args.groupSize = it->second;
        }
        if (auto root = valueOf(call.values, kRoot); root && *root >= 0 && *root < kMaxRanks)
            args.root = static_cast<int>(*root);
        const auto message = valueOf(call.values, kMessage);
        if (message && *message > 0 && *message <= kMaxMessageBytes)
            args.bytes = busBytesOf(type, *message, args.groupSize);
        m_activity.ncclArgs[launch.kernel] = std::move(args);
    }

    // NCCL's "Message size [bytes]" is per rank (count x type size; sendcount for AllGather,
    // recvcount for ReduceScatter, the per-peer count for AlltoAll): S as the Kineto importer
    // stores it (core::collectiveBytes) is n times that for AllGather, Gather, ReduceScatter,
    // Scatter and AlltoAll. 0 when n is needed and unknown.
    static std::int64_t busBytesOf(core::CollectiveType type, std::int64_t message, int ranks)
    {
        switch (type) {
        case core::CollectiveType::ReduceScatter:
        case core::CollectiveType::Scatter:
            return core::collectiveBytes(type, -1, message, 1, ranks).value_or(0);
        case core::CollectiveType::AllToAll:
            return ranks > 0 ? message * ranks : 0;
        default:
            return core::collectiveBytes(type, message, -1, 1, ranks).value_or(0);
        }
    }

    Activity& m_activity;
    std::map<std::int64_t, int> m_ranks; // communicator id -> ranks
    std::set<std::int64_t> m_conflicting;
    std::int64_t m_unmatched = 0;
};

} // namespace

void matchNcclCalls(Activity& activity)
{
    if (activity.ncclCalls.empty())
        return;
    // NCCL kernels by (pid, correlationId); nameId is still the index into kernelNames here.
    std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::size_t, core::CollectiveType>> kernels;
    for (std::size_t i = 0; i < activity.kernels.size(); ++i) {
        const auto& k = activity.kernels[i];
        if (k.correlationId == 0 || k.nameId < 0 || static_cast<std::size_t>(k.nameId) >= activity.kernelNames.size())
            continue;
        const auto& [raw, demangled] = activity.kernelNames[static_cast<std::size_t>(k.nameId)];
        auto nccl = core::ncclKernelInfo(raw);
        if (!nccl)
            nccl = core::ncclKernelInfo(demangled);
        if (nccl)
            kernels[{ k.processId, k.correlationId }] = { i, core::collectiveTypeFromName(nccl->collective) };
    }
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Launch>> launches; // by (pid, tid)
    for (const auto& c : activity.apiCalls) {
        if (auto it = kernels.find({ c.processId, c.correlationId }); it != kernels.end())
            launches[{ c.processId, c.threadId }].push_back(
                { c.startNs, c.endNs, it->second.first, it->second.second });
    }
    for (auto& [thread, list] : launches) {
        std::stable_sort(
            list.begin(), list.end(), [](const Launch& a, const Launch& b) { return a.startNs < b.startNs; });
        // A kernel counts once, at its first API row (were a runtime and a driver row to share its id).
        std::set<std::size_t> seen;
        list.erase(
            std::remove_if(list.begin(), list.end(), [&](const Launch& l) { return !seen.insert(l.kernel).second; }),
            list.end());
    }
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const NcclCall*>> calls; // by start already
    for (const auto& call : activity.ncclCalls)
        calls[{ call.processId, call.threadId }].push_back(&call);

    Matcher matcher(activity);
    std::vector<Launch> none;
    for (const auto& [thread, list] : calls) {
        auto it = launches.find(thread);
        matcher.thread(list, it != launches.end() ? it->second : none);
    }
    // Without payloads there were no sizes to pair (the importer says so in one warning of its own).
    if (matcher.unmatched() > 0 && activity.ncclCallsWithPayload > 0)
        activity.warnings.push_back(fmt::format("{} NCCL operations could not be paired with the kernel that ran them "
                                                "(no launch inside their NVTX range, or a group whose kernels do not "
                                                "match its operations one to one): their kernels have no message sizes",
            matcher.unmatched()));
    if (matcher.conflictingCommunicators() > 0)
        activity.warnings.push_back(fmt::format("{} NCCL communicators report different numbers of ranks: their "
                                                "collectives have no group size",
            matcher.conflictingCommunicators()));
}

} // namespace ridgeline::collectors::nsys
