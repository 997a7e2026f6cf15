// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/collectivereport.h"

#include "analysis/collectivesession.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

namespace ridgeline::core {

namespace {

using CollectiveKey = std::tuple<std::string, std::string, std::int64_t, int>; // collective, group, S, n

constexpr std::size_t kTableInstances = 10; // the most skewed instances in the table

nlohmann::json optionalJson(const std::optional<double>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string cell(const std::optional<double>& value, const char* unit)
{
    return value ? formatRate(*value, unit) : "-";
}

void writeTable(std::ostream& out, const CollectiveReport& report)
{
    std::int64_t calls = 0;
    for (const auto& r : report.rows)
        calls += r.calls;
    fmt::print(out, "{}: {} collective calls in {} groups of type, process group and size\n", report.path,
        formatCount(calls), report.rows.size());
    if (report.rows.empty()) {
        fmt::print(out, "No collectives in this session.\n");
        return;
    }
    fmt::print(out, "{:<14} {:>5} {:>11} {:>6} {:>11} {:>11} {:>11} {:>11} {:<8} {:>11} {:>6}  {}\n", "Collective",
        "Ranks", "Bytes", "Calls", "Total", "Avg", "algbw", "busbw", "Link", "Ceiling", "% link", "Process group");
    for (const auto& r : report.rows) {
        fmt::print(out, "{:<14} {:>5} {:>11} {:>6} {:>11} {:>11} {:>11} {:>11} {:<8} {:>11} {:>6}  {}\n", r.collective,
            r.groupSize > 0 ? std::to_string(r.groupSize) : "-", r.bytes > 0 ? formatCount(r.bytes) : "-", r.calls,
            formatDuration(static_cast<double>(r.timeNs)),
            formatDuration(static_cast<double>(r.timeNs) / static_cast<double>(std::max<std::int64_t>(r.calls, 1))),
            cell(r.algBytesPerS, "B/s"), cell(r.busBytesPerS, "B/s"), r.link.name.empty() ? "-" : r.link.name,
            r.link.bytesPerS > 0 ? formatRate(r.link.bytesPerS, "B/s") : "-",
            r.pctOfLink ? fmt::format("{:.{}f} %", *r.pctOfLink, *r.pctOfLink < 1 ? 1 : 0) : "-",
            r.processGroup.empty() ? "-" : r.processGroup);
        fmt::print(out, "    {}\n", r.reason);
    }
    const auto& x = report.ranks;
    if (x.instances.empty()) {
        fmt::print(out, "\nOne rank (or no instance seen on two ranks): no waits across ranks.\n");
    } else {
        fmt::print(out, "\n{} instances matched across ranks (by process group and order).\n", x.instances.size());
        fmt::print(out, "{:>5} {:>12} {:>14}\n", "Rank", "Waited", "Last arrivals");
        for (const auto& w : x.ranks)
            fmt::print(out, "{:>5} {:>12} {:>14}\n", w.rank, formatDuration(static_cast<double>(w.waitNs)),
                fmt::format("{} of {}", w.lastArrivals, w.instances));
        const auto skewed = detail::mostSkewedInstances(x, kTableInstances);
        fmt::print(out, "Most skewed instances:\n{:<14} {:>6} {:>12} {:>12} {:>9}  {}\n", "Collective", "#",
            "Start skew", "End skew", "Last rank", "Process group");
        for (const auto* i : skewed)
            fmt::print(out, "{:<14} {:>6} {:>12} {:>12} {:>9}  {}\n", i->collective, i->index,
                formatDuration(static_cast<double>(i->startSkewNs)), formatDuration(static_cast<double>(i->endSkewNs)),
                i->lastRank >= 0 ? std::to_string(i->lastRank) : "-", i->processGroup.empty() ? "-" : i->processGroup);
    }
    for (const auto& w : x.warnings)
        fmt::print(out, "warning: {}\n", w);
}

void writeCsv(std::ostream& out, const CollectiveReport& report)
{
    fmt::print(out,
        "collective,process_group,ranks,bytes,calls,time_ns,avg_ns,algbw_Bps,busbw_Bps,link,link_Bps,"
        "pct_of_link,verdict,reason\n");
    auto number = [](const std::optional<double>& v) { return v ? fmt::format("{:.6g}", *v) : std::string(); };
    for (const auto& r : report.rows) {
        fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csvField(r.collective), csvField(r.processGroup),
            r.groupSize, r.bytes, r.calls, r.timeNs, r.calls > 0 ? r.timeNs / r.calls : 0, number(r.algBytesPerS),
            number(r.busBytesPerS), csvField(r.link.name),
            r.link.bytesPerS > 0 ? fmt::format("{:.6g}", r.link.bytesPerS) : std::string(), number(r.pctOfLink),
            csvField(r.verdict), csvField(r.reason));
    }
}

void writeJson(std::ostream& out, const CollectiveReport& report)
{
    using nlohmann::json;
    json rows = json::array();
    for (const auto& r : report.rows) {
        rows.push_back({ { "collective", r.collective }, { "process_group", r.processGroup }, { "ranks", r.groupSize },
            { "bytes", r.bytes }, { "calls", r.calls }, { "time_ns", r.timeNs },
            { "algbw_Bps", optionalJson(r.algBytesPerS) }, { "busbw_Bps", optionalJson(r.busBytesPerS) },
            { "link", r.link.name.empty() ? json(nullptr) : json(r.link.name) },
            { "link_Bps", r.link.bytesPerS > 0 ? json(r.link.bytesPerS) : json(nullptr) },
            { "link_inferred", r.link.inferred }, { "link_note", r.link.note },
            { "pct_of_link", optionalJson(r.pctOfLink) }, { "verdict", r.verdict }, { "reason", r.reason } });
    }
    json ranks = json::array();
    for (const auto& w : report.ranks.ranks)
        ranks.push_back({ { "rank", w.rank }, { "wait_ns", w.waitNs }, { "last_arrivals", w.lastArrivals },
            { "instances", w.instances } });
    json instances = json::array();
    for (const auto& i : report.ranks.instances) {
        json members = json::array();
        for (const auto& m : i.members)
            members.push_back(
                { { "rank", m.rank }, { "start_ns", m.startNs }, { "end_ns", m.endNs }, { "wait_ns", m.waitNs } });
        instances.push_back({ { "collective", i.collective }, { "process_group", i.processGroup }, { "index", i.index },
            { "start_skew_ns", i.startSkewNs }, { "end_skew_ns", i.endSkewNs },
            { "last_rank", i.lastRank >= 0 ? json(i.lastRank) : json(nullptr) }, { "ranks", members } });
    }
    json doc = { { "session", report.path }, { "collectives", rows }, { "ranks", ranks }, { "instances", instances },
        { "warnings", report.ranks.warnings } };
    // Names come from the session as they were written: invalid UTF-8 is replaced, not thrown at.
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace

Result<CollectiveReport> buildCollectiveReport(std::span<SessionReader* const> readers)
{
    auto loaded = detail::loadCollectives(readers);
    if (loaded.hasError())
        return loaded.error();
    auto& session = loaded.value();
    CollectiveReport report;
    for (std::size_t i = 0; i < readers.size(); ++i)
        report.path += (i ? ", " : "") + readers[i]->path();
    struct Group {
        CollectiveRow row;
        CollectiveFigures figures;
    };
    std::map<CollectiveKey, Group> groups;
    for (const auto& op : session.ops) {
        auto& g = groups[CollectiveKey { op.collective, op.processGroup, op.bytes, op.groupSize }];
        g.row.collective = op.collective;
        g.row.processGroup = op.processGroup;
        g.row.bytes = op.bytes;
        g.row.groupSize = op.groupSize;
        ++g.row.calls;
        g.row.timeNs = saturatingAdd(g.row.timeNs, saturatingSub(op.endNs, op.startNs));
        if (auto f = session.figures.find(op.id); f != session.figures.end())
            g.figures.add(f->second);
    }
    for (auto& [key, g] : groups) {
        CollectiveRow& row = g.row;
        row.algBytesPerS = g.figures.algBytesPerS();
        row.busBytesPerS = g.figures.busBytesPerS();
        row.link = g.figures.link;
        if (row.busBytesPerS && row.link.bytesPerS > 0)
            row.pctOfLink = *row.busBytesPerS / row.link.bytesPerS * 100.0;
        KernelAnalysis a;
        a.comm = g.figures;
        classifyCollective(a, row.collective);
        row.verdict = toString(a.verdict);
        row.reason = a.reason;
        report.rows.push_back(std::move(row));
    }
    std::stable_sort(
        report.rows.begin(), report.rows.end(), [](const auto& x, const auto& y) { return x.timeNs > y.timeNs; });
    report.ranks = std::move(session.ranks);
    return report;
}

void writeCollectiveReport(std::ostream& out, const CollectiveReport& report, ReportFormat format)
{
    switch (format) {
    case ReportFormat::Table:
        writeTable(out, report);
        break;
    case ReportFormat::Csv:
        writeCsv(out, report);
        break;
    case ReportFormat::Json:
        writeJson(out, report);
        break;
    }
}

} // namespace ridgeline::core
