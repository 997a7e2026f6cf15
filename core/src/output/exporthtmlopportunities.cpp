// SPDX-License-Identifier: MIT
// The HTML report's opportunities (issue 34): the whole job against its roofs in one line, the
// rows ranked by the GPU time they would give back at their roofs with a bar each and every item of
// their advice, and the GPU time no roof could be put on, with the reason: the list of
// `ridgeline report --opportunities` and the desktop's Opportunities page.
#include "exportcommon.h"
#include "exporthtml.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/output/exporters.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>

namespace ridgeline::core::detail {

namespace {

std::string oppHtmlTime(std::int64_t ns)
{
    return formatDuration(static_cast<double>(ns));
}

double oppHtmlPercent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string oppHtmlVerdict(const Opportunity& row)
{
    std::string html = fmt::format(R"(<span class="badge" style="background:{}">{}</span>)",
        htmlColourForVerdict(row.verdict), htmlEscape(verdictText(row.verdict, row.boundBy)));
    if (row.verdict == VerdictClass::LatencyBound)
        html += "<br><span class=\"note\">recoverable by fewer, larger launches, not a faster unit</span>";
    return html;
}

std::string oppHtmlAdvice(const Opportunity& row)
{
    std::string html = "<ol class=\"advice\">";
    for (const auto& a : row.advice)
        html += "<li>" + htmlEscape(a) + "</li>";
    return html + "</ol>";
}

void writeOppHtmlRanked(std::ostream& out, const Opportunities& o)
{
    const std::size_t shown = std::min(o.rows.size(), kHtmlOpportunityRows);
    fmt::print(out,
        "<p class=\"lead\"><b>At its roofs the GPU would do this work in {}; it took {}: {} recoverable ({:.1f} % of "
        "GPU time).</b> The {} rows cover {:.1f} % of the GPU time ({} of {}){}.</p>\n",
        oppHtmlTime(o.timeAtRoofNs), oppHtmlTime(o.rankedTimeNs), oppHtmlTime(o.recoverableNs),
        oppHtmlPercent(o.recoverableNs, o.gpuTimeNs), formatCount(static_cast<std::int64_t>(o.rows.size())),
        100.0 * o.coverage(), oppHtmlTime(o.rankedTimeNs), oppHtmlTime(o.gpuTimeNs),
        shown < o.rows.size() ? fmt::format("; the {} with the most recoverable time are shown (ridgeline report "
                                            "--opportunities lists every row)",
            shown)
                              : std::string());
    std::int64_t largest = 0;
    for (const auto& r : o.rows)
        largest = std::max(largest, r.recoverableNs);
    out << "<table>\n<tr><th>#</th><th>Recoverable</th><th>GPU time</th><th>At roof</th><th>Calls</th><th>Kind</th>"
           "<th>Verdict</th><th>Limited by</th><th>Name</th><th>What to try</th></tr>\n";
    for (std::size_t i = 0; i < shown; ++i) {
        const Opportunity& r = o.rows[i];
        std::string name = htmlEscape(r.name);
        if (!r.inputDims.empty())
            name += "<br><span class=\"note\">" + htmlEscape(r.inputDims) + "</span>";
        fmt::print(out,
            "<tr><td class=\"num\">{}</td><td class=\"num bar\" style=\"background:linear-gradient(to right,#fbd38d "
            "{:.1f}%,transparent 0)\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td class=\"name\" title=\"{}\">{}</td><td class=\"reason\">{}</td></tr>\n",
            i + 1, oppHtmlPercent(r.recoverableNs, largest), oppHtmlTime(r.recoverableNs), oppHtmlTime(r.gpuTimeNs),
            oppHtmlTime(r.timeAtRoofNs), formatCount(r.calls), toString(r.kind), oppHtmlVerdict(r),
            r.limitedBy.empty() ? "–" : htmlEscape(r.limitedBy), htmlEscape(r.fullName), name, oppHtmlAdvice(r));
    }
    out << "</table>\n";
}

void writeOppHtmlUnranked(std::ostream& out, const Opportunities& o)
{
    const std::int64_t apart = o.unrankedTimeNs;
    const std::size_t shown = std::min(o.unranked.size(), kHtmlOpportunityRows);
    fmt::print(out,
        "<h3>No roof: {} ({:.1f} % of GPU time)</h3>\n<p class=\"note\">GPU time with no figures (no "
        "counters, no shape model) or no ceiling: it cannot be ranked{}.</p>\n",
        oppHtmlTime(apart), oppHtmlPercent(apart, o.gpuTimeNs),
        shown < o.unranked.size() ? fmt::format("; the {} longest of {} are shown", shown, o.unranked.size())
                                  : std::string());
    out << "<table>\n<tr><th>GPU time</th><th>Calls</th><th>Kind</th><th>Name</th><th>Why no roof</th></tr>\n";
    for (std::size_t i = 0; i < shown; ++i) {
        const UnrankedTime& u = o.unranked[i];
        fmt::print(out,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"name\" title=\"{}\">{}</td>"
            "<td class=\"reason\">{}</td></tr>\n",
            oppHtmlTime(u.gpuTimeNs), formatCount(u.calls), toString(u.kind), htmlEscape(u.fullName),
            htmlEscape(u.name), htmlEscape(u.reason));
    }
    out << "</table>\n";
}

} // namespace

void writeHtmlOpportunities(std::ostream& out, const Opportunities& o)
{
    out << "<h2>Opportunities</h2>\n";
    if (o.gpuTimeNs <= 0) {
        out << "<p>No GPU time in this session (no kernels, copies or memsets): nothing to rank.</p>\n";
        return;
    }
    if (o.rows.empty())
        fmt::print(out,
            "<p class=\"lead\"><b>None of the {} of GPU time has figures and a roof: nothing can be ranked.</b> "
            "Figures come from hardware counters (<code>ridgeline capture --metrics roofline</code>, Nsight "
            "Compute) or from the shapes of PyTorch operators (traces recorded with "
            "<code>record_shapes=True</code>).</p>\n",
            oppHtmlTime(o.gpuTimeNs));
    else
        writeOppHtmlRanked(out, o);
    if (!o.unranked.empty())
        writeOppHtmlUnranked(out, o);
}

} // namespace ridgeline::core::detail
