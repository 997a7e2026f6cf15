// SPDX-License-Identifier: MIT
// SessionWriter's bulk records (see sessionwriterimpl.h).
#include "metricblob.h"
#include "sessionwriterimpl.h"

namespace ridgeline::core {

namespace {

constexpr const char* kInsertKernel
    = "INSERT INTO kernels(id, process_id, device_id, context_id, stream_id, correlation_id, name_id, start_ns, "
      "end_ns, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared, graph_id, "
      "graph_node_id, graph_range_kernels) "
      "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)";

} // namespace

Result<std::int64_t> SessionWriter::addKernels(std::span<const Kernel> kernels)
{
    m_impl->noteDurations("kernels", kernels);
    auto first = m_impl->insertRows("kernels", kInsertKernel, kernels, [](Statement& s, const Kernel& k) {
        bindAll(s, NewId { k.id }, k.processId, k.deviceId, k.contextId, k.streamId, k.correlationId, k.nameId,
            k.startNs, k.endNs, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.registersPerThread,
            k.staticSharedBytes, k.dynamicSharedBytes, k.graphId, k.graphNodeId, k.graphRangeKernels);
    });
    if (first.hasError()) { // some rows may stay written inside a batch
        m_impl->kernelTotalsKnown = false;
        return first;
    }
    for (const auto& k : kernels)
        m_impl->kernelTotals.add(k.nameId, k.deviceId, k.startNs, k.endNs, k.graphRangeKernels > 0);
    return first;
}

Result<std::int64_t> SessionWriter::internMetricName(std::string_view name, std::string_view unit)
{
    auto metricId = m_impl->intern(m_impl->metricNames, "metric_names", "name", name);
    if (metricId.hasError())
        return metricId.error();
    // A metric's unit is recorded once, from the first value that names it.
    if (!unit.empty() && m_impl->metricsWithUnit.insert(metricId.value()).second) {
        auto update = m_impl->statement("UPDATE metric_names SET unit = ?2 WHERE id = ?1 AND unit = ''");
        if (update.hasError())
            return update.error();
        update.value()->bind(1, metricId.value());
        update.value()->bind(2, unit);
        RIDGELINE_TRY(update.value()->run());
    }
    return metricId;
}

Status SessionWriter::setGraphRangeKernels(std::span<const std::int64_t> kernelIds, std::int64_t kernels)
{
    // The totals count a kernel as graph-level by this column: a kernel that changes side moves.
    std::vector<std::pair<KernelTotals, std::int64_t>> moved; // (name, device), +1 or -1
    auto updated = m_impl->inTransaction("kernels", [&]() -> Status {
        auto cached = m_impl->statement("UPDATE kernels SET graph_range_kernels = ?1 WHERE id = ?2");
        if (cached.hasError())
            return cached.error();
        Statement& s = *cached.value();
        for (const std::int64_t id : kernelIds) {
            auto found = m_impl->readRow(
                "SELECT name_id, device_id, graph_range_kernels FROM kernels WHERE id = ?1",
                [&](Statement& row) {
                    const bool was = row.columnInt(2) > 0;
                    if (was != (kernels > 0))
                        moved.push_back({ KernelTotals { row.columnInt(0), row.columnInt(1) }, was ? -1 : 1 });
                },
                id);
            if (found.hasError())
                return found.error();
            s.bind(1, kernels);
            s.bind(2, id);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
    if (updated.hasError()) {
        m_impl->kernelTotalsKnown = false;
        return updated;
    }
    for (const auto& [row, change] : moved)
        m_impl->kernelTotals.countGraphLevel(row.nameId, row.deviceId, change);
    return {};
}

Status SessionWriter::addMetrics(std::span<const MetricValue> metrics)
{
    return m_impl->inTransaction("kernel metrics", [&]() -> Status {
        // Per kernel, in the order given: a later value of a metric replaces an earlier one.
        std::vector<std::pair<std::int64_t, MetricById>> values;
        values.reserve(metrics.size());
        for (const auto& m : metrics) {
            auto metricId = internMetricName(m.name, m.unit);
            if (metricId.hasError())
                return metricId.error();
            values.push_back({ m.kernelId, { metricId.value(), m.value } });
        }
        std::stable_sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<MetricById> ofKernel;
        for (std::size_t i = 0; i < values.size();) {
            ofKernel.clear();
            std::size_t j = i;
            for (; j < values.size() && values[j].first == values[i].first; ++j)
                ofKernel.push_back(values[j].second);
            RIDGELINE_TRY(m_impl->putKernelMetrics(values[i].first, ofKernel));
            i = j;
        }
        return {};
    });
}

Status SessionWriter::addKernelMetrics(std::int64_t kernelId, std::span<const MetricById> values)
{
    return m_impl->inTransaction("kernel metrics", [&]() -> Status {
        std::vector<MetricById> sorted(values.begin(), values.end());
        return m_impl->putKernelMetrics(kernelId, sorted);
    });
}

Status SessionWriter::Impl::putKernelMetrics(std::int64_t kernelId, std::vector<MetricById>& values)
{
    // Sorted by id; of one id given twice the last value stays.
    std::stable_sort(
        values.begin(), values.end(), [](const auto& a, const auto& b) { return a.metricId < b.metricId; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (kept > 0 && values[kept - 1].metricId == values[i].metricId)
            values[kept - 1] = values[i];
        else
            values[kept++] = values[i];
    }
    values.resize(kept);
    if (values.empty())
        return {};
    if (!kernelsWithMetrics.insert(kernelId).second) {
        // The kernel has values already (an earlier call): merge them.
        std::vector<MetricById> stored;
        bool decoded = false;
        auto found = readRow(
            "SELECT count, data FROM metric_values WHERE kernel_id = ?1",
            [&](Statement& s) { decoded = detail::decodeMetricBlob(s.columnBlob(1), s.columnInt(0), stored); },
            kernelId);
        if (found.hasError())
            return found.error();
        if (!decoded)
            return makeError(
                ErrorCode::Internal, fmt::format("the metric values of kernel {} cannot be read back", kernelId));
        detail::mergeMetricEntries(stored, values);
        values = std::move(stored);
    }
    detail::encodeMetricBlob(values, blob);
    auto insert = statement("INSERT OR REPLACE INTO metric_values(kernel_id, count, data) VALUES(?1, ?2, ?3)");
    if (insert.hasError())
        return insert.error();
    Statement& s = *insert.value();
    s.bind(1, kernelId);
    s.bind(2, static_cast<std::int64_t>(values.size()));
    s.bindBlob(3, blob);
    return s.run();
}

Result<std::int64_t> SessionWriter::addMemOps(std::span<const MemOp> memops)
{
    m_impl->noteDurations("memops", memops);
    return m_impl->insertRows("memory operations",
        "INSERT INTO memops(id, process_id, device_id, stream_id, correlation_id, kind, bytes, start_ns, end_ns, "
        "src_device_id, dst_device_id, src_memory, dst_memory) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
        memops, [](Statement& s, const MemOp& m) {
            bindAll(s, NewId { m.id }, m.processId, m.deviceId, m.streamId, m.correlationId, toString(m.kind), m.bytes,
                m.startNs, m.endNs, m.srcDeviceId, m.dstDeviceId, m.srcMemory, m.dstMemory);
        });
}

Result<std::int64_t> SessionWriter::addApiCalls(std::span<const ApiCall> calls)
{
    m_impl->noteDurations("api_calls", calls);
    return m_impl->insertRows("API calls",
        "INSERT INTO api_calls(id, process_id, thread_id, domain_id, name_id, correlation_id, start_ns, end_ns, "
        "return_code, external_id) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
        calls, [&](Statement& s, const ApiCall& c) {
            return m_impl->bindThreadRecord(s, c, c.correlationId, c.startNs, c.endNs, c.returnCode, c.externalId);
        });
}

Result<std::int64_t> SessionWriter::addNvtxRanges(std::span<const NvtxRange> ranges)
{
    m_impl->noteDurations("nvtx_ranges", ranges);
    return m_impl->insertRows("NVTX ranges",
        "INSERT INTO nvtx_ranges(id, process_id, thread_id, domain_id, name_id, start_ns, end_ns, color, category) "
        "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
        ranges, [&](Statement& s, const NvtxRange& r) {
            return m_impl->bindThreadRecord(s, r, r.startNs, r.endNs, r.color, r.category);
        });
}

Result<std::int64_t> SessionWriter::addCommOps(std::span<const CommOp> ops)
{
    m_impl->noteDurations("comm_ops", ops);
    return m_impl->insertRows("collectives",
        "INSERT INTO comm_ops(id, kernel_id, process_id, device_id, collective, bytes, data_type, group_size, root, "
        "algorithm, protocol, process_group, start_ns, end_ns, seq) "
        "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)",
        ops, [](Statement& s, const CommOp& c) {
            bindAll(s, NewId { c.id }, c.kernelId, c.processId, c.deviceId, c.collective, c.bytes, c.dataType,
                c.groupSize, c.root, c.algorithm, c.protocol, c.processGroup, c.startNs, c.endNs, c.seq);
        });
}

Status SessionWriter::setVerdicts(std::span<const Verdict> verdicts)
{
    return withoutId(m_impl->insertRows("verdicts", detail::kInsertVerdict, verdicts, detail::bindVerdict));
}

Status SessionWriter::addNcuRules(std::span<const NcuRule> rules)
{
    return withoutId(m_impl->insertRows("ncu rule results", detail::kInsertNcuRule, rules, detail::bindNcuRule));
}

} // namespace ridgeline::core
