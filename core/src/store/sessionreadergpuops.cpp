// SPDX-License-Identifier: MIT
// The session reader's queries of recorded operations: kernels and their metrics, copies and
// memsets, API calls, NVTX ranges, collectives and verdicts (sessionreader.cpp opens the file).
#include "columnread.h"
#include "metricblob.h"
#include "sessionreaderimpl.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace ridgeline::core {

using detail::inFile;
using sqlite::Statement;

namespace {

constexpr const char* kKernelColumns
    = "id, process_id, device_id, context_id, stream_id, correlation_id, name_id, start_ns, end_ns, grid_x, grid_y, "
      "grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared, graph_id, graph_node_id, "
      "graph_range_kernels";

Kernel kernelFromRow(const Statement& s)
{
    Kernel k;
    detail::readAll(s, k.id, k.processId, k.deviceId, k.contextId, k.streamId, k.correlationId, k.nameId, k.startNs,
        k.endNs, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.registersPerThread,
        k.staticSharedBytes, k.dynamicSharedBytes, k.graphId, k.graphNodeId, k.graphRangeKernels);
    return k;
}

} // namespace

Result<std::vector<Kernel>> SessionReader::kernels(const TimeQuery& query)
{
    return m_impl->collectWindow<Kernel>("kernels", kKernelColumns, query, true, kernelFromRow);
}

Status SessionReader::forEachKernel(const TimeQuery& query, const std::function<bool(const Kernel&)>& visit)
{
    return m_impl->queryWindow(
        "kernels", kKernelColumns, query, true, [&](Statement& s) { return visit(kernelFromRow(s)); });
}

Status SessionReader::forEachKernelTiming(const std::function<void(const KernelTiming&)>& visit)
{
    return forEachKernelTiming(
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), visit);
}

Status SessionReader::forEachKernelTiming(
    std::int64_t fromId, std::int64_t toId, const std::function<void(const KernelTiming&)>& visit)
{
    return m_impl->query("SELECT device_id, name_id, start_ns, end_ns, graph_range_kernels FROM kernels WHERE id >= ?1 "
                         "AND id <= ?2",
        { fromId, toId }, [&](Statement& s) {
            visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4) });
            return true;
        });
}

Result<std::optional<std::pair<std::int64_t, std::int64_t>>> SessionReader::kernelIdRange()
{
    return idRangeOf("SELECT min(id), max(id) FROM kernels");
}

Result<std::optional<std::pair<std::int64_t, std::int64_t>>> SessionReader::memOpIdRange()
{
    return idRangeOf("SELECT min(id), max(id) FROM memops");
}

Result<std::optional<std::pair<std::int64_t, std::int64_t>>> SessionReader::idRangeOf(const char* sql)
{
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    auto status = m_impl->query(sql, {}, [&](Statement& s) {
        const auto lo = s.columnOptionalInt(0);
        const auto hi = s.columnOptionalInt(1);
        if (lo && hi)
            range = std::pair { *lo, *hi };
        return false;
    });
    if (status.hasError())
        return status.error();
    return range;
}

Result<std::optional<std::vector<KernelTotals>>> SessionReader::storedKernelTotals()
{
    bool stored = false;
    auto status = m_impl->query("SELECT 1 FROM stored_summaries WHERE name = 'kernel_totals' AND version = ?1",
        { kKernelTotalsVersion }, [&](Statement&) {
            stored = true;
            return false;
        });
    if (status.hasError())
        return status.error();
    if (!stored)
        return std::optional<std::vector<KernelTotals>>();
    std::vector<KernelTotals> rows;
    bool plausible = true;
    status = m_impl->query("SELECT name_id, device_id, launches, graph_level_launches, total_ns, min_ns, max_ns "
                           "FROM kernel_totals ORDER BY name_id, device_id",
        {}, [&](Statement& s) {
            KernelTotals t;
            detail::readAll(s, t.nameId, t.deviceId, t.launches, t.graphLevelLaunches, t.totalNs, t.minNs, t.maxNs);
            plausible = plausibleKernelTotals(t);
            rows.push_back(t);
            return plausible;
        });
    if (status.hasError())
        return status.error();
    if (!plausible)
        return std::optional<std::vector<KernelTotals>>();
    return std::optional(std::move(rows));
}

