// SPDX-License-Identifier: MIT
#include "ridgeline/core/cluster/clusterreport.h"

#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <unordered_map>

namespace ridgeline::core {

namespace {

struct Column {
    const char* name;
    std::int64_t (*get)(const RankRow&);
};

// The columns the cluster figures cover, in output order.
const Column kColumns[] = {
    { "span_ns", [](const RankRow& r) { return r.summary.spanNs; } },
    { "busy_ns", [](const RankRow& r) { return r.summary.busyNs; } },
    { "idle_ns", [](const RankRow& r) { return r.summary.idleNs; } },
    { "compute_ns", [](const RankRow& r) { return r.summary.computeNs; } },
    { "communication_ns", [](const RankRow& r) { return r.summary.communicationNs; } },
    { "overlap_ns", [](const RankRow& r) { return r.summary.overlapNs; } },
    { "comm_wait_ns", [](const RankRow& r) { return r.commWaitNs; } },
    { "recoverable_ns", [](const RankRow& r) { return r.summary.recoverableNs; } },
};

ColumnStats statsOf(const Column& column, const std::vector<RankRow>& rows)
{
    ColumnStats s;
    s.column = column.name;
    if (rows.empty())
        return s;
    s.min = s.max = column.get(rows.front());
    s.minRank = s.maxRank = rows.front().summary.rank;
    double sum = 0;
    for (const auto& r : rows) {
        const auto v = column.get(r);
        sum += static_cast<double>(v);
        if (v < s.min) {
            s.min = v;
            s.minRank = r.summary.rank;
        }
        if (v > s.max) {
            s.max = v;
            s.maxRank = r.summary.rank;
        }
    }
    s.mean = sum / static_cast<double>(rows.size());
    double squares = 0;
    for (const auto& r : rows) {
        const double d = static_cast<double>(column.get(r)) - s.mean;
        squares += d * d;
    }
    s.stddev = std::sqrt(squares / static_cast<double>(rows.size()));
    return s;
}

} // namespace

ClusterReport buildClusterReport(std::vector<RankSummary> summaries)
{
    ClusterReport report;
    std::map<std::string, bool> sessions;
    // One row per rank: a rank found in two sessions keeps the first (and is named in a warning).
    std::map<int, RankSummary> byRank;
    for (auto& s : summaries) {
        sessions[s.session] = true;
        auto [it, added] = byRank.try_emplace(s.rank, std::move(s));
        if (!added)
            report.warnings.push_back(fmt::format("rank {} is in {} and in {}; the second is left out", it->first,
                it->second.session, s.session.empty() ? "another session" : s.session));
    }
    report.sessions = static_cast<std::int64_t>(sessions.size());
    std::set<std::string> jobs; // Slurm jobs: one folder of two runs compares ranks of different runs
    for (const auto& [rank, s] : byRank) {
        if (!s.job.empty())
            jobs.insert(s.job);
    }
    if (jobs.size() > 1) {
        std::string named;
        for (const auto& job : jobs)
            named += (named.empty() ? "" : ", ") + job;
        report.warnings.push_back(
            fmt::format("the sessions come from {} Slurm jobs ({}); their ranks are compared as if of one job",
                jobs.size(), named));
    }

    // The same collective instance on every rank: by process group and Seq, else by order.
    std::vector<CollectiveOpRef> refs;
    for (const auto& [rank, s] : byRank) {
        if (rank < 0)
            continue;
        for (const auto& c : s.collectives)
            refs.push_back({ static_cast<std::int64_t>(refs.size()), rank, c.processGroup, c.collective, c.seq,
                c.startNs, c.endNs });
    }
    const auto matched = matchAcrossRanks(refs);
    report.instances = static_cast<std::int64_t>(matched.instances.size());
    report.warnings.insert(report.warnings.end(), matched.warnings.begin(), matched.warnings.end());
    std::unordered_map<int, RankWait> waits;
    for (const auto& w : matched.ranks)
        waits[w.rank] = w;
    std::map<int, SlowRank> slow;
    for (const auto& instance : matched.instances) {
        if (instance.lastRank < 0)
            continue;
        auto& s = slow[instance.lastRank];
        s.rank = instance.lastRank;
        s.lateNs = saturatingAdd(s.lateNs, instance.startSkewNs);
        ++s.instances;
    }

    for (auto& [rank, s] : byRank) {
        RankRow row;
        row.summary = std::move(s);
        if (auto it = waits.find(rank); it != waits.end()) {
            row.commWaitNs = it->second.waitNs;
            row.lastArrivals = it->second.lastArrivals;
        }
        report.ranks.push_back(std::move(row));
    }
    for (const auto& [rank, s] : slow)
        report.slowRanks.push_back(s);
    std::sort(report.slowRanks.begin(), report.slowRanks.end(), [](const SlowRank& a, const SlowRank& b) {
        return a.lateNs != b.lateNs ? a.lateNs > b.lateNs : a.rank < b.rank;
    });
    for (const auto& column : kColumns)
        report.cluster.push_back(statsOf(column, report.ranks));
    return report;
}

} // namespace ridgeline::core
