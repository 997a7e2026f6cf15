// SPDX-License-Identifier: MIT
// One self-contained HTML page: summary, top kernels, opportunities, SVG roofline, timeline summary. No script,
// no external resources; every text from the session goes through htmlEscape.
#include "exporthtml.h"

#include "exportcommon.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/version.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>

namespace ridgeline::core {

namespace {

constexpr std::size_t kTopKernels = 25;

constexpr const char* kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px 32px; color: #1d1d1f;
       max-width: 1200px; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
p.lead { color: #555; margin-top: 0; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
th { background: #f3f3f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; max-width: 360px; }
td.gpu { min-width: 120px; }
table.timeline { font-size: 0.82em; display: block; overflow-x: auto; max-width: 100%; }
td.reason { color: #444; max-width: 380px; }
td.bar { min-width: 110px; }
ol.advice { margin: 0; padding-left: 1.3em; }
table.facts th { background: none; width: 180px; }
.badge { display: inline-block; padding: 1px 7px; border-radius: 9px; color: #fff; font-size: 0.85em;
         white-space: nowrap; }
.legend span.badge { margin-right: 8px; }
.note { color: #666; font-size: 0.9em; }
svg .grid { stroke: #e6e6e6; stroke-width: 1; }
svg .tick { font-size: 11px; fill: #555; }
svg .axis { font-size: 13px; fill: #222; }
svg .roof { stroke-width: 2.5; fill: none; }
svg .mem { stroke: #2b6cb0; }
svg .comp { stroke: #9b2c2c; }
svg .tensor { stroke-dasharray: 6 3; stroke-width: 1.5; }
svg .rooflabel { font-size: 11px; fill: #222; }
svg .pointlabel { font-size: 11px; fill: #333; }
svg .note { font-size: 14px; fill: #666; }
)";

std::string badge(VerdictClass verdict)
{
    return fmt::format(R"(<span class="badge" style="background:{}">{}</span>)", htmlColourForVerdict(verdict),
        htmlEscape(toString(verdict)));
}

std::string metaValue(const std::map<std::string, std::string>& meta, const char* key)
{
    auto it = meta.find(key);
    return it == meta.end() ? std::string() : it->second;
}

// A capture-clock time as a person reads it: a UTC date and time when it is an epoch time
// (CUPTI and Kineto clocks; 2000 to 2100), else the offset from the clock's origin (Nsight Systems
// exports count from the session start).
std::string clockTime(std::int64_t ns)
{
    constexpr std::int64_t kYear2000 = 946'684'800LL * 1'000'000'000LL;
    constexpr std::int64_t kYear2100 = 4'102'444'800LL * 1'000'000'000LL;
    if (ns < kYear2000 || ns >= kYear2100)
        return fmt::format("{} after the capture clock's origin", formatDuration(static_cast<double>(ns)));
    const std::time_t seconds = static_cast<std::time_t>(ns / 1'000'000'000);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:09} UTC", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
        utc.tm_hour, utc.tm_min, utc.tm_sec, ns % 1'000'000'000);
}

void writeSummary(std::ostream& out, SessionReader& reader, const std::map<std::string, std::string>& meta,
    const std::vector<Device>& devices, const TableCounts& counts, const TimeSpan& span)
{
    auto row = [&](const char* label, const std::string& html) {
        fmt::print(out, "<tr><th>{}</th><td>{}</td></tr>\n", label, html);
    };
    out << "<h2>Session</h2>\n<table class=\"facts\">\n";
    row("File", htmlEscape(std::filesystem::path(reader.path()).filename().string()));
    row("Source", htmlEscape(metaValue(meta, "source")));
    if (auto origin = metaValue(meta, "origin"); !origin.empty())
        row("Origin", htmlEscape(origin));
    if (auto command = metaValue(meta, "capture_command"); !command.empty())
        row("Command", "<code>" + htmlEscape(command) + "</code>");
    if (auto created = metaValue(meta, "created_at"); !created.empty())
        row("Recorded", htmlEscape(created));
    row("Status", htmlEscape(metaValue(meta, "status")));
    std::string deviceList;
    for (const auto& d : devices) {
        const std::string facts = htmlEscape(describeDevice(d));
        deviceList += fmt::format("GPU {}: {}{}<br>\n", d.ordinal, htmlEscape(d.name),
            facts.empty() ? " (the trace describes it no further)" : " (" + facts + ")");
    }
    row("Devices", deviceList.empty() ? "none recorded" : deviceList);
    row("Kernel launches", formatCount(counts.kernels));
    row("Distinct kernels", formatCount(counts.kernelNames));
    row("Copies and memsets", formatCount(counts.memcpys + counts.memsets));
    row("Runtime API calls", formatCount(counts.apiCalls));
    row("NVTX ranges", formatCount(counts.nvtxRanges));
    row("Collectives", formatCount(counts.commOps));
    row("Hardware counter values", formatCount(counts.metrics));
    row("GPU time span",
        span.empty ? "no GPU activity"
                   : fmt::format("{}, from {} to {}", formatDuration(static_cast<double>(span.durationNs())),
                       clockTime(span.startNs), clockTime(span.endNs)));
    out << "</table>\n";
}

void writeKernels(std::ostream& out, std::vector<KernelSummary> rows)
{
    std::int64_t kernelNs = 0;
    for (const auto& r : rows)
        kernelNs = saturatingAdd(kernelNs, r.totalNs);
    fmt::print(out,
        "<h2>Top kernels by GPU time</h2>\n<p class=\"lead\">{} kernels (by name and device), {} of kernel "
        "time in all{}.</p>\n",
        formatCount(static_cast<std::int64_t>(rows.size())), formatDuration(static_cast<double>(kernelNs)),
        rows.size() > kTopKernels ? fmt::format("; the {} longest are shown", kTopKernels) : std::string());
    if (rows.empty()) {
        out << "<p>No kernels in this session.</p>\n";
        return;
    }
    sortKernelSummaries(rows, KernelSort::TotalTime);
    if (rows.size() > kTopKernels)
        rows.resize(kTopKernels);
    out << "<table>\n<tr><th>Time %</th><th>Total</th><th>Launches</th><th>Average</th><th>Verdict</th>"
           "<th>Bound by</th><th>% of roof</th><th>GPU</th><th>Kernel</th><th>Why</th></tr>\n";
    for (const auto& r : rows) {
        const auto& a = r.analysis;
        fmt::print(out,
            "<tr><td class=\"num\">{:.1f} %</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"name\" title=\"{}\">{}</td><td class=\"reason\">{}</td></tr>\n",
            r.shareOfKernelTime * 100.0, formatDuration(static_cast<double>(r.totalNs)), formatCount(r.launches),
            formatDuration(r.averageNs()), badge(a.verdict), a.boundBy.empty() ? "–" : htmlEscape(a.boundBy),
            a.boundUtilization ? fmt::format("{:.0f} %", *a.boundUtilization * 100.0) : "–", r.deviceId,
            htmlEscape(r.name), htmlEscape(shortKernelName(r.name)), htmlEscape(a.reason));
    }
    out << "</table>\n";
}

// Which window the summary covers: the whole session (and which profiler steps it holds), or a step.
std::string windowStatement(const SelectedTimeline& t)
{
    if (t.step && t.window) {
        const auto it
            = std::find_if(t.steps.begin(), t.steps.end(), [&](const auto& s) { return s.number == *t.step; });
        return fmt::format("Profiler step {}: its {} range, {} .. {} ns ({}).", *t.step,
            it != t.steps.end() && it->gpuSide ? "GPU-side" : "host", t.window->startNs, t.window->endNs,
            formatDuration(static_cast<double>(saturatingSub(t.window->endNs, t.window->startNs))));
    }
    if (t.window)
        return fmt::format("The window {} .. {} ns.", t.window->startNs, t.window->endNs);
    if (t.steps.empty())
        return "The whole session.";
    return fmt::format("The whole session, warm-up included; it holds profiler step{} {} (ridgeline export --step N "
                       "--html: one step's window).",
        t.steps.size() == 1 ? "" : "s", stepNumbers(t.steps));
}

void writeTimelineRows(std::ostream& out, const std::vector<Device>& devices,
    const std::vector<TimelineSummary>& summaries, const std::string& firstColumn = {});

void writeTimeline(std::ostream& out, const std::vector<Device>& devices, const SelectedTimeline& selected)
{
    const auto& summaries = selected.summaries;
    out << "<h2>Timeline summary</h2>\n";
    fmt::print(out, "<p class=\"note\">{}</p>\n", htmlEscape(windowStatement(selected)));
    out << "<p class=\"lead\">Per GPU, from its first to its last operation. Busy: at least "
           "one kernel, copy, memset or collective running; idle: the rest of the span; compute: non-collective "
           "kernels running; overlap: the share of communication time that runs while compute runs. Idle gaps are "
           "split by cause: the host had not yet launched the next operation, or the launch was issued and the GPU "
           "waited on a dependency.</p>\n";
    if (summaries.empty()) {
        out << "<p>No GPU activity recorded.</p>\n";
        return;
    }
    writeTimelineRows(out, devices, summaries);
    if (selected.stepSummaries.empty())
        return;
    out << "<h3>Profiler steps</h3>\n<p class=\"note\">Each step over its GPU-side range where the trace has one "
           "(as Holistic Trace Analysis and TraceLens take it), else over its host range (marked *).</p>\n";
    for (std::size_t i = 0; i < selected.steps.size() && i < selected.stepSummaries.size(); ++i) {
        const auto& step = selected.steps[i];
        writeTimelineRows(
            out, devices, selected.stepSummaries[i], fmt::format("Step {}{}", step.number, step.gpuSide ? "" : "*"));
    }
}

// One table of the summaries; `firstColumn`: a label for every row (a step), or none.
void writeTimelineRows(std::ostream& out, const std::vector<Device>& devices,
    const std::vector<TimelineSummary>& summaries, const std::string& firstColumn)
{
    fmt::print(out,
        "<table class=\"timeline\">\n<tr>{}<th>GPU</th><th>Span</th><th>Busy</th><th>Idle</th><th>Busy "
        "%</th><th>Compute</th>"
        "<th>Communication</th><th>Overlap</th><th>Idle: host not launching</th><th>Idle: waiting</th>"
        "<th>Kernels</th><th>Copies, memsets</th><th>Collectives</th></tr>\n",
        firstColumn.empty() ? "" : "<th>Step</th>");
    if (summaries.empty() && !firstColumn.empty())
        fmt::print(out, "<tr><td>{}</td><td colspan=\"13\">No GPU activity.</td></tr>\n", htmlEscape(firstColumn));
    auto duration = [](std::int64_t ns) { return formatDuration(static_cast<double>(ns)); };
    for (const auto& t : summaries) {
        auto device = std::find_if(devices.begin(), devices.end(), [&](const Device& d) { return d.id == t.deviceId; });
        auto label = device == devices.end() ? fmt::format("device {}", t.deviceId)
                                             : fmt::format("GPU {}: {}", device->ordinal, htmlEscape(device->name));
        if (t.rank >= 0)
            label += fmt::format(" (rank {})", t.rank);
        if (!firstColumn.empty())
            fmt::print(out, "<tr><td>{}</td>", htmlEscape(firstColumn));
        else
            out << "<tr>";
        fmt::print(out,
            "<td class=\"gpu\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{} ({})</td><td class=\"num\">{} ({})</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
            label, duration(t.spanNs), duration(t.busyNs), duration(t.idleNs),
            t.spanNs > 0
                ? fmt::format("{:.1f} %", 100.0 * static_cast<double>(t.busyNs) / static_cast<double>(t.spanNs))
                : "–",
            duration(t.computeNs), duration(t.communicationNs),
            t.commCompOverlapPct ? fmt::format("{:.0f} %", *t.commCompOverlapPct) : "–",
            duration(t.idleGaps.hostNotLaunchingNs), formatCount(t.idleGaps.hostNotLaunchingCount),
            duration(t.idleGaps.waitingNs), formatCount(t.idleGaps.waitingCount), formatCount(t.kernels),
            formatCount(t.memcpys + t.memsets), formatCount(t.collectives));
    }
    out << "</table>\n";
}

void writeHowToRead(std::ostream& out)
{
    out << "<h2>How to read this report</h2>\n<p class=\"legend\">";
    for (const auto v : kVerdictClasses)
        out << badge(v);
    out << "</p>\n<ul class=\"note\">\n"
           "<li><b>compute-bound</b>: an arithmetic unit (FP64, FP32, FP16 or tensor cores) is the busiest resource "
           "at 60 % or more of its peak.</li>\n"
           "<li><b>memory-bound</b>: a memory level (DRAM, L2, L1) is the busiest resource at 60 % or more of its "
           "bandwidth.</li>\n"
           "<li><b>communication-bound</b>: collectives (NCCL), copies over PCIe or NVLink, or a kernel whose busiest "
           "resource is a link. For collectives with message sizes the reason gives the bus bandwidth against the "
           "link's ceiling, and across ranks the rank that makes the others wait.</li>\n"
           "<li><b>latency-bound</b>: nothing reaches 60 % of its ceiling; the reason names the likely cause.</li>\n"
           "<li><b>unknown</b>: no hardware counters were recorded for the kernel, so nothing is guessed.</li>\n"
           "<li><b>% of roof</b>: how close the kernel comes to the ceiling of the resource that bounds it.</li>\n"
           "<li><b>Roofline</b>: x is arithmetic intensity (floating-point operations per byte read from or written "
           "to DRAM), y the achieved FLOP/s. Sloped lines are memory bandwidth ceilings, flat lines compute peaks; a "
           "kernel cannot go above the lowest line over its x. Point size is the kernel's share of GPU time.</li>\n"
           "</ul>\n";
}

} // namespace

Status writeHtmlReport(SessionReader& reader, std::ostream& out, const TimelineSelection& selection)
{
    auto meta = reader.meta();
    RIDGELINE_EXPORT_TRY(meta);
    auto devices = reader.devices();
    RIDGELINE_EXPORT_TRY(devices);
    auto counts = reader.counts();
    RIDGELINE_EXPORT_TRY(counts);
    auto span = reader.gpuTimeSpan();
    RIDGELINE_EXPORT_TRY(span);
    auto ceilings = reader.ceilings();
    RIDGELINE_EXPORT_TRY(ceilings);
    auto kernels = summarizeKernels(reader);
    RIDGELINE_EXPORT_TRY(kernels);
    auto timeline = analyzeSelectedTimeline(reader, selection);
    RIDGELINE_EXPORT_TRY(timeline);
    SessionReader* readers[] = { &reader };
    auto collectives = buildCollectiveReport(readers);
    RIDGELINE_EXPORT_TRY(collectives);
    auto opportunities = sessionOpportunities(reader);
    RIDGELINE_EXPORT_TRY(opportunities);

    const auto file = std::filesystem::path(reader.path()).filename().string();
    fmt::print(out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<title>Ridgeline report: {}</title>\n<style>{}</style>\n</head>\n<body>\n"
        "<h1>GPU profile: {}</h1>\n<p class=\"lead\">Written by Ridgeline {}, a GPU kernel profiler: for every "
        "kernel, what limits its speed and how far it is from that limit.</p>\n",
        htmlEscape(file), kStyle, htmlEscape(file), kVersion);
    writeSummary(out, reader, meta.value(), devices.value(), counts.value(), span.value());
    writeKernels(out, kernels.value());
    detail::writeHtmlOpportunities(out, *opportunities.value());

    out << "<h2>Roofline</h2>\n";
    if (devices.value().empty()) {
        out << "<p class=\"note\">The session describes no device; the chart has no ceilings.</p>\n";
        out << detail::rooflineSvg({}, {}, 0, "Roofline");
    } else {
        const auto& first = devices.value().front();
        const auto title = fmt::format("Roofline of GPU {}: {}", first.ordinal, first.name);
        fmt::print(out,
            "<p class=\"lead\">{}; ceilings of this device (best source per resource), kernels with "
            "hardware counters on it.</p>\n",
            htmlEscape(title));
        const auto chart = detail::htmlRooflineChart(ceilings.value(), kernels.value(), first.id);
        out << detail::rooflineSvg(chart, kernels.value(), title);
        const auto plotted = static_cast<std::int64_t>(chart.points.size());
        const auto withoutCounters = static_cast<std::int64_t>(chart.unplotted.size());
        out << "<p class=\"legend\">";
        for (const auto v : kVerdictClasses)
            out << badge(v);
        fmt::print(out,
            "</p>\n<p class=\"note\">{} kernel(s) plotted, sized by their share of GPU time; {} kernel(s) "
            "on this GPU have no FLOPs or no DRAM traffic counted (a log scale cannot show zero) and are "
            "not on the chart. Dashed lines are tensor-core peaks.</p>\n",
            plotted, withoutCounters);
    }
    writeTimeline(out, devices.value(), timeline.value());
    detail::writeHtmlCollectives(out, collectives.value());
    writeHowToRead(out);
    out << "</body>\n</html>\n";
    if (!out)
        return makeError(ErrorCode::Io, "cannot write the HTML report (disk full?)");
    return {};
}

} // namespace ridgeline::core
