// SPDX-License-Identifier: MIT
// The HTML report's collectives: the table of `ridgeline report --by collective` (bus bandwidth
// against the link) and, across ranks, each rank's wait for later ranks, the slow rank first.
#include "analysis/collectivesession.h"
#include "exportcommon.h"
#include "exporthtml.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/output/exporters.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>

namespace ridgeline::core::detail {

namespace {

constexpr std::size_t kSkewedInstances = 10;

std::string cell(const std::optional<double>& value, const char* unit)
{
    return value ? formatRate(*value, unit) : "–";
}

std::string duration(std::int64_t ns)
{
    return formatDuration(static_cast<double>(ns));
}

void writeRanks(std::ostream& out, const CrossRankAnalysis& x)
{
    if (x.instances.empty()) {
        out << "<p class=\"note\">One rank (or no instance seen on two ranks): no waits across ranks. Import every "
               "rank's trace into one session to see who makes the others wait.</p>\n";
        return;
    }
    const auto& first = x.ranks.front();
    if (first.lastArrivals > 0) {
        std::int64_t othersWait = 0;
        for (const auto& w : x.ranks)
            othersWait += w.rank == first.rank ? 0 : w.waitNs;
        fmt::print(out,
            "<p class=\"lead\"><b>Rank {} makes the others wait</b>: it starts last in {} of {} instances matched "
            "across ranks; the other ranks waited {} for it in all.</p>\n",
            first.rank, first.lastArrivals, first.instances, duration(othersWait));
    } else {
        fmt::print(out, "<p class=\"lead\">{} instances matched across ranks; every rank started each at once.</p>\n",
            x.instances.size());
    }
    out << "<table>\n<tr><th>Rank</th><th>Last arrivals</th><th>Waited</th><th>Wait per instance</th></tr>\n";
    for (const auto& w : x.ranks) {
        fmt::print(out,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{} of {}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td></tr>\n",
            w.rank, w.lastArrivals, w.instances, duration(w.waitNs),
            w.instances > 0 ? formatDuration(static_cast<double>(w.waitNs) / static_cast<double>(w.instances)) : "–");
    }
    out << "</table>\n";
    const auto skewed = detail::mostSkewedInstances(x, kSkewedInstances);
    out << "<p class=\"note\">The most skewed instances (start skew: latest start − earliest start).</p>\n"
           "<table>\n<tr><th>Collective</th><th>#</th><th>Start skew</th><th>End skew</th><th>Last rank</th>"
           "<th>Process group</th></tr>\n";
    for (const auto* i : skewed)
        fmt::print(out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td>{}</td></tr>\n",
            htmlEscape(i->collective), i->index, duration(i->startSkewNs), duration(i->endSkewNs),
            i->lastRank >= 0 ? std::to_string(i->lastRank) : "–",
            i->processGroup.empty() ? "–" : htmlEscape(i->processGroup));
    out << "</table>\n";
    for (const auto& w : x.warnings)
        fmt::print(out, "<p class=\"note\">Warning: {}</p>\n", htmlEscape(w));
}

} // namespace

void writeHtmlCollectives(std::ostream& out, const CollectiveReport& report)
{
    out << "<h2>Collectives</h2>\n";
    if (report.rows.empty()) {
        out << "<p>No collectives in this session.</p>\n";
        return;
    }
    out << "<p class=\"lead\">One row per collective type, process group and message size, as nccl-tests reports "
           "them: S in bytes, algbw = S / time, busbw = algbw × 2(n−1)/n for AllReduce, × (n−1)/n for AllGather, "
           "ReduceScatter and AlltoAll, × 1 otherwise; compared with the link's ceiling in one direction.</p>\n";
    out << "<table>\n<tr><th>Collective</th><th>Ranks</th><th>Bytes (S)</th><th>Calls</th><th>Total</th>"
           "<th>Average</th><th>algbw</th><th>busbw</th><th>Link</th><th>% of link</th><th>Verdict</th>"
           "<th>Process group</th><th>Why</th></tr>\n";
    for (const auto& r : report.rows) {
        const std::string link = r.link.name.empty() ? "–"
            : r.link.bytesPerS > 0                   ? fmt::format("{} {}{}", htmlEscape(r.link.name),
                                    formatRate(r.link.bytesPerS, "B/s"), r.link.inferred ? " (inferred)" : "")
                                                     : htmlEscape(r.link.name);
        fmt::print(out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td class=\"reason\">{}</td></tr>\n",
            htmlEscape(r.collective), r.groupSize > 0 ? std::to_string(r.groupSize) : "–",
            r.bytes > 0 ? formatCount(r.bytes) : "–", formatCount(r.calls), duration(r.timeNs),
            formatDuration(static_cast<double>(r.timeNs) / static_cast<double>(std::max<std::int64_t>(r.calls, 1))),
            cell(r.algBytesPerS, "B/s"), cell(r.busBytesPerS, "B/s"), link,
            r.pctOfLink ? fmt::format("{:.{}f} %", *r.pctOfLink, *r.pctOfLink < 1 ? 1 : 0) : "–", htmlEscape(r.verdict),
            r.processGroup.empty() ? "–" : htmlEscape(r.processGroup), htmlEscape(r.reason));
    }
    out << "</table>\n<h3>Across ranks</h3>\n";
    writeRanks(out, report.ranks);
}

} // namespace ridgeline::core::detail
