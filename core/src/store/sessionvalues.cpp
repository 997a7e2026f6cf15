// SPDX-License-Identifier: MIT
// The value checks of `ridgeline check`: what a well-formed SQLite file can still hold that no
// Ridgeline writer produces (columns are not STRICT, so any value fits any column).
#include "sessionvalues.h"

#include "metricblob.h"
#include "ridgeline/core/store/kerneltotals.h"
#include "rowloop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <map>
#include <unordered_set>

namespace ridgeline::core {

namespace {

struct ValueRule {
    const char* kind; // stable key, used by --json
    const char* what; // one line for a person
    const char* sql; // one row per offending record: a short example description
};

// Times: every time column must be an integer; then non-negative; then end >= start.
#define RL_TIMES(table)                                                                                                \
    ValueRule { "non_integer_time", "ops with a time that is not an integer",                                          \
        "SELECT printf('" table " id %s: start_ns = %s, end_ns = %s', id, quote(start_ns), quote(end_ns)) FROM " table \
        " WHERE typeof(start_ns) <> 'integer' OR typeof(end_ns) <> 'integer'" },                                       \
        ValueRule { "negative_time", "ops with a negative time",                                                       \
            "SELECT printf('" table " id %d: start_ns = %d, end_ns = %d', id, start_ns, end_ns) FROM " table           \
            " WHERE typeof(start_ns) = 'integer' AND typeof(end_ns) = 'integer' AND (start_ns < 0 OR end_ns < 0)" },   \
        ValueRule                                                                                                      \
    {                                                                                                                  \
        "end_before_start", "ops that end before they start",                                                          \
            "SELECT printf('" table " id %d: start_ns = %d, end_ns = %d', id, start_ns, end_ns) FROM " table           \
            " WHERE typeof(start_ns) = 'integer' AND typeof(end_ns) = 'integer' AND start_ns >= 0 AND end_ns >= 0"     \
            " AND end_ns < start_ns"                                                                                   \
    }

// An id column that must name a row of another table.
#define RL_REF(table, key, column, target, kindWord)                                                                   \
    ValueRule                                                                                                          \
    {                                                                                                                  \
        "dangling_id", "ids that point at nothing",                                                                    \
            "SELECT printf('" table " " key " %s: " column " = %s (no such " kindWord ")', quote(" key                 \
            "), quote(" column "))"                                                                                    \
            " FROM " table " WHERE " column " IS NOT NULL AND " column " NOT IN (SELECT id FROM " target ")"           \
    }

// The longest op of a table (of those with integer times; SQLite turns an overflowing difference
// into a real) against the record of it in meta.
#define RL_LONGEST(table)                                                                                              \
    ValueRule                                                                                                          \
    {                                                                                                                  \
        "short_max_duration", "recorded longest-op durations shorter than an op (windowed reads miss ops)",            \
            "SELECT printf('meta %s = %s, but the longest op of " table " lasts %s ns', key, quote(value), longest)"   \
            " FROM (SELECT max(end_ns - start_ns) AS longest FROM " table                                              \
            " WHERE typeof(start_ns) = 'integer' AND typeof(end_ns) = 'integer')"                                      \
            " JOIN meta ON key = 'max_duration_ns." table "' WHERE longest > max(CAST(value AS INTEGER), 0)"           \
    }

const std::array kRules {
    RL_TIMES("kernels"),
    RL_TIMES("memops"),
    RL_TIMES("api_calls"),
    RL_TIMES("nvtx_ranges"),
    RL_TIMES("comm_ops"),
    RL_REF("kernels", "id", "name_id", "kernel_names", "kernel name"),
    RL_REF("kernels", "id", "device_id", "devices", "device"),
    RL_REF("kernels", "id", "process_id", "processes", "process"),
    RL_REF("memops", "id", "device_id", "devices", "device"),
    RL_REF("memops", "id", "process_id", "processes", "process"),
    RL_REF("memops", "id", "src_device_id", "devices", "device"),
    RL_REF("memops", "id", "dst_device_id", "devices", "device"),
    RL_REF("comm_ops", "id", "device_id", "devices", "device"),
    RL_REF("comm_ops", "id", "process_id", "processes", "process"),
    RL_REF("comm_ops", "id", "kernel_id", "kernels", "kernel"),
    RL_REF("api_calls", "id", "process_id", "processes", "process"),
    RL_REF("api_calls", "id", "name_id", "strings", "string"),
    RL_REF("api_calls", "id", "domain_id", "strings", "string"),
    RL_REF("nvtx_ranges", "id", "process_id", "processes", "process"),
    RL_REF("nvtx_ranges", "id", "name_id", "strings", "string"),
    RL_REF("nvtx_ranges", "id", "domain_id", "strings", "string"),
    RL_REF("threads", "id", "process_id", "processes", "process"),
    RL_REF("metric_values", "kernel_id", "kernel_id", "kernels", "kernel"),
    RL_REF("verdicts", "kernel_id", "kernel_id", "kernels", "kernel"),
    RL_REF("ncu_rules", "kernel_id", "kernel_id", "kernels", "kernel"),
    RL_REF("ceilings", "resource", "device_id", "devices", "device"),
    ValueRule { "dangling_id", "ids that point at nothing",
        "SELECT printf('%s id %d: stream_id = %s (not a stream)', t, id, quote(stream_id)) FROM ("
        "SELECT 'kernels' AS t, id, stream_id FROM kernels UNION ALL SELECT 'memops', id, stream_id FROM memops)"
        " WHERE typeof(stream_id) <> 'integer' OR stream_id < 0" },
    // NaN cannot be stored as a REAL (SQLite turns it into NULL), so a NaN arrives as NULL or text;
    // infinity is a REAL beyond the largest double. (Kernel metrics are packed: checkMetricValues.)
    ValueRule { "non_finite_metric", "NaN or infinite metric values",
        "SELECT printf('ceiling %s of device %s: value = %s', quote(resource), quote(device_id), quote(value))"
        " FROM ceilings WHERE typeof(value) NOT IN ('integer', 'real') OR abs(value) > 1.7976931348623157e308" },
    ValueRule { "non_finite_metric", "NaN or infinite metric values",
        "SELECT printf('verdict of kernel %s: utilization = %s', quote(kernel_id), quote(utilization))"
        " FROM verdicts WHERE utilization IS NOT NULL AND (typeof(utilization) NOT IN ('integer', 'real')"
        " OR abs(utilization) > 1.7976931348623157e308)" },
    // Nsight Compute's rule results: readers cut their texts and read such a speedup as none.
    ValueRule { "bad_ncu_rule", "ncu rule results with a speedup that is not 0 to 100 % or with text too long (cut)",
        "SELECT printf('ncu rule %s of kernel %s: speedup_pct = %s, %d bytes of message',"
        " quote(substr(identifier, 1, 64)), quote(kernel_id), quote(speedup_pct), length(CAST(message AS BLOB)))"
        " FROM ncu_rules WHERE (speedup_pct IS NOT NULL AND (typeof(speedup_pct) NOT IN ('integer', 'real')"
        " OR speedup_pct < 0 OR speedup_pct > 100)) OR length(CAST(message AS BLOB)) > 4096"
        " OR length(CAST(identifier AS BLOB)) > 256 OR length(CAST(name AS BLOB)) > 256"
        " OR length(CAST(section AS BLOB)) > 256 OR length(CAST(type AS BLOB)) > 256"
        " OR length(CAST(speedup_type AS BLOB)) > 256" },
    ValueRule { "zero_sized_grid", "kernel launches with a zero-sized grid or block",
        "SELECT printf('kernels id %d: grid %sx%sx%s, block %sx%sx%s', id, quote(grid_x), quote(grid_y),"
        " quote(grid_z), quote(block_x), quote(block_y), quote(block_z)) FROM kernels"
        " WHERE NOT (typeof(grid_x) = 'integer' AND grid_x > 0 AND typeof(grid_y) = 'integer' AND grid_y > 0"
        " AND typeof(grid_z) = 'integer' AND grid_z > 0 AND typeof(block_x) = 'integer' AND block_x > 0"
        " AND typeof(block_y) = 'integer' AND block_y > 0 AND typeof(block_z) = 'integer' AND block_z > 0)" },
    // Work on one stream runs in order: an op that starts before an earlier op on its stream ended
    // overlaps it. Ops with bad times are reported above and left out here.
    ValueRule { "stream_overlap", "overlapping ops on one stream",
        "SELECT printf('%s id %d starts at %d, before an earlier op on device %d stream %d ends (%d)', t, id,"
        " start_ns, device_id, stream_id, prev_end) FROM ("
        "SELECT t, id, device_id, stream_id, start_ns, max(end_ns) OVER (PARTITION BY device_id, stream_id"
        " ORDER BY start_ns, end_ns ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end FROM ("
        "SELECT 'kernels' AS t, id, device_id, stream_id, start_ns, end_ns FROM kernels"
        " UNION ALL SELECT 'memops', id, device_id, stream_id, start_ns, end_ns FROM memops)"
        " WHERE typeof(start_ns) = 'integer' AND typeof(end_ns) = 'integer' AND start_ns >= 0 AND end_ns >= start_ns)"
        " WHERE start_ns < prev_end" },
    // finish() records each table's longest op in meta; a windowed read (report --window, the app's
    // timeline) looks back that far for ops that started before the window, so a shorter record
    // silently leaves out ops that overlap the window's start.
    RL_LONGEST("kernels"),
    RL_LONGEST("memops"),
    RL_LONGEST("api_calls"),
    RL_LONGEST("nvtx_ranges"),
    RL_LONGEST("comm_ops"),
};

#undef RL_TIMES
#undef RL_REF
#undef RL_LONGEST

// One more finding of `kind` (added to its entry, or a new one).
void note(std::vector<ValueWarning>& out, const char* kind, const char* what, std::string example,
    std::size_t examplesPerKind)
{
    auto it = std::find_if(out.begin(), out.end(), [&](const ValueWarning& w) { return w.kind == kind; });
    if (it == out.end()) {
        out.push_back(ValueWarning { kind, what, 0, {} });
        it = std::prev(out.end());
    }
    ++it->count;
    if (it->examples.size() < examplesPerKind)
        it->examples.push_back(std::move(example));
}

// The packed metric values (metricblob.h): rows that cannot be decoded, ids with no name, and
// values that are not finite.
Status checkMetricValues(sqlite::Database& db, std::size_t examplesPerKind, std::vector<ValueWarning>& out)
{
    std::unordered_set<std::int64_t> named;
    auto names = db.prepareCached("SELECT id FROM metric_names");
    if (names.hasError())
        return names.error();
    RIDGELINE_TRY(detail::forEachRow(*names.value(), [&](sqlite::Statement& s) { named.insert(s.columnInt(0)); }));
    auto rows = db.prepareCached("SELECT kernel_id, count, data, typeof(data) FROM metric_values ORDER BY kernel_id");
    if (rows.hasError())
        return rows.error();
    std::vector<detail::MetricEntry> entries;
    return detail::forEachRow(*rows.value(), [&](sqlite::Statement& s) {
        const auto kernel = s.columnText(0);
        if (s.columnText(3) != "blob" || !detail::decodeMetricBlob(s.columnBlob(2), s.columnInt(1), entries)) {
            note(out, "damaged_metrics", "kernels whose metric values cannot be decoded (left out)",
                fmt::format("kernel {}: {} values announced in {} bytes that do not hold them", kernel, s.columnText(1),
                    s.columnBlob(2).size()),
                examplesPerKind);
            return;
        }
        for (const auto& e : entries) {
            if (!named.contains(e.metricId))
                note(out, "dangling_id", "ids that point at nothing",
                    fmt::format("metric_values kernel_id {}: metric_id = {} (no such metric name)", kernel, e.metricId),
                    examplesPerKind);
            if (!std::isfinite(e.value))
                note(out, "non_finite_metric", "NaN or infinite metric values",
                    fmt::format("kernel {}, metric {}: value = {}", kernel, e.metricId, e.value), examplesPerKind);
        }
    });
}

// The kernel totals the writer stored (kerneltotals.h) against those of the kernels themselves:
// the kernel table and `report` read the stored ones.
Status checkKernelTotals(sqlite::Database& db, std::size_t examplesPerKind, std::vector<ValueWarning>& out)
{
    auto registered = db.prepareCached("SELECT version FROM stored_summaries WHERE name = 'kernel_totals'");
    if (registered.hasError())
        return registered.error();
    bool registeredTotals = false;
    RIDGELINE_TRY(detail::forEachRow(*registered.value(), [&](sqlite::Statement& s) {
        registeredTotals = registeredTotals || s.columnInt(0) == kKernelTotalsVersion; // another: not read
    }));
    if (!registeredTotals)
        return {};
    KernelTotalsBuilder scanned;
    auto kernels = db.prepareCached("SELECT name_id, device_id, start_ns, end_ns, graph_range_kernels FROM kernels");
    if (kernels.hasError())
        return kernels.error();
    RIDGELINE_TRY(detail::forEachRow(*kernels.value(), [&](sqlite::Statement& s) {
        scanned.add(s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4) > 0);
    }));
    std::map<std::pair<std::int64_t, std::int64_t>, KernelTotals> expected;
    for (const auto& row : scanned.rows())
        expected.emplace(std::pair { row.nameId, row.deviceId }, row);
    const auto describe = [](const KernelTotals& t) {
        return fmt::format("{} launches ({} graph-level), {} ns in all, {} to {} ns", t.launches, t.graphLevelLaunches,
            t.totalNs, t.minNs, t.maxNs);
    };
    const auto differ = [&](std::int64_t nameId, std::int64_t deviceId, const std::string& stored,
                            const std::string& actual) {
        note(out, "stale_kernel_totals", "stored kernel totals that differ from the kernels (the tables show them)",
            fmt::format("kernel name {} on device {}: stored {}; the kernels: {}", nameId, deviceId, stored, actual),
            examplesPerKind);
    };
    auto rows = db.prepareCached(
        "SELECT name_id, device_id, launches, graph_level_launches, total_ns, min_ns, max_ns FROM kernel_totals");
    if (rows.hasError())
        return rows.error();
    RIDGELINE_TRY(detail::forEachRow(*rows.value(), [&](sqlite::Statement& s) {
        const KernelTotals t { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4),
            s.columnInt(5), s.columnInt(6) };
        auto it = expected.find({ t.nameId, t.deviceId });
        if (it == expected.end())
            differ(t.nameId, t.deviceId, describe(t), "none");
        else if (it->second != t)
            differ(t.nameId, t.deviceId, describe(t), describe(it->second));
        if (it != expected.end())
            expected.erase(it);
    }));
    for (const auto& [key, t] : expected)
        differ(key.first, key.second, "none", describe(t));
    return {};
}

} // namespace

Result<std::vector<ValueWarning>> checkSessionValues(sqlite::Database& db, std::size_t examplesPerKind)
{
    std::vector<ValueWarning> out;
    for (const auto& rule : kRules) {
        // Prepared once per connection: a session kept open and checked again (the row-editing fuzz
        // targets) does not compile the rules again.
        auto stmt = db.prepareCached(rule.sql);
        if (stmt.hasError())
            return stmt.error();
        ValueWarning* warning = nullptr;
        for (auto& w : out)
            if (w.kind == rule.kind)
                warning = &w;
        RIDGELINE_TRY(detail::forEachRow(*stmt.value(), [&](sqlite::Statement& s) {
            if (warning == nullptr) {
                out.push_back(ValueWarning { rule.kind, rule.what, 0, {} });
                warning = &out.back();
            }
            ++warning->count;
            if (warning->examples.size() < examplesPerKind)
                warning->examples.push_back(s.columnText(0));
        }));
    }
    RIDGELINE_TRY(checkMetricValues(db, examplesPerKind, out));
    RIDGELINE_TRY(checkKernelTotals(db, examplesPerKind, out));
    return out;
}

} // namespace ridgeline::core
