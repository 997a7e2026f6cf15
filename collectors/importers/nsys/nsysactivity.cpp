// SPDX-License-Identifier: MIT
// GPU activity of an Nsight Systems export: CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY and _MEMSET.
// Timestamps are nanoseconds relative to the session start and are kept as they are.
#include "nsysinternal.h"
#include "ridgeline/collectors/importers/nsysimporter.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace ridgeline::collectors::nsys {

namespace {

std::uint32_t dim(std::int64_t value)
{
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(value, 1, std::numeric_limits<std::uint32_t>::max()));
}

int bounded(std::int64_t value)
{
    return static_cast<int>(std::clamp<std::int64_t>(value, 0, std::numeric_limits<int>::max()));
}

// A corrupt end before its start would give a negative duration: such an op lasts 0 ns.
std::int64_t endAfter(std::int64_t start, std::int64_t end)
{
    return std::max(start, end);
}

core::Status requireColumns(const Schema& schema, std::string_view table, std::initializer_list<std::string_view> names)
{
    for (auto name : names) {
        if (!schema.has(table, name))
            return core::makeError(
                core::ErrorCode::BadFile, fmt::format("{} has no column '{}' (not an nsys export?)", table, name));
    }
    return {};
}

// The columns every kernel, memcpy and memset row starts with (0 to 5), in the order readOpColumns reads them.
std::string opColumns(const Schema& schema, std::string_view table)
{
    auto col = [&](std::string_view name) { return schema.column(table, name, "0"); };
    return fmt::format("start, end, deviceId, {}, {}, {}", col("streamId"), col("correlationId"), col("globalPid"));
}

// The fields of a kernel or memory op that opColumns selected.
template <typename Op> void readOpColumns(const core::sqlite::Statement& row, Op& op)
{
    op.startNs = timeOf(row.columnInt(0));
    op.endNs = endAfter(op.startNs, timeOf(row.columnInt(1)));
    op.deviceId = row.columnInt(2);
    op.streamId = row.columnInt(3);
    op.correlationId = row.columnInt(4);
    op.processId = pidOf(row.columnInt(5));
}

// A memcpy or memset row: opColumns, then bytes (6).
core::MemOp memOpOf(const core::sqlite::Statement& row)
{
    core::MemOp m;
    readOpColumns(row, m);
    m.bytes = std::max<std::int64_t>(row.columnInt(6), 0);
    return m;
}

} // namespace

core::Status readKernels(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    constexpr const char* kTable = "CUPTI_ACTIVITY_KIND_KERNEL";
    if (!schema.has(kTable))
        return {};
    RIDGELINE_TRY(requireColumns(schema, kTable, { "start", "end", "deviceId" }));
    auto col
        = [&](std::string_view name, std::string_view fallback = "0") { return schema.column(kTable, name, fallback); };
    // graphNodeId: every schema since 2.x (NULL outside graphs); graphId: schema 3.24 and later.
    const auto sql
        = fmt::format("SELECT {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {} ORDER BY start",
            opColumns(schema, kTable), col("contextId"), stringOf(schema, col("demangledName", "NULL")),
            stringOf(schema, col("shortName", "NULL")), stringOf(schema, col("mangledName", "NULL")), col("gridX", "1"),
            col("gridY", "1"), col("gridZ", "1"), col("blockX", "1"), col("blockY", "1"), col("blockZ", "1"),
            col("registersPerThread"), col("staticSharedMemory"), col("dynamicSharedMemory"), col("graphNodeId"),
            col("graphId"), kTable);
    std::map<std::string, std::int64_t> nameIds;
    return forEachRow(db, sql, kTable, [&](const core::sqlite::Statement& row) {
        core::Kernel k;
        readOpColumns(row, k);
        k.contextId = row.columnInt(6);
        std::string demangled = row.columnText(7);
        const std::string shortName = row.columnText(8);
        std::string raw = row.columnText(9);
        if (demangled.empty())
            demangled = shortName;
        if (demangled.empty())
            demangled = raw.empty() ? std::string("unnamed kernel") : raw;
        if (raw.empty())
            raw = demangled; // older exports have no mangled name
        auto [it, added] = nameIds.try_emplace(raw, static_cast<std::int64_t>(activity.kernelNames.size()));
        if (added)
            activity.kernelNames.emplace_back(raw, demangled);
        k.nameId = it->second;
        k.grid = { dim(row.columnInt(10)), dim(row.columnInt(11)), dim(row.columnInt(12)) };
        k.block = { dim(row.columnInt(13)), dim(row.columnInt(14)), dim(row.columnInt(15)) };
        k.registersPerThread = bounded(row.columnInt(16));
        k.staticSharedBytes = bounded(row.columnInt(17));
        k.dynamicSharedBytes = bounded(row.columnInt(18));
        k.graphNodeId = std::max<std::int64_t>(row.columnInt(19), 0);
        k.graphId = std::max<std::int64_t>(row.columnInt(20), 0);
        activity.kernels.push_back(k);
    });
}

