// SPDX-License-Identifier: MIT
// Collectives measured: message size S, algorithm and bus bandwidth exactly as nccl-tests defines
// them, the link a collective runs over and its ceiling, the verdict sentence, and the same
// instance matched across ranks (who arrives last, who waits). Sources:
// ../shared/reference/communication.md (nccl-tests doc/PERFORMANCE.md, TraceLens NcclAnalyser).
#pragma once

#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

struct KernelAnalysis;

enum class CollectiveType {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    Broadcast,
    Reduce,
    SendRecv,
    Send,
    Recv,
    Gather,
    Scatter,
    Barrier,
    Unknown
};

// "allreduce", "_allgather_base", "reduce_scatter_tensor", "all_to_allv", "AllReduce" (NCCL kernel
// names), "SendRecv", ... -> the type; Unknown for anything else (e.g. NCCL >= 2.19 "Generic").
CollectiveType collectiveTypeFromName(std::string_view name);
const char* toString(CollectiveType type);

// nccl-tests' bus bandwidth factor for `ranks` ranks: AllReduce 2(n-1)/n; AllGather, ReduceScatter,
// AlltoAll, Gather, Scatter (n-1)/n; Broadcast, Reduce, Send, Recv, SendRecv 1. nullopt when the
// type or the number of ranks is unknown.
std::optional<double> busBandwidthFactor(CollectiveType type, int ranks);

// S in bytes as nccl-tests counts it, from the element counts a trace records: the whole output
// of an AllGather (n x the per-rank input), the whole input of a ReduceScatter and AlltoAll, the
// message otherwise. A missing count is < 0. nullopt when the sizes do not tell.
std::optional<std::int64_t> collectiveBytes(
    CollectiveType type, std::int64_t inElements, std::int64_t outElements, int elementBytes, int ranks);

struct Bandwidth {
    double algBytesPerS = 0; // S / t
    double busBytesPerS = 0; // algbw x factor
};
std::optional<Bandwidth> collectiveBandwidth(CollectiveType type, double bytes, double seconds, int ranks);

// The link a collective runs over and its ceiling, one direction (communication.md §4).
struct CollectiveLink {
    std::string name; // "NVLink", "PCIe", "network", or empty when unknown
    double bytesPerS = 0; // 0 = no ceiling known
    bool inferred = false; // not read from the session
    std::string note; // how it was chosen: "2 ranks on one A100 host: NVLink assumed"
};

// One row of `ridgeline report --by collective` (output/collectivereport.h): one collective type,
// process group and message size (like nccl-tests' output), with its bandwidth against its link;
// the collective chart (collectivechart.h) draws these rows too.
struct CollectiveRow {
    std::string collective;
    std::string processGroup;
    int groupSize = 0;
    std::int64_t bytes = 0; // S; 0 = sizes missing
    std::int64_t calls = 0; // over every rank
    std::int64_t timeNs = 0; // summed over the calls
    std::optional<double> algBytesPerS;
    std::optional<double> busBytesPerS;
    CollectiveLink link;
    std::optional<double> pctOfLink; // busbw / link ceiling x 100
    std::string verdict;
    std::string reason;
};

// What is known of where a collective runs.
struct LinkContext {
    const Device* device = nullptr;
    std::span<const Ceiling> ceilings; // of that device, any source
    int groupSize = 0; // ranks in the collective
    int hosts = 0; // distinct host names of the ranks in the session; 0 = unrecorded
};
CollectiveLink chooseLink(const LinkContext& context);

// Reference ceilings per direction (communication.md §4), for inference when a session has none.
std::optional<double> nvlinkPerDirection(std::string_view gpuName);
std::optional<double> pciePerDirection(int generation); // theory: Gen3 15.75 ... Gen6 126 GB/s
std::optional<double> nicPerDirection(std::string_view rate); // "HDR", "NDR", "XDR"

// One launch's or several launches' collective figures; adding launches sums bytes and times.
struct CollectiveFigures {
    std::string collective;
    std::int64_t launches = 0; // launches with sizes
    double bytes = 0; // S, summed
    double busBytes = 0; // S x factor, summed
    double durationNs = 0; // of the launches with sizes
    std::string algorithm;
    std::string protocol;
    CollectiveLink link;
    // Across ranks: time this rank waited for the last-arriving one, summed, and by that rank.
    double waitNs = 0;
    std::map<int, std::pair<std::int64_t, double>> lateRanks; // rank -> (times last, ns waited for it)
    void add(const CollectiveFigures& other);
    std::optional<double> busBytesPerS() const;
    std::optional<double> algBytesPerS() const;
};

// The collective branch of the verdict: communication-bound with bus bandwidth against the link
// when sizes and a ceiling are known, the plain label and "sizes missing" otherwise.
void classifyCollective(KernelAnalysis& a, const std::string& collective);

// One collective op on one rank, for matching across ranks.
struct CollectiveOpRef {
    std::int64_t opId = 0; // comm_ops.id (or any id the caller wants back)
    int rank = -1;
    std::string processGroup;
    std::string collective;
    std::int64_t seq = -1; // per process group; -1 = unknown: the order within the group is used
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

struct InstanceMember {
    int rank = -1;
    std::int64_t opId = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t waitNs = 0; // latest start - this start
};

struct CollectiveInstance {
    std::string processGroup;
    std::string collective;
    std::int64_t index = 0; // Seq, or the position within the group
    std::vector<InstanceMember> members; // by rank
    std::int64_t startSkewNs = 0; // latest start - earliest start
    std::int64_t endSkewNs = 0; // latest end - earliest end
    int lastRank = -1; // the rank that started last; -1 when all started together or alone
};

struct RankWait {
    int rank = -1;
    std::int64_t waitNs = 0; // summed over instances: time spent waiting for later ranks
    std::int64_t lastArrivals = 0;
    std::int64_t instances = 0;
};

struct CrossRankAnalysis {
    std::vector<CollectiveInstance> instances; // with at least two ranks
    std::vector<RankWait> ranks; // by rank; the most waited-for (most last arrivals) first
    std::vector<std::string> warnings; // e.g. different instance counts per rank
};

// Matches the same instance on every rank by process group and Seq, or by its order within the
// process group (TraceLens); ops with rank < 0 are left out. One rank: no instances.
CrossRankAnalysis matchAcrossRanks(std::span<const CollectiveOpRef> ops);

// "waiting for rank 3 (arrives 2.1 ms late on average)", or empty when waiting is negligible.
std::string waitCause(const CollectiveFigures& figures);

} // namespace ridgeline::core