Status SessionReader::forEachKernelPlacement(const std::function<bool(const KernelPlacement&)>& visit)
{
    return forEachKernelPlacement(
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), visit);
}

Status SessionReader::forEachKernelPlacement(
    std::int64_t fromId, std::int64_t toId, const std::function<bool(const KernelPlacement&)>& visit)
{
    return m_impl->query("SELECT id, process_id, device_id, stream_id, correlation_id, name_id, start_ns, end_ns FROM "
                         "kernels WHERE id >= ?1 AND id <= ?2",
        { fromId, toId }, [&](Statement& s) {
            return visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4),
                s.columnInt(5), s.columnInt(6), s.columnInt(7) });
        });
}

Result<std::vector<MetricValue>> SessionReader::metrics(std::int64_t kernelId)
{
    auto names = m_impl->metricNames();
    if (names.hasError())
        return names.error();
    std::vector<MetricValue> out;
    std::vector<MetricById> entries;
    auto status
        = m_impl->query("SELECT count, data FROM metric_values WHERE kernel_id = ?1", { kernelId }, [&](Statement& s) {
              if (!detail::decodeMetricBlob(s.columnBlob(1), s.columnInt(0), entries))
                  return false;
              for (const auto& e : entries) {
                  if (auto it = names.value()->find(e.metricId); it != names.value()->end())
                      out.push_back({ kernelId, it->second.name, e.value, it->second.unit });
              }
              return false;
          });
    if (status.hasError())
        return status.error();
    std::sort(out.begin(), out.end(), [](const MetricValue& a, const MetricValue& b) { return a.name < b.name; });
    return out;
}

Status SessionReader::forEachMetric(const MetricVisitor& visit)
{
    return forEachMetric([](std::string_view) { return true; }, visit);
}

Status SessionReader::forEachMetric(
    const std::function<bool(std::string_view name)>& wanted, const MetricVisitor& visit)
{
    auto names = m_impl->metricNames();
    if (names.hasError())
        return names.error();
    std::unordered_map<std::int64_t, const std::string*> chosen; // metric id -> its name, when wanted
    for (const auto& [id, name] : *names.value()) {
        if (wanted(name.name))
            chosen.emplace(id, &name.name);
    }
    if (chosen.empty())
        return {};
    std::vector<MetricById> entries;
    return m_impl->query("SELECT kernel_id, count, data FROM metric_values ORDER BY kernel_id", {}, [&](Statement& s) {
        if (!detail::decodeMetricBlob(s.columnBlob(2), s.columnInt(1), entries))
            return true;
        const std::int64_t kernelId = s.columnInt(0);
        for (const auto& e : entries) {
            if (auto it = chosen.find(e.metricId); it != chosen.end())
                visit(kernelId, *it->second, e.value);
        }
        return true;
    });
}

Result<std::vector<Kernel>> SessionReader::kernelsById(const std::vector<std::int64_t>& ids)
{
    std::vector<Kernel> out;
    out.reserve(ids.size());
    RIDGELINE_TRY(m_impl->lookupEach(fmt::format("SELECT {} FROM kernels WHERE id = ?1", kKernelColumns), ids,
        [&](std::int64_t, const Statement& s) { out.push_back(kernelFromRow(s)); }));
    return out;
}

Result<std::vector<Kernel>> SessionReader::kernelsOfName(std::int64_t nameId, std::int64_t deviceId)
{
    return m_impl->collect<Kernel>(
        fmt::format("SELECT {} FROM kernels WHERE name_id = ?1 AND device_id = ?2 ORDER BY start_ns", kKernelColumns),
        { nameId, deviceId }, kernelFromRow);
}

