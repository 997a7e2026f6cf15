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
    return m_impl->inTransaction("kernels", [&]() -> Result<std::int64_t> {
        auto cached = m_impl->statement(kInsertKernel);
        if (cached.hasError())
            return cached.error();
        Statement& s = *cached.value();
        std::int64_t first = 0;
        for (const auto& k : kernels) {
            bindId(s, 1, k.id);
            s.bind(2, k.processId);
            s.bind(3, k.deviceId);
            s.bind(4, k.contextId);
            s.bind(5, k.streamId);
            s.bind(6, k.correlationId);
            s.bind(7, k.nameId);
            s.bind(8, k.startNs);
            s.bind(9, k.endNs);
            s.bind(10, k.grid.x);
            s.bind(11, k.grid.y);
            s.bind(12, k.grid.z);
            s.bind(13, k.block.x);
            s.bind(14, k.block.y);
            s.bind(15, k.block.z);
            s.bind(16, k.registersPerThread);
            s.bind(17, k.staticSharedBytes);
            s.bind(18, k.dynamicSharedBytes);
            s.bind(19, k.graphId);
            s.bind(20, k.graphNodeId);
            s.bind(21, k.graphRangeKernels);
            RIDGELINE_TRY(s.run());
            if (first == 0)
                first = m_impl->db.lastInsertRowid();
        }
        return first;
    });
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
    return m_impl->inTransaction("kernels", [&]() -> Status {
        auto cached = m_impl->statement("UPDATE kernels SET graph_range_kernels = ?1 WHERE id = ?2");
        if (cached.hasError())
            return cached.error();
        Statement& s = *cached.value();
        for (const std::int64_t id : kernelIds) {
            s.bind(1, kernels);
            s.bind(2, id);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
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
        auto select = statement("SELECT count, data FROM metric_values WHERE kernel_id = ?1");
        if (select.hasError())
            return select.error();
        Statement& s = *select.value();
        s.bind(1, kernelId);
        auto row = s.step();
        if (row.hasError()) {
            s.reset();
            return row.error();
        }
        std::vector<MetricById> stored;
        const bool decoded
            = row.value() == Statement::Step::Row && detail::decodeMetricBlob(s.columnBlob(1), s.columnInt(0), stored);
        s.reset();
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
    return m_impl->inTransaction("memory operations", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->db.prepare(
            "INSERT INTO memops(id, process_id, device_id, stream_id, correlation_id, kind, bytes, start_ns, end_ns, "
            "src_device_id, dst_device_id, src_memory, dst_memory) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)");
        if (stmt.hasError())
            return stmt.error();
        std::int64_t first = 0;
        for (const auto& m : memops) {
            auto& s = stmt.value();
            bindId(s, 1, m.id);
            s.bind(2, m.processId);
            s.bind(3, m.deviceId);
            s.bind(4, m.streamId);
            s.bind(5, m.correlationId);
            s.bind(6, toString(m.kind));
            s.bind(7, m.bytes);
            s.bind(8, m.startNs);
            s.bind(9, m.endNs);
            s.bind(10, m.srcDeviceId);
            s.bind(11, m.dstDeviceId);
            s.bind(12, m.srcMemory);
            s.bind(13, m.dstMemory);
            RIDGELINE_TRY(s.run());
            if (first == 0)
                first = m_impl->db.lastInsertRowid();
        }
        return first;
    });
}

Result<std::int64_t> SessionWriter::addApiCalls(std::span<const ApiCall> calls)
{
    m_impl->noteDurations("api_calls", calls);
    return m_impl->inTransaction("API calls", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->db.prepare("INSERT INTO api_calls(id, process_id, thread_id, domain_id, name_id, "
                                       "correlation_id, start_ns, end_ns, return_code, external_id) "
                                       "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
        if (stmt.hasError())
            return stmt.error();
        std::int64_t first = 0;
        for (const auto& c : calls) {
            auto domain = m_impl->internString(c.domain);
            auto name = m_impl->internString(c.name);
            if (domain.hasError())
                return domain.error();
            if (name.hasError())
                return name.error();
            auto& s = stmt.value();
            bindId(s, 1, c.id);
            s.bind(2, c.processId);
            s.bind(3, c.threadId);
            s.bind(4, domain.value());
            s.bind(5, name.value());
            s.bind(6, c.correlationId);
            s.bind(7, c.startNs);
            s.bind(8, c.endNs);
            s.bind(9, c.returnCode);
            s.bind(10, c.externalId);
            RIDGELINE_TRY(s.run());
            if (first == 0)
                first = m_impl->db.lastInsertRowid();
        }
        return first;
    });
}

Result<std::int64_t> SessionWriter::addNvtxRanges(std::span<const NvtxRange> ranges)
{
    m_impl->noteDurations("nvtx_ranges", ranges);
    return m_impl->inTransaction("NVTX ranges", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->db.prepare("INSERT INTO nvtx_ranges(id, process_id, thread_id, domain_id, name_id, "
                                       "start_ns, end_ns, color, category) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
        if (stmt.hasError())
            return stmt.error();
        std::int64_t first = 0;
        for (const auto& r : ranges) {
            auto domain = m_impl->internString(r.domain);
            auto name = m_impl->internString(r.name);
            if (domain.hasError())
                return domain.error();
            if (name.hasError())
                return name.error();
            auto& s = stmt.value();
            bindId(s, 1, r.id);
            s.bind(2, r.processId);
            s.bind(3, r.threadId);
            s.bind(4, domain.value());
            s.bind(5, name.value());
            s.bind(6, r.startNs);
            s.bind(7, r.endNs);
            s.bind(8, r.color);
            s.bind(9, r.category);
            RIDGELINE_TRY(s.run());
            if (first == 0)
                first = m_impl->db.lastInsertRowid();
        }
        return first;
    });
}

Result<std::int64_t> SessionWriter::addCommOps(std::span<const CommOp> ops)
{
    m_impl->noteDurations("comm_ops", ops);
    return m_impl->inTransaction("collectives", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->db.prepare(
            "INSERT INTO comm_ops(id, kernel_id, process_id, device_id, collective, bytes, data_type, group_size, "
            "root, algorithm, protocol, process_group, start_ns, end_ns, seq) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)");
        if (stmt.hasError())
            return stmt.error();
        std::int64_t first = 0;
        for (const auto& c : ops) {
            auto& s = stmt.value();
            bindId(s, 1, c.id);
            s.bind(2, c.kernelId);
            s.bind(3, c.processId);
            s.bind(4, c.deviceId);
            s.bind(5, c.collective);
            s.bind(6, c.bytes);
            s.bind(7, c.dataType);
            s.bind(8, c.groupSize);
            s.bind(9, c.root);
            s.bind(10, c.algorithm);
            s.bind(11, c.protocol);
            s.bind(12, c.processGroup);
            s.bind(13, c.startNs);
            s.bind(14, c.endNs);
            s.bind(15, c.seq);
            RIDGELINE_TRY(s.run());
            if (first == 0)
                first = m_impl->db.lastInsertRowid();
        }
        return first;
    });
}

Status SessionWriter::setVerdicts(std::span<const Verdict> verdicts)
{
    return m_impl->inTransaction("verdicts", [&]() -> Status {
        auto stmt = m_impl->db.prepare("INSERT OR REPLACE INTO verdicts(kernel_id, verdict, bound_by, utilization, "
                                       "reason) VALUES(?1,?2,?3,?4,?5)");
        if (stmt.hasError())
            return stmt.error();
        for (const auto& v : verdicts) {
            auto& s = stmt.value();
            s.bind(1, v.kernelId);
            s.bind(2, toString(v.verdict));
            s.bind(3, v.boundBy);
            s.bind(4, v.utilization);
            s.bind(5, v.reason);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
}

} // namespace ridgeline::core
