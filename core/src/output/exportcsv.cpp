// SPDX-License-Identifier: MIT
// One CSV file per table of the session (RFC 4180 quoting; times in ns as stored).
#include "exportcommon.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unordered_map>

namespace ridgeline::core {

namespace {

std::string field(std::string_view text)
{
    return csvField(text);
}

std::string number(double value)
{
    return fmt::format("{:.17g}", value);
}

template <typename T> std::string optional(const std::optional<T>& value)
{
    return value ? fmt::format("{}", *value) : std::string();
}

// Writes one table's file: `rows` receives the stream after the header has been written.
struct CsvTable {
    const char* name;
    const char* header;
    std::function<Status(std::ostream&)> rows;
};

// A table's rows: `printRow(out, record)` for each record that `read()` returns.
template <typename Read, typename PrintRow> std::function<Status(std::ostream&)> eachRow(Read read, PrintRow printRow)
{
    return [read, printRow](std::ostream& out) -> Status {
        auto rows = read();
        RIDGELINE_EXPORT_TRY(rows);
        for (const auto& row : rows.value())
            printRow(out, row);
        return {};
    };
}

} // namespace

std::vector<std::string> csvTableNames()
{
    return { "meta", "devices", "ceilings", "processes", "threads", "kernel_names", "kernels", "kernel_metrics",
        "memops", "api_calls", "nvtx_ranges", "comm_ops", "verdicts", "ncu_rules" };
}

Result<std::vector<std::string>> writeCsvTables(SessionReader& reader, const std::string& directory)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec || !fs::is_directory(directory))
        return makeError(ErrorCode::Io,
            fmt::format("cannot create the directory {}: {}", directory, ec ? ec.message() : "not a directory"));

    auto names = reader.kernelNames();
    RIDGELINE_EXPORT_TRY(names);
    std::unordered_map<std::int64_t, const KernelName*> nameById;
    for (const auto& n : names.value())
        nameById[n.id] = &n;
    auto nameOf = [&](std::int64_t nameId) {
        auto it = nameById.find(nameId);
        return it == nameById.end() ? std::string()
                                    : (it->second->demangled.empty() ? it->second->raw : it->second->demangled);
    };

    const std::vector<CsvTable> tables = {
        { "meta", "key,value",
            [&](std::ostream& out) -> Status {
                auto meta = reader.meta();
                RIDGELINE_EXPORT_TRY(meta);
                for (const auto& [key, value] : meta.value())
                    out << field(key) << ',' << field(value) << '\n';
                return {};
            } },
        { "devices",
            "id,host,ordinal,uuid,name,cc_major,cc_minor,sm_count,core_clock_khz,memory_clock_khz,memory_bytes,"
            "memory_bus_width_bits,l2_cache_bytes,max_threads_per_sm,shared_memory_per_sm_bytes,"
            "nvlink_bandwidth_bytes_per_s,pcie_bandwidth_bytes_per_s",
            eachRow([&] { return reader.devices(); },
                [](std::ostream& out, const auto& d) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", d.id, field(d.host),
                        d.ordinal, field(d.uuid), field(d.name), d.ccMajor, d.ccMinor, d.smCount, d.coreClockKhz,
                        d.memoryClockKhz, d.memoryBytes, d.memoryBusWidthBits, d.l2CacheBytes, d.maxThreadsPerSm,
                        d.sharedMemoryPerSmBytes, number(d.nvlinkBandwidthBytesPerS), number(d.pcieBandwidthBytesPerS));
                }) },
        { "ceilings", "device_id,resource,value,unit,source,note",
            eachRow([&] { return reader.ceilings(); },
                [](std::ostream& out, const auto& c) {
                    fmt::print(out, "{},{},{},{},{},{}\n", c.deviceId, field(c.resource), number(c.value),
                        field(c.unit), toString(c.source), field(c.note));
                }) },
        { "processes", "id,pid,host,rank,world_size,command,start_ns,end_ns,exit_status",
            eachRow([&] { return reader.processes(); },
                [](std::ostream& out, const auto& p) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{}\n", p.id, p.pid, field(p.host), p.rank, p.worldSize,
                        field(p.command), p.startNs, p.endNs, optional(p.exitStatus));
                }) },
        { "threads", "id,process_id,tid,name",
            eachRow([&] { return reader.threads(); },
                [](std::ostream& out, const auto& t) {
                    fmt::print(out, "{},{},{},{}\n", t.id, t.processId, t.tid, field(t.name));
                }) },
        { "kernel_names", "id,raw,demangled",
            [&](std::ostream& out) -> Status {
                for (const auto& n : names.value())
                    fmt::print(out, "{},{},{}\n", n.id, field(n.raw), field(n.demangled));
                return {};
            } },
        { "kernels",
            "id,process_id,device_id,context_id,stream_id,correlation_id,name_id,name,start_ns,end_ns,duration_ns,"
            "grid_x,grid_y,grid_z,block_x,block_y,block_z,registers_per_thread,static_shared_bytes,"
            "dynamic_shared_bytes,graph_id,verdict,bound_by,pct_of_roof,reason",
            [&](std::ostream& out) -> Status {
                auto status = analyzeSession(reader, [&](const Kernel& k, const KernelAnalysis& a) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                        k.id, k.processId, k.deviceId, k.contextId, k.streamId, k.correlationId, k.nameId,
                        field(nameOf(k.nameId)), k.startNs, k.endNs, k.durationNs(), k.grid.x, k.grid.y, k.grid.z,
                        k.block.x, k.block.y, k.block.z, k.registersPerThread, k.staticSharedBytes,
                        k.dynamicSharedBytes, k.graphId, toString(a.verdict), field(a.boundBy),
                        a.boundUtilization ? number(*a.boundUtilization * 100.0) : std::string(), field(a.reason));
                });
                if (status.hasError())
                    return detail::readError(status.error());
                return {};
            } },
        { "kernel_metrics", "kernel_id,kernel_name,metric,value,unit",
            [&](std::ostream& out) -> Status {
                std::vector<std::int64_t> ids;
                auto listed = reader.forEachMetric([&](std::int64_t kernelId, const std::string&, double) {
                    if (ids.empty() || ids.back() != kernelId)
                        ids.push_back(kernelId);
                });
                if (listed.hasError())
                    return detail::readError(listed.error());
                auto kernels = reader.kernelsById(ids);
                RIDGELINE_EXPORT_TRY(kernels);
                std::unordered_map<std::int64_t, std::int64_t> nameIds;
                for (const auto& k : kernels.value())
                    nameIds[k.id] = k.nameId;
                for (auto id : ids) {
                    auto metrics = reader.metrics(id);
                    RIDGELINE_EXPORT_TRY(metrics);
                    const auto name = nameIds.count(id) ? nameOf(nameIds[id]) : std::string();
                    for (const auto& m : metrics.value())
                        fmt::print(out, "{},{},{},{},{}\n", m.kernelId, field(name), field(m.name), number(m.value),
                            field(m.unit));
                }
                return {};
            } },
        { "memops",
            "id,process_id,device_id,stream_id,correlation_id,kind,bytes,start_ns,end_ns,src_device_id,"
            "dst_device_id,src_memory,dst_memory",
            eachRow([&] { return reader.memOps(); },
                [](std::ostream& out, const auto& m) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{}\n", m.id, m.processId, m.deviceId,
                        m.streamId, m.correlationId, toString(m.kind), m.bytes, m.startNs, m.endNs,
                        optional(m.srcDeviceId), optional(m.dstDeviceId), field(m.srcMemory), field(m.dstMemory));
                }) },
        { "api_calls", "id,process_id,thread_id,domain,name,correlation_id,start_ns,end_ns,return_code",
            eachRow([&] { return reader.apiCalls(); },
                [](std::ostream& out, const auto& c) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{}\n", c.id, c.processId, c.threadId, field(c.domain),
                        field(c.name), c.correlationId, c.startNs, c.endNs, c.returnCode);
                }) },
        { "nvtx_ranges", "id,process_id,thread_id,domain,name,start_ns,end_ns,color_argb,category",
            eachRow([&] { return reader.nvtxRanges(); },
                [](std::ostream& out, const auto& r) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{}\n", r.id, r.processId, r.threadId, field(r.domain),
                        field(r.name), r.startNs, r.endNs, r.color ? fmt::format("#{:08x}", r.color) : std::string(),
                        r.category);
                }) },
        { "comm_ops",
            "id,kernel_id,process_id,device_id,collective,bytes,data_type,group_size,root,algorithm,protocol,"
            "process_group,start_ns,end_ns",
            eachRow([&] { return reader.commOps(); },
                [](std::ostream& out, const auto& c) {
                    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", c.id, optional(c.kernelId),
                        c.processId, c.deviceId, field(c.collective), c.bytes, field(c.dataType), c.groupSize, c.root,
                        field(c.algorithm), field(c.protocol), field(c.processGroup), c.startNs, c.endNs);
                }) },
        { "verdicts", "kernel_id,verdict,bound_by,utilization,reason",
            eachRow([&] { return reader.verdicts(); },
                [](std::ostream& out, const auto& v) {
                    fmt::print(out, "{},{},{},{},{}\n", v.kernelId, field(toString(v.verdict)), field(v.boundBy),
                        v.utilization ? number(*v.utilization) : std::string(), field(v.reason));
                }) },
        { "ncu_rules", "kernel_id,identifier,name,section,type,message,speedup_type,speedup_pct",
            eachRow([&] { return reader.ncuRules(); },
                [](std::ostream& out, const auto& r) {
                    fmt::print(out, "{},{},{},{},{},{},{},{}\n", r.kernelId, field(r.identifier), field(r.name),
                        field(r.section), field(r.type), field(r.message), field(r.speedupType),
                        r.speedupPct ? number(*r.speedupPct) : std::string());
                }) },
    };

    std::vector<std::string> written;
    for (const auto& table : tables) {
        const auto path = (fs::path(directory) / (std::string(table.name) + ".csv")).string();
        RIDGELINE_TRY(writeFileAtomically(path, [&](std::ostream& out) -> Status {
            out << table.header << '\n';
            return table.rows(out);
        }));
        written.push_back(path);
    }
    return written;
}

} // namespace ridgeline::core