namespace {

constexpr const char* kMemOpColumns
    = "id, process_id, device_id, stream_id, correlation_id, kind, bytes, start_ns, end_ns, src_device_id, "
      "dst_device_id, src_memory, dst_memory";

MemOp memOpFromRow(const Statement& s)
{
    MemOp m;
    std::string kind;
    detail::readAll(s, m.id, m.processId, m.deviceId, m.streamId, m.correlationId, kind, m.bytes, m.startNs, m.endNs,
        m.srcDeviceId, m.dstDeviceId, m.srcMemory, m.dstMemory);
    m.kind = memOpKindFromString(kind).value_or(MemOpKind::Other);
    return m;
}

} // namespace

Result<std::vector<MemOp>> SessionReader::memOps(const TimeQuery& query)
{
    return m_impl->collectWindow<MemOp>("memops", kMemOpColumns, query, true, memOpFromRow);
}

Status SessionReader::forEachMemOpPlacement(const std::function<bool(const MemOpPlacement&)>& visit)
{
    // The kind's text is read in place (the few kinds are parsed without a string per row).
    return m_impl->query(
        "SELECT id, process_id, device_id, stream_id, correlation_id, kind, start_ns, end_ns FROM memops", {},
        [&](Statement& s) {
            return visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4),
                memOpKindFromString(s.columnBlob(5)).value_or(MemOpKind::Other), s.columnInt(6), s.columnInt(7) });
        });
}

namespace {

constexpr const char* kApiCallColumns
    = "id, process_id, thread_id, (SELECT value FROM strings WHERE id = domain_id), "
      "(SELECT value FROM strings WHERE id = name_id), correlation_id, start_ns, end_ns, return_code, external_id";

ApiCall apiCallFromRow(const Statement& s)
{
    return ApiCall { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnText(3), s.columnText(4), s.columnInt(5),
        s.columnInt(6), s.columnInt(7), s.columnInt(8), s.columnInt(9) };
}

} // namespace

Result<std::vector<ApiCall>> SessionReader::apiCalls(const TimeQuery& query)
{
    return m_impl->collectWindow<ApiCall>("api_calls", kApiCallColumns, query, false, apiCallFromRow);
}

Result<std::optional<ApiCall>> SessionReader::launchingCall(const Kernel& kernel)
{
    if (kernel.correlationId == 0) // 0: not recorded
        return std::optional<ApiCall> {};
    auto calls = m_impl->collect<ApiCall>(fmt::format("SELECT {} FROM api_calls WHERE process_id = ?1 AND "
                                                      "correlation_id = ?2 ORDER BY start_ns, id LIMIT 1",
                                              kApiCallColumns),
        { kernel.processId, kernel.correlationId }, apiCallFromRow);
    if (calls.hasError())
        return calls.error();
    if (calls.value().empty())
        return std::optional<ApiCall> {};
    return std::optional<ApiCall>(std::move(calls.value().front()));
}

Result<LaunchDelays> SessionReader::launchDelays(std::int64_t nameId, std::int64_t deviceId)
{
    // The earliest call of the launch's process with its correlation id, per launch; launches
    // without one drop out of the aggregates (NULL delays).
    LaunchDelays out;
    auto status
        = m_impl->query("SELECT count(delay), avg(delay), min(delay), max(delay), avg(call) FROM ("
                        " SELECT k.start_ns - c.start_ns AS delay, c.end_ns - c.start_ns AS call FROM kernels k"
                        " JOIN api_calls c ON c.id = (SELECT id FROM api_calls a WHERE a.process_id = k.process_id"
                        "  AND a.correlation_id = k.correlation_id ORDER BY a.start_ns, a.id LIMIT 1)"
                        " WHERE k.name_id = ?1 AND k.device_id = ?2 AND k.correlation_id <> 0)",
            { nameId, deviceId }, [&out](Statement& s) {
                out.launches = s.columnInt(0);
                if (out.launches > 0) {
                    out.averageNs = s.columnDouble(1);
                    out.minNs = s.columnInt(2);
                    out.maxNs = s.columnInt(3);
                    out.averageCallNs = s.columnDouble(4);
                }
                return false;
            });
    if (status.hasError())
        return status.error();
    return out;
}

