// SPDX-License-Identifier: MIT
#include "ridgeline/core/store/sessioncheck.h"

#include "base/takevalue.h"
#include "ridgeline/core/base/slurmjob.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sqlite.h"
#include "sessionvalues.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace ridgeline::core {

namespace {

std::string metaOr(const SessionCheck& check, const char* key, const char* fallback)
{
    auto it = check.meta.find(key);
    return it == check.meta.end() || it->second.empty() ? fallback : it->second;
}

// "slurm job:     4242, step 0, task 3 on node 1", of what the session keeps (core/base/slurmjob.h).
void writeSlurmJob(std::ostream& out, const SessionCheck& c)
{
    std::string job;
    const auto add = [&](const char* key, std::string_view label) {
        if (auto it = c.meta.find(key); it != c.meta.end() && !it->second.empty())
            job += fmt::format("{}{}{}", job.empty() || label.starts_with(' ') ? "" : ", ", label, it->second);
    };
    add(metakey::SlurmJobId, "");
    add(metakey::SlurmStepId, "step ");
    add(metakey::SlurmProcId, "task ");
    add(metakey::SlurmNodeId, " on node ");
    if (!job.empty())
        fmt::print(out, "  slurm job:     {}\n", job);
}

void writeText(std::ostream& out, const SessionCheck& c)
{
    const auto& n = c.counts;
    fmt::print(out, "{}\n", c.path);
    fmt::print(out, "  schema:        v{}{}\n", c.fileSchemaVersion,
        c.fileSchemaVersion == kSchemaVersion ? " (current)"
                                              : fmt::format(" (migrated to v{} when read)", kSchemaVersion));
    fmt::print(
        out, "  status:        {}\n", c.complete() ? "complete" : "partial (the capture or import did not finish)");
    fmt::print(out, "  written by:    Ridgeline {} on {} at {}\n", metaOr(c, metakey::ToolVersion, "?"),
        metaOr(c, metakey::Host, "an unknown host"), metaOr(c, metakey::CreatedAt, "an unknown time"));
    fmt::print(out, "  source:        {}\n", metaOr(c, metakey::Source, "unknown"));
    if (auto origin = c.meta.find(metakey::Origin); origin != c.meta.end() && !origin->second.empty())
        fmt::print(out, "  origin:        {}\n", origin->second);
    writeSlurmJob(out, c);
    fmt::print(out, "  devices:       {}\n", n.devices);
    for (const auto& d : c.devices) {
        fmt::print(out, "    [{}] {} (CC {}.{}, {} SMs{}{})\n", d.id, d.name, d.ccMajor, d.ccMinor, d.smCount,
            d.memoryBytes > 0 ? ", " + formatBytes(static_cast<double>(d.memoryBytes)) : std::string(),
            d.host.empty() ? std::string() : ", host " + d.host);
    }
    fmt::print(out, "  processes:     {} ({} threads)\n", formatCount(n.processes), formatCount(n.threads));
    fmt::print(out, "  kernels:       {} launches of {} kernels\n", formatCount(n.kernels), formatCount(n.kernelNames));
    fmt::print(out, "  memcpy:        {}\n", formatCount(n.memcpys));
    fmt::print(out, "  memset:        {}\n", formatCount(n.memsets));
    fmt::print(out, "  collectives:   {}\n", formatCount(n.commOps));
    fmt::print(out, "  API calls:     {}\n", formatCount(n.apiCalls));
    fmt::print(out, "  NVTX ranges:   {}\n", formatCount(n.nvtxRanges));
    fmt::print(out, "  metrics:       {} values\n", formatCount(n.metrics));
    fmt::print(out, "  ceilings:      {}\n", formatCount(n.ceilings));
    fmt::print(out, "  verdicts:      {}\n", formatCount(n.verdicts));
    if (n.ncuRules > 0)
        fmt::print(out, "  ncu estimates: {} rule results\n", formatCount(n.ncuRules));
    if (c.span.empty)
        fmt::print(out, "  time span:     no GPU activity\n");
    else
        fmt::print(out, "  time span:     {} (first GPU op start to last end)\n",
            formatDuration(static_cast<double>(c.span.durationNs())));
    if (c.problems.empty()) {
        fmt::print(out, "  integrity:     ok\n");
    } else {
        fmt::print(out, "  integrity:     DAMAGED ({} problems)\n", c.problems.size());
        for (const auto& p : c.problems)
            fmt::print(out, "    {}\n", p);
    }
    if (!c.problems.empty())
        return;
    if (c.warnings.empty()) {
        fmt::print(out, "  values:        ok\n");
        return;
    }
    std::int64_t total = 0;
    for (const auto& w : c.warnings)
        total += w.count;
    fmt::print(out,
        "  values:        {} warning{} ({} kind{}; the file reads, figures from these records are suspect)\n",
        formatCount(total), total == 1 ? "" : "s", c.warnings.size(), c.warnings.size() == 1 ? "" : "s");
    for (const auto& w : c.warnings) {
        fmt::print(out, "    {}: {}\n", w.what, formatCount(w.count));
        for (const auto& e : w.examples)
            fmt::print(out, "      e.g. {}\n", e);
    }
}

void writeJson(std::ostream& out, const SessionCheck& c)
{
    using nlohmann::json;
    const auto& n = c.counts;
    json devices = json::array();
    for (const auto& d : c.devices)
        devices.push_back({ { "id", d.id }, { "name", d.name }, { "host", d.host },
            { "compute_capability", fmt::format("{}.{}", d.ccMajor, d.ccMinor) }, { "sm_count", d.smCount } });
    json warnings = json::array();
    for (const auto& w : c.warnings)
        warnings.push_back(
            { { "kind", w.kind }, { "what", w.what }, { "count", w.count }, { "examples", w.examples } });
    json meta = json::object();
    for (const auto& [key, value] : c.meta)
        meta[key] = value;
    const json doc = {
        { "path", c.path },
        { "schema_version", c.fileSchemaVersion },
        { "status", c.complete() ? "complete" : "partial" },
        { "valid", c.problems.empty() },
        { "problems", c.problems },
        { "warnings", warnings },
        { "meta", meta },
        { "devices", devices },
        { "counts",
            { { "devices", n.devices }, { "processes", n.processes }, { "threads", n.threads },
                { "kernel_names", n.kernelNames }, { "kernels", n.kernels }, { "memcpy", n.memcpys },
                { "memset", n.memsets }, { "collectives", n.commOps }, { "api_calls", n.apiCalls },
                { "nvtx_ranges", n.nvtxRanges }, { "metrics", n.metrics }, { "ceilings", n.ceilings },
                { "verdicts", n.verdicts }, { "ncu_rules", n.ncuRules } } },
        { "span_ns", c.span.durationNs() },
        { "start_ns", c.span.empty ? json(nullptr) : json(c.span.startNs) },
        { "end_ns", c.span.empty ? json(nullptr) : json(c.span.endNs) },
    };
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace

bool SessionCheck::complete() const
{
    auto it = meta.find(metakey::Status);
    return it != meta.end() && it->second == "complete";
}

Result<std::vector<ValueWarning>> checkSessionValues(const std::string& path, const std::function<bool()>& cancelled)
{
    // Through a reader: the schema is validated, and an older file is checked in its migrated copy.
    auto reader = SessionReader::open(path);
    if (reader.hasError())
        return reader.error();
    sqlite3* db = reader.value().database().handle();
    if (cancelled) {
        // A non-zero return interrupts the statement running; the reader is dropped below.
        sqlite3_progress_handler(
            db, 100'000, [](void* poll) -> int { return (*static_cast<const std::function<bool()>*>(poll))() ? 1 : 0; },
            const_cast<std::function<bool()>*>(&cancelled));
    }
    auto warnings = checkSessionValues(reader.value().database());
    if (cancelled)
        sqlite3_progress_handler(db, 0, nullptr, nullptr);
    if (cancelled && cancelled())
        return makeError(ErrorCode::InvalidArgument, "The value checks were cancelled.");
    if (warnings.hasError())
        return makeError(ErrorCode::BadFile, fmt::format("{}: {}", path, warnings.error().message));
    return warnings;
}

Result<SessionCheck> checkSession(const std::string& path)
{
    auto reader = SessionReader::open(path);
    if (reader.hasError())
        return reader.error();
    return checkSession(reader.value());
}

Result<SessionCheck> checkSession(SessionReader& r)
{
    SessionCheck check;
    check.path = r.path();
    check.fileSchemaVersion = r.fileSchemaVersion();
    // Integrity first: counting a damaged file could fail half way with a vaguer message.
    RIDGELINE_TRY(detail::takeValue(r.integrityProblems(), check.problems));
    if (!check.problems.empty())
        return check;
    RIDGELINE_TRY(detail::takeValue(r.meta(), check.meta));
    RIDGELINE_TRY(detail::takeValue(r.devices(), check.devices));
    RIDGELINE_TRY(detail::takeValue(r.counts(), check.counts));
    RIDGELINE_TRY(detail::takeValue(r.gpuTimeSpan(), check.span));
    // The value checks on the same (validated, migrated when older) database.
    auto warnings = checkSessionValues(r.database());
    if (warnings.hasError())
        return makeError(ErrorCode::BadFile, fmt::format("{}: {}", r.path(), warnings.error().message));
    check.warnings = std::move(warnings).value();
    return check;
}

void writeSessionCheck(std::ostream& out, const SessionCheck& check, bool json)
{
    if (json)
        writeJson(out, check);
    else
        writeText(out, check);
}

} // namespace ridgeline::core
