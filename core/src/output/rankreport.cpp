// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/rankreport.h"

#include "ridgeline/core/base/units.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

namespace ridgeline::core {

namespace {

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string ns(std::int64_t value)
{
    return formatDuration(static_cast<double>(value));
}

std::string cut(const std::string& text, std::size_t width)
{
    return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

void writeTable(std::ostream& out, const ClusterReport& r, std::size_t top)
{
    fmt::print(out, "{} ranks from {} sessions; {} collective instances matched across ranks\n", r.ranks.size(),
        r.sessions, r.instances);
    if (r.slowRanks.empty()) {
        fmt::print(out, "Slow ranks: none (no rank started a collective instance last)\n");
    } else {
        fmt::print(out, "Slow ranks (started collective instances last; lateness = their start skews):\n");
        for (std::size_t i = 0; i < r.slowRanks.size() && i < 5; ++i) {
            const auto& s = r.slowRanks[i];
            fmt::print(out, "  rank {}: last in {} instances, {} late in total ({} on average)\n", s.rank, s.instances,
                ns(s.lateNs), ns(s.lateNs / std::max<std::int64_t>(s.instances, 1)));
        }
    }
    // 120 columns: a terminal of 120 shows every line whole.
    fmt::print(out, "{:>6} {:<10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11}  {}\n", "Rank", "Host",
        "Span", "Busy", "Idle", "Compute", "Comm", "Overlap", "Comm wait", "Recoverable", "Top kernel");
    std::size_t shown = 0;
    for (const auto& row : r.ranks) {
        if (top > 0 && shown++ >= top)
            break;
        const auto& s = row.summary;
        fmt::print(out, "{:>6} {:<10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11}  {}\n", s.rank,
            cut(s.host.empty() ? "-" : s.host, 10), ns(s.spanNs), ns(s.busyNs), ns(s.idleNs), ns(s.computeNs),
            ns(s.communicationNs), ns(s.overlapNs), ns(row.commWaitNs), s.rankedNs > 0 ? ns(s.recoverableNs) : "-",
            s.topKernels.empty() ? "-" : cut(s.topKernels.front().name, 12));
    }
    if (top > 0 && r.ranks.size() > top)
        fmt::print(out, "... {} more ranks (--top 0 lists all)\n", r.ranks.size() - top);
    fmt::print(out, "Cluster: {:<17} {:>11} {:>11} {:>21} {:>21}\n", "column", "mean", "stddev", "min (rank)",
        "max (rank)");
    for (const auto& c : r.cluster) {
        fmt::print(out, "         {:<17} {:>11} {:>11} {:>21} {:>21}\n", c.column, formatDuration(c.mean),
            formatDuration(c.stddev), fmt::format("{} ({})", ns(c.min), c.minRank),
            fmt::format("{} ({})", ns(c.max), c.maxRank));
    }
    for (const auto& w : r.warnings)
        fmt::print(out, "warning: {}\n", w);
}

void writeCsv(std::ostream& out, const ClusterReport& r)
{
    fmt::print(out,
        "rank,host,session,devices,kernels,collective_ops,start_ns,end_ns,span_ns,busy_ns,idle_ns,compute_ns,"
        "communication_ns,overlap_ns,comm_wait_ns,last_arrivals,ranked_ns,time_at_roof_ns,recoverable_ns,top_kernel,"
        "top_kernel_ns\n");
    for (const auto& row : r.ranks) {
        const auto& s = row.summary;
        fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", s.rank, csvField(s.host),
            csvField(s.session), s.devices, s.kernels, s.collectiveOps, s.startNs, s.endNs, s.spanNs, s.busyNs,
            s.idleNs, s.computeNs, s.communicationNs, s.overlapNs, row.commWaitNs, row.lastArrivals, s.rankedNs,
            s.timeAtRoofNs, s.recoverableNs, s.topKernels.empty() ? "" : csvField(s.topKernels.front().name),
            s.topKernels.empty() ? 0 : s.topKernels.front().timeNs);
    }
}

void writeJson(std::ostream& out, const ClusterReport& r)
{
    using nlohmann::json;
    json ranks = json::array();
    for (const auto& row : r.ranks) {
        const auto& s = row.summary;
        json kernels = json::array();
        for (const auto& k : s.topKernels)
            kernels.push_back({ { "name", k.name }, { "time_ns", k.timeNs }, { "launches", k.launches } });
        ranks.push_back({ { "rank", s.rank }, { "host", s.host }, { "session", s.session }, { "job", s.job },
            { "devices", s.devices }, { "kernels", s.kernels }, { "collective_ops", s.collectiveOps },
            { "start_ns", s.startNs }, { "end_ns", s.endNs }, { "span_ns", s.spanNs }, { "busy_ns", s.busyNs },
            { "idle_ns", s.idleNs }, { "compute_ns", s.computeNs }, { "communication_ns", s.communicationNs },
            { "overlap_ns", s.overlapNs }, { "comm_wait_ns", row.commWaitNs }, { "last_arrivals", row.lastArrivals },
            { "ranked_ns", s.rankedNs }, { "time_at_roof_ns", s.timeAtRoofNs }, { "recoverable_ns", s.recoverableNs },
            { "top_kernels", kernels } });
    }
    json slow = json::array();
    for (const auto& s : r.slowRanks)
        slow.push_back({ { "rank", s.rank }, { "late_ns", s.lateNs }, { "instances", s.instances } });
    json columns = json::object();
    for (const auto& c : r.cluster)
        columns[c.column] = { { "mean", c.mean }, { "stddev", c.stddev }, { "min", c.min }, { "min_rank", c.minRank },
            { "max", c.max }, { "max_rank", c.maxRank } };
    const json doc = { { "ranks", ranks }, { "slow_ranks", slow },
        { "cluster",
            { { "ranks", r.ranks.size() }, { "sessions", r.sessions }, { "instances", r.instances },
                { "columns", columns } } },
        { "warnings", r.warnings } };
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace

void writeClusterReport(std::ostream& out, const ClusterReport& report, ReportFormat format, std::size_t top)
{
    switch (format) {
    case ReportFormat::Table:
        return writeTable(out, report, top);
    case ReportFormat::Csv:
        return writeCsv(out, report);
    case ReportFormat::Json:
        return writeJson(out, report);
    }
}

} // namespace ridgeline::core