Result<std::vector<NvtxRange>> SessionReader::nvtxRanges(const TimeQuery& query)
{
    return m_impl->collectWindow<NvtxRange>("nvtx_ranges",
        "id, process_id, thread_id, (SELECT value FROM strings WHERE id = domain_id), "
        "(SELECT value FROM strings WHERE id = name_id), start_ns, end_ns, color, category",
        query, false, [](Statement& s) {
            return NvtxRange { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnText(3), s.columnText(4),
                s.columnInt(5), s.columnInt(6), static_cast<std::uint32_t>(s.columnInt(7)), s.columnInt(8) };
        });
}

namespace {

constexpr const char* kCommOpColumns
    = "id, kernel_id, process_id, device_id, collective, bytes, data_type, group_size, root, algorithm, protocol, "
      "process_group, start_ns, end_ns, seq";

CommOp commOpFromRow(const Statement& s)
{
    CommOp c;
    detail::readAll(s, c.id, c.kernelId, c.processId, c.deviceId, c.collective, c.bytes, c.dataType, c.groupSize,
        c.root, c.algorithm, c.protocol, c.processGroup, c.startNs, c.endNs, c.seq);
    return c;
}

} // namespace

Result<std::vector<CommOp>> SessionReader::commOps(const TimeQuery& query)
{
    return m_impl->collectWindow<CommOp>("comm_ops", kCommOpColumns, query, true, commOpFromRow);
}

Result<std::vector<Verdict>> SessionReader::verdicts()
{
    return m_impl->collect<Verdict>(
        "SELECT kernel_id, verdict, bound_by, utilization, reason FROM verdicts ORDER BY kernel_id", {},
        [](Statement& s) {
            return Verdict { s.columnInt(0), verdictClassFromString(s.columnText(1)), s.columnText(2),
                s.columnOptionalDouble(3), s.columnText(4) };
        });
}

Result<std::vector<NcuRule>> SessionReader::ncuRules(std::optional<std::int64_t> kernelId)
{
    // Texts are cut in SQL (a hostile file's megabyte message is never loaded); a speedup that is
    // not a number of 0 to 100 % reads as none; rules of kernels the session lacks are left out.
    // `check` reports all three. EXISTS looks each rule's kernel up by id: `IN (SELECT id FROM
    // kernels)` built a set of every kernel id first, 1.3 s of opening a session of 10 M ops that
    // has no rules at all.
    const std::string sql = fmt::format(
        "SELECT kernel_id, substr(identifier, 1, {0}), substr(name, 1, {0}), substr(section, 1, {0}), "
        "substr(type, 1, {0}), substr(message, 1, {1}), substr(speedup_type, 1, {0}), "
        "CASE WHEN typeof(speedup_pct) IN ('integer', 'real') AND speedup_pct >= 0 AND speedup_pct <= {2} "
        "THEN speedup_pct END FROM ncu_rules WHERE EXISTS (SELECT 1 FROM kernels WHERE kernels.id = "
        "ncu_rules.kernel_id){3} "
        "ORDER BY kernel_id, rowid",
        kNcuRuleMaxLabel, kNcuRuleMaxMessage, kNcuMaxSpeedupPct, kernelId ? " AND kernel_id = ?1" : "");
    std::vector<std::int64_t> args;
    if (kernelId)
        args.push_back(*kernelId);
    return m_impl->collect<NcuRule>(sql, args, [](Statement& s) {
        NcuRule r;
        r.kernelId = s.columnInt(0);
        r.identifier = s.columnText(1);
        r.name = s.columnText(2);
        r.section = s.columnText(3);
        r.type = s.columnText(4);
        r.message = s.columnText(5);
        r.speedupPct = s.columnOptionalDouble(7);
        if (r.speedupPct)
            r.speedupType = s.columnText(6);
        return r;
    });
}

} // namespace ridgeline::core