core::Status readGraphLaunches(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    // `nsys profile --cuda-graph-trace=graph`: one row per graph launch, and none of its kernels in
    // CUPTI_ACTIVITY_KIND_KERNEL (CUPTI's CUpti_ActivityGraphTrace: start, end, deviceId,
    // contextId, streamId, correlationId of the launch call, graphId; nsys adds globalPid and
    // graphExecId). Each becomes a kernel named for its graph, so that the GPU time it took is seen.
    constexpr const char* kTable = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
    if (!schema.has(kTable))
        return {};
    RIDGELINE_TRY(requireColumns(schema, kTable, { "start", "end", "deviceId" }));
    const auto sql = fmt::format("SELECT {}, {}, {} FROM {} ORDER BY start", opColumns(schema, kTable),
        schema.column(kTable, "contextId", "0"), schema.column(kTable, "graphId", "0"), kTable);
    std::map<std::int64_t, std::int64_t> nameIds; // graph id -> index into kernelNames
    std::int64_t untimed = 0, onHost = 0;
    RIDGELINE_TRY(forEachRow(db, sql, kTable, [&](const core::sqlite::Statement& row) {
        core::Kernel k;
        readOpColumns(row, k);
        // CUPTI: start = end = 0 when no time was taken; deviceId INT_MAX when the graph's first
        // node ran on the host. Neither is a time on a GPU.
        if (row.columnInt(0) == 0 && row.columnInt(1) == 0) {
            ++untimed;
            return;
        }
        if (k.deviceId < 0 || k.deviceId >= std::numeric_limits<std::int32_t>::max()) {
            ++onHost;
            return;
        }
        k.contextId = row.columnInt(6);
        k.graphId = std::max<std::int64_t>(row.columnInt(7), 0);
        auto [it, added] = nameIds.try_emplace(k.graphId, static_cast<std::int64_t>(activity.kernelNames.size()));
        if (added) {
            const auto name = fmt::format("CUDA graph {} (whole launch)", k.graphId);
            activity.kernelNames.emplace_back(name, name);
        }
        k.nameId = it->second;
        activity.kernels.push_back(k);
        activity.graphLaunches += 1;
    }));
    if (untimed + onHost > 0)
        activity.warnings.push_back(fmt::format("{} CUDA graph launches were left out: {} without times, {} that "
                                                "started on the host (no GPU named)",
            untimed + onHost, untimed, onHost));
    return {};
}

core::Status readMemOps(core::sqlite::Database& db, const Schema& schema, const Enums& enums, Activity& activity)
{
    constexpr const char* kCopy = "CUPTI_ACTIVITY_KIND_MEMCPY";
    if (schema.has(kCopy)) {
        RIDGELINE_TRY(requireColumns(schema, kCopy, { "start", "end", "deviceId" }));
        auto col = [&](std::string_view name, std::string_view fallback = "0") {
            return schema.column(kCopy, name, fallback);
        };
        const auto sql = fmt::format("SELECT {}, {}, {}, {}, {}, {}, {} FROM {} ORDER BY start",
            opColumns(schema, kCopy), col("bytes"), col("copyKind"), col("srcKind", "NULL"), col("dstKind", "NULL"),
            col("srcDeviceId", "NULL"), col("dstDeviceId", "NULL"), kCopy);
        RIDGELINE_TRY(forEachRow(db, sql, kCopy, [&](const core::sqlite::Statement& row) {
            core::MemOp m = memOpOf(row);
            m.kind = enums.copyKind(row.columnInt(7));
            if (!row.columnIsNull(8))
                m.srcMemory = enums.memoryKind(row.columnInt(8));
            if (!row.columnIsNull(9))
                m.dstMemory = enums.memoryKind(row.columnInt(9));
            if (m.kind == core::MemOpKind::MemcpyPtoP) {
                m.srcDeviceId = row.columnOptionalInt(10);
                m.dstDeviceId = row.columnOptionalInt(11);
            }
            activity.memops.push_back(m);
        }));
    }
    constexpr const char* kSet = "CUPTI_ACTIVITY_KIND_MEMSET";
    if (schema.has(kSet)) {
        RIDGELINE_TRY(requireColumns(schema, kSet, { "start", "end", "deviceId" }));
        const auto sql = fmt::format("SELECT {}, {}, {} FROM {} ORDER BY start", opColumns(schema, kSet),
            schema.column(kSet, "bytes", "0"), schema.column(kSet, "memKind", "NULL"), kSet);
        RIDGELINE_TRY(forEachRow(db, sql, kSet, [&](const core::sqlite::Statement& row) {
            core::MemOp m = memOpOf(row);
            m.kind = core::MemOpKind::Memset;
            if (!row.columnIsNull(7))
                m.dstMemory = enums.memoryKind(row.columnInt(7));
            activity.memops.push_back(m);
        }));
    }
    return {};
}

} // namespace ridgeline::collectors::nsys
