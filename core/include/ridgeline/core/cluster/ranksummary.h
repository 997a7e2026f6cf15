// SPDX-License-Identifier: MIT
// What one rank of a job did, in a few hundred bytes: the timeline figures of its devices, its
// top kernels and the times of its collectives. A report over thousands of sessions keeps only
// these (clusterreport.h), so its memory is bounded by the largest single session, not by the sum.
// Summaries are stored in the session (`rank_summaries`, schema v5) by `ridgeline summarize` and
// by `capture`, versioned by kRankSummaryVersion.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::core {

class SessionReader;
struct TimelineToStore;

// The layout of a stored summary (its JSON); a summary of another version is recomputed.
inline constexpr int kRankSummaryVersion = 3; // 2: activity; 3: time at roof, recoverable

struct RankKernel {
    std::string name; // short name (shortKernelName)
    std::int64_t timeNs = 0;
    std::int64_t launches = 0;
    bool operator==(const RankKernel&) const = default;
};

// One collective as this rank ran it: enough to match the same instance on other ranks.
struct RankCollective {
    std::string processGroup;
    std::string collective;
    std::int64_t seq = -1; // -1: unknown (matched by order within the process group)
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool operator==(const RankCollective&) const = default;
};

// The rank's GPU time in coarse equal bins across [startNs, startNs + bins x binNs): per bin, the ns
// in which some GPU of the rank was busy, and in which one ran a collective (unions over its devices
// and streams, so a bin never holds more than binNs). The cluster page's heat map is drawn from it.
struct RankActivity {
    std::int64_t startNs = 0;
    std::int64_t binNs = 0; // 0: no GPU activity
    std::vector<std::int64_t> busyNs;
    std::vector<std::int64_t> communicationNs;
    bool operator==(const RankActivity&) const = default;
};

inline constexpr int kRankActivityBins = 100;

// [start, end) spans, any order, overlapping or not.
using Spans = std::vector<std::pair<std::int64_t, std::int64_t>>;

// The activity of spans `busy` and `communication` across `bins` equal bins from the earliest start
// to the latest end of `busy` (spans of no length count there, and nowhere else); an empty
// activity when no span of `busy` has any length.
RankActivity binRankActivity(Spans busy, Spans communication, int bins = kRankActivityBins);

struct RankSummary {
    int rank = -1; // -1: the session names no rank
    std::string host;
    std::string session; // the file it came from (set when read, not stored)
    std::string job; // the Slurm job it was captured or imported in (meta slurm.job_id; set when read)
    int devices = 0;
    std::int64_t kernels = 0; // launches of compute kernels
    std::int64_t collectiveOps = 0; // collectives (NCCL kernels and comm ops without one)
    // Timeline figures (timeline.h), summed over the rank's devices; start and end are the
    // earliest and latest op of any of them.
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t spanNs = 0;
    std::int64_t busyNs = 0;
    std::int64_t idleNs = 0;
    std::int64_t computeNs = 0;
    std::int64_t communicationNs = 0;
    std::int64_t overlapNs = 0;
    // Opportunities (opportunities.h) over the rank's devices: the GPU time of the rows that have a
    // roof, the time their work would take at it, and the difference. 0 when nothing has a roof.
    std::int64_t rankedNs = 0;
    std::int64_t timeAtRoofNs = 0;
    std::int64_t recoverableNs = 0;
    std::vector<RankKernel> topKernels; // by time, largest first
    std::vector<RankCollective> collectives; // in start order
    RankActivity activity;
    bool operator==(const RankSummary&) const = default;
};

// One summary per rank of an open session: several for a merged session, one with rank -1 for a
// session of no job. `timeline`, when given, gets the whole-session timeline analysis the summaries
// were made from, to be stored (analysis/storedtimeline.h) without a second scan.
Result<std::vector<RankSummary>> summarizeRanks(
    SessionReader& reader, std::size_t topKernels = 5, TimelineToStore* timeline = nullptr);

// The stored form: a JSON object with "version". Malformed or another version: InvalidArgument.
std::string rankSummaryJson(const RankSummary& summary);
Result<RankSummary> rankSummaryFromJson(std::string_view json);

// The summaries stored in a session, or nullopt when it has none of this version.
Result<std::optional<std::vector<RankSummary>>> storedRankSummaries(SessionReader& reader);
// Writes summaries into a session the caller may change (`ridgeline summarize`, capture): the
// file is brought to the current schema first (the migration every open does in memory), then its
// rank_summaries are replaced, in one transaction.
Status storeRankSummaries(const std::string& path, const std::vector<RankSummary>& summaries);

// Files as given, folders as the .ridge files in them (sorted by name).
std::vector<std::string> expandSessionPaths(const std::vector<std::string>& paths);

struct GatherOptions {
    std::size_t threads = 0; // 0: one per core
    bool useStored = true; // read stored summaries where present (else always recompute)
    std::size_t topKernels = 5;
};
// Sessions that could not be read are left out and named in `failures` ("path: why").
struct GatheredSummaries {
    std::vector<RankSummary> ranks; // in the order of the paths, then by rank
    std::vector<std::string> failures;
    std::size_t fromStored = 0; // sessions whose stored summaries were used
};
// Reads each session (several at once on worker threads) and keeps only its summaries.
// `progress(done, total)` is called from the calling thread.
GatheredSummaries gatherRankSummaries(const std::vector<std::string>& paths, const GatherOptions& options = {},
    const std::function<void(std::size_t, std::size_t)>& progress = {});

} // namespace ridgeline::core
