// SPDX-License-Identifier: MIT
#include "ridgeline/core/sessionreader.h"

#include "fileheader.h"
#include "ridgeline/core/sessionformat.h"
#include "schema.h"
#include "ridgeline/core/sqlite.h"

#include <array>
#include <fmt/format.h>
#include <sqlite3.h>

namespace ridgeline::core {

using sqlite::Statement;

namespace {

Error inFile(const std::string& path, const Error& error)
{
    return makeError(error.code, fmt::format("{}: {}", path, error.message));
}

// Copies an older session into memory and migrates it there: the file itself stays untouched.
Result<sqlite::Database> migratedCopy(sqlite::Database& file, int fromVersion)
{
    auto memory = sqlite::Database::openMemory();
    if (memory.hasError())
        return memory.error();
    sqlite3_backup* backup = sqlite3_backup_init(memory.value().handle(), "main", file.handle(), "main");
    if (!backup)
        return memory.value().lastError("copying the session for migration");
    sqlite3_backup_step(backup, -1);
    if (sqlite3_backup_finish(backup) != SQLITE_OK)
        return memory.value().lastError("copying the session for migration");
    RIDGELINE_TRY(schema::migrate(memory.value(), fromVersion));
    return memory;
}

// WHERE clause for ops overlapping a time window: rows are found through the (device,
// [stream,] start) indexes; `maxDurationNs` bounds how early an overlapping op can start.
struct WindowSql {
    std::string where;
    std::vector<std::int64_t> args;
};

WindowSql windowSql(const TimeQuery& q, bool hasDevice, std::int64_t maxDurationNs)
{
    WindowSql out;
    auto add = [&](std::string_view clause, std::int64_t value) {
        out.where += out.where.empty() ? " WHERE " : " AND ";
        out.where += fmt::format(fmt::runtime(clause), out.args.size() + 1);
        out.args.push_back(value);
    };
    if (hasDevice && q.deviceId)
        add("device_id = ?{}", *q.deviceId);
    if (hasDevice && q.streamId)
        add("stream_id = ?{}", *q.streamId);
    if (q.endNs)
        add("start_ns < ?{}", *q.endNs);
    if (q.startNs) {
        // Saturate: a hostile file may claim absurd durations.
        const std::int64_t lowest = *q.startNs > INT64_MIN + maxDurationNs ? *q.startNs - maxDurationNs : INT64_MIN;
        add("start_ns >= ?{}", lowest);
        add("end_ns > ?{}", *q.startNs);
    }
    return out;
}

} // namespace

struct SessionReader::Impl {
    sqlite::Database db;
    std::string path;
    int fileSchemaVersion = 0;
    std::map<std::string, std::int64_t> maxDurations; // per table, computed on first windowed query

    explicit Impl(sqlite::Database database)
        : db(std::move(database))
    { }

    // From the finished session's meta when it has it; else (partial or foreign files) one scan.
    Result<std::int64_t> maxDuration(const std::string& table)
    {
        if (auto it = maxDurations.find(table); it != maxDurations.end())
            return it->second;
        auto value
            = db.queryInt(fmt::format("SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{}{}'), "
                                      "(SELECT max(end_ns - start_ns) FROM {}), 0)",
                metakey::MaxDurationPrefix, table, table));
        if (value.hasError())
            return inFile(path, value.error());
        const std::int64_t clamped = std::max<std::int64_t>(value.value(), 0);
        maxDurations[table] = clamped;
        return clamped;
    }

    Result<Statement> prepare(std::string_view sql)
    {
        auto stmt = db.prepare(sql);
        if (stmt.hasError())
            return inFile(path, stmt.error());
        return stmt;
    }

    // Runs `sql` and calls `row` for each result row; `row` returns false to stop.
    template <typename RowFn> Status query(std::string_view sql, const std::vector<std::int64_t>& args, RowFn&& row)
    {
        auto stmt = prepare(sql);
        if (stmt.hasError())
            return stmt.error();
        for (std::size_t i = 0; i < args.size(); ++i)
            stmt.value().bind(static_cast<int>(i + 1), args[i]);
        for (;;) {
            auto step = stmt.value().step();
            if (step.hasError())
                return inFile(path, step.error());
            if (step.value() == Statement::Step::Done)
                return {};
            if (!row(stmt.value()))
                return {};
        }
    }

    template <typename T, typename RowFn>
    Result<std::vector<T>> collect(std::string_view sql, const std::vector<std::int64_t>& args, RowFn&& convert)
    {
        std::vector<T> out;
        auto status = query(sql, args, [&](Statement& s) {
            out.push_back(convert(s));
            return true;
        });
        if (status.hasError())
            return status.error();
        return out;
    }

    template <typename RowFn>
    Status queryWindow(const char* table, std::string_view columns, const TimeQuery& q, bool hasDevice, RowFn&& row)
    {
        std::int64_t maxDur = 0;
        if (q.startNs) {
            auto md = maxDuration(table);
            if (md.hasError())
                return md.error();
            maxDur = md.value();
        }
        const auto window = windowSql(q, hasDevice, maxDur);
        return query(
            fmt::format("SELECT {} FROM {}{} ORDER BY start_ns, id", columns, table, window.where), window.args, row);
    }

    template <typename T, typename RowFn>
    Result<std::vector<T>> collectWindow(
        const char* table, std::string_view columns, const TimeQuery& q, bool hasDevice, RowFn&& convert)
    {
        std::vector<T> out;
        auto status = queryWindow(table, columns, q, hasDevice, [&](Statement& s) {
            out.push_back(convert(s));
            return true;
        });
        if (status.hasError())
            return status.error();
        return out;
    }
};

SessionReader::SessionReader(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{ }
SessionReader::SessionReader(SessionReader&&) noexcept = default;
SessionReader& SessionReader::operator=(SessionReader&&) noexcept = default;
SessionReader::~SessionReader() = default;

Result<SessionReader> SessionReader::open(const std::string& path)
{
    auto header = inspectFileHeader(path);
    if (header.hasError())
        return header.error();
    auto db = sqlite::Database::open(path, sqlite::Database::Mode::ReadOnly);
    if (db.hasError())
        return makeError(ErrorCode::Io, db.error().message);

    // SQLite's own view of the header must agree with ours (it also reads a hot journal).
    auto version = db.value().queryInt("PRAGMA user_version");
    if (version.hasError())
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: not a readable session ({})", path, version.error().message));
    if (version.value() != header.value().schemaVersion)
        return makeError(ErrorCode::BadFile, fmt::format("{}: inconsistent schema version", path));
    auto validated = schema::validate(db.value());
    if (validated.hasError())
        return inFile(path, validated.error());

    const int fileVersion = header.value().schemaVersion;
    if (fileVersion < kSchemaVersion) {
        auto migrated = migratedCopy(db.value(), fileVersion);
        if (migrated.hasError())
            return inFile(path, migrated.error());
        db = std::move(migrated);
    }
    auto impl = std::make_unique<Impl>(std::move(db).value());
    impl->path = path;
    impl->fileSchemaVersion = fileVersion;
    return SessionReader(std::move(impl));
}

const std::string& SessionReader::path() const
{
    return m_impl->path;
}

int SessionReader::fileSchemaVersion() const
{
    return m_impl->fileSchemaVersion;
}

Result<std::map<std::string, std::string>> SessionReader::meta()
{
    std::map<std::string, std::string> out;
    auto status = m_impl->query("SELECT key, value FROM meta", {}, [&](Statement& s) {
        out[s.columnText(0)] = s.columnText(1);
        return true;
    });
    if (status.hasError())
        return status.error();
    return out;
}

Result<std::vector<Device>> SessionReader::devices()
{
    return m_impl->collect<Device>(
        "SELECT id, host, ordinal, uuid, name, cc_major, cc_minor, sm_count, core_clock_khz, memory_clock_khz, "
        "memory_bytes, memory_bus_width_bits, l2_cache_bytes, max_threads_per_sm, shared_memory_per_sm_bytes, "
        "nvlink_bandwidth, pcie_bandwidth FROM devices ORDER BY id",
        {}, [](Statement& s) {
            Device d;
            d.id = s.columnInt(0);
            d.host = s.columnText(1);
            d.ordinal = static_cast<int>(s.columnInt(2));
            d.uuid = s.columnText(3);
            d.name = s.columnText(4);
            d.ccMajor = static_cast<int>(s.columnInt(5));
            d.ccMinor = static_cast<int>(s.columnInt(6));
            d.smCount = static_cast<int>(s.columnInt(7));
            d.coreClockKhz = s.columnInt(8);
            d.memoryClockKhz = s.columnInt(9);
            d.memoryBytes = s.columnInt(10);
            d.memoryBusWidthBits = static_cast<int>(s.columnInt(11));
            d.l2CacheBytes = s.columnInt(12);
            d.maxThreadsPerSm = static_cast<int>(s.columnInt(13));
            d.sharedMemoryPerSmBytes = s.columnInt(14);
            d.nvlinkBandwidthBytesPerS = s.columnDouble(15);
            d.pcieBandwidthBytesPerS = s.columnDouble(16);
            return d;
        });
}

Result<std::vector<Ceiling>> SessionReader::ceilings(std::optional<std::int64_t> deviceId)
{
    std::string sql = "SELECT device_id, resource, source, value, unit, note FROM ceilings";
    std::vector<std::int64_t> args;
    if (deviceId) {
        sql += " WHERE device_id = ?1";
        args.push_back(*deviceId);
    }
    sql += " ORDER BY device_id, resource, source";
    return m_impl->collect<Ceiling>(sql, args, [](Statement& s) {
        Ceiling c;
        c.deviceId = s.columnInt(0);
        c.resource = s.columnText(1);
        // An unknown source word in a foreign file is shown as the least trusted one.
        c.source = ceilingSourceFromString(s.columnText(2)).value_or(CeilingSource::Datasheet);
        c.value = s.columnDouble(3);
        c.unit = s.columnText(4);
        c.note = s.columnText(5);
        return c;
    });
}

Result<std::vector<Process>> SessionReader::processes()
{
    return m_impl->collect<Process>(
        "SELECT id, pid, host, rank, world_size, command, start_ns, end_ns, exit_status FROM processes ORDER BY id", {},
        [](Statement& s) {
            Process p;
            p.id = s.columnInt(0);
            p.pid = s.columnInt(1);
            p.host = s.columnText(2);
            p.rank = static_cast<int>(s.columnInt(3));
            p.worldSize = static_cast<int>(s.columnInt(4));
            p.command = s.columnText(5);
            p.startNs = s.columnInt(6);
            p.endNs = s.columnInt(7);
            if (auto status = s.columnOptionalInt(8))
                p.exitStatus = static_cast<int>(*status);
            return p;
        });
}

Result<std::vector<Thread>> SessionReader::threads()
{
    return m_impl->collect<Thread>("SELECT id, process_id, tid, name FROM threads ORDER BY id", {}, [](Statement& s) {
        return Thread { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnText(3) };
    });
}

Result<std::vector<KernelName>> SessionReader::kernelNames()
{
    return m_impl->collect<KernelName>("SELECT id, raw, demangled FROM kernel_names ORDER BY id", {}, [](Statement& s) {
        return KernelName { s.columnInt(0), s.columnText(1), s.columnText(2) };
    });
}

namespace {

constexpr const char* kKernelColumns
    = "id, process_id, device_id, context_id, stream_id, correlation_id, name_id, start_ns, end_ns, grid_x, grid_y, "
      "grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared, graph_id";

std::uint32_t dim(const Statement& s, int col)
{
    return static_cast<std::uint32_t>(s.columnInt(col));
}

Kernel kernelFromRow(const Statement& s)
{
    Kernel k;
    k.id = s.columnInt(0);
    k.processId = s.columnInt(1);
    k.deviceId = s.columnInt(2);
    k.contextId = s.columnInt(3);
    k.streamId = s.columnInt(4);
    k.correlationId = s.columnInt(5);
    k.nameId = s.columnInt(6);
    k.startNs = s.columnInt(7);
    k.endNs = s.columnInt(8);
    k.grid = { dim(s, 9), dim(s, 10), dim(s, 11) };
    k.block = { dim(s, 12), dim(s, 13), dim(s, 14) };
    k.registersPerThread = static_cast<int>(s.columnInt(15));
    k.staticSharedBytes = static_cast<int>(s.columnInt(16));
    k.dynamicSharedBytes = static_cast<int>(s.columnInt(17));
    k.graphId = s.columnInt(18);
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
    return m_impl->query("SELECT device_id, name_id, start_ns, end_ns FROM kernels", {}, [&](Statement& s) {
        visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3) });
        return true;
    });
}

Status SessionReader::forEachKernelPlacement(const std::function<bool(const KernelPlacement&)>& visit)
{
    return m_impl->query(
        "SELECT id, process_id, device_id, stream_id, correlation_id, name_id, start_ns, end_ns FROM kernels", {},
        [&](Statement& s) {
            return visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4),
                s.columnInt(5), s.columnInt(6), s.columnInt(7) });
        });
}

Result<std::vector<MetricValue>> SessionReader::metrics(std::int64_t kernelId)
{
    return m_impl->collect<MetricValue>("SELECT m.kernel_id, n.name, m.value, n.unit FROM kernel_metrics m "
                                        "JOIN metric_names n ON n.id = m.metric_id WHERE m.kernel_id = ?1 "
                                        "ORDER BY n.name",
        { kernelId }, [](Statement& s) {
            return MetricValue { s.columnInt(0), s.columnText(1), s.columnDouble(2), s.columnText(3) };
        });
}

Status SessionReader::forEachMetric(
    const std::function<void(std::int64_t kernelId, const std::string& name, double value)>& visit)
{
    return m_impl->query("SELECT m.kernel_id, n.name, m.value FROM kernel_metrics m "
                         "JOIN metric_names n ON n.id = m.metric_id ORDER BY m.kernel_id",
        {}, [&](Statement& s) {
            visit(s.columnInt(0), s.columnText(1), s.columnDouble(2));
            return true;
        });
}

Result<std::vector<Kernel>> SessionReader::kernelsById(const std::vector<std::int64_t>& ids)
{
    auto stmt = m_impl->prepare(fmt::format("SELECT {} FROM kernels WHERE id = ?1", kKernelColumns));
    if (stmt.hasError())
        return stmt.error();
    std::vector<Kernel> out;
    out.reserve(ids.size());
    for (const auto id : ids) {
        auto& s = stmt.value();
        s.reset();
        s.bind(1, id);
        auto step = s.step();
        if (step.hasError())
            return inFile(m_impl->path, step.error());
        if (step.value() == Statement::Step::Row)
            out.push_back(kernelFromRow(s));
    }
    return out;
}

Result<std::vector<Kernel>> SessionReader::kernelsOfName(std::int64_t nameId, std::int64_t deviceId)
{
    return m_impl->collect<Kernel>(
        fmt::format("SELECT {} FROM kernels WHERE name_id = ?1 AND device_id = ?2 ORDER BY start_ns", kKernelColumns),
        { nameId, deviceId }, kernelFromRow);
}

Result<std::vector<MemOp>> SessionReader::memOps(const TimeQuery& query)
{
    return m_impl->collectWindow<MemOp>("memops",
        "id, process_id, device_id, stream_id, correlation_id, kind, bytes, start_ns, end_ns, src_device_id, "
        "dst_device_id, src_memory, dst_memory",
        query, true, [](Statement& s) {
            MemOp m;
            m.id = s.columnInt(0);
            m.processId = s.columnInt(1);
            m.deviceId = s.columnInt(2);
            m.streamId = s.columnInt(3);
            m.correlationId = s.columnInt(4);
            m.kind = memOpKindFromString(s.columnText(5)).value_or(MemOpKind::Other);
            m.bytes = s.columnInt(6);
            m.startNs = s.columnInt(7);
            m.endNs = s.columnInt(8);
            m.srcDeviceId = s.columnOptionalInt(9);
            m.dstDeviceId = s.columnOptionalInt(10);
            m.srcMemory = s.columnText(11);
            m.dstMemory = s.columnText(12);
            return m;
        });
}

Result<std::vector<ApiCall>> SessionReader::apiCalls(const TimeQuery& query)
{
    return m_impl->collectWindow<ApiCall>("api_calls",
        "id, process_id, thread_id, (SELECT value FROM strings WHERE id = domain_id), "
        "(SELECT value FROM strings WHERE id = name_id), correlation_id, start_ns, end_ns, return_code",
        query, false, [](Statement& s) {
            return ApiCall { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnText(3), s.columnText(4),
                s.columnInt(5), s.columnInt(6), s.columnInt(7), s.columnInt(8) };
        });
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

Result<std::vector<CommOp>> SessionReader::commOps(const TimeQuery& query)
{
    return m_impl->collectWindow<CommOp>("comm_ops",
        "id, kernel_id, process_id, device_id, collective, bytes, data_type, group_size, root, algorithm, protocol, "
        "process_group, start_ns, end_ns",
        query, true, [](Statement& s) {
            CommOp c;
            c.id = s.columnInt(0);
            c.kernelId = s.columnOptionalInt(1);
            c.processId = s.columnInt(2);
            c.deviceId = s.columnInt(3);
            c.collective = s.columnText(4);
            c.bytes = s.columnInt(5);
            c.dataType = s.columnText(6);
            c.groupSize = static_cast<int>(s.columnInt(7));
            c.root = static_cast<int>(s.columnInt(8));
            c.algorithm = s.columnText(9);
            c.protocol = s.columnText(10);
            c.processGroup = s.columnText(11);
            c.startNs = s.columnInt(12);
            c.endNs = s.columnInt(13);
            return c;
        });
}

Result<std::vector<Verdict>> SessionReader::verdicts()
{
    return m_impl->collect<Verdict>(
        "SELECT kernel_id, verdict, bound_by, utilization, reason FROM verdicts ORDER BY kernel_id", {},
        [](Statement& s) {
            return Verdict { s.columnInt(0), s.columnText(1), s.columnText(2), s.columnOptionalDouble(3),
                s.columnText(4) };
        });
}

Result<TableCounts> SessionReader::counts()
{
    TableCounts c;
    const std::array<std::pair<std::int64_t*, const char*>, 13> queries { {
        { &c.devices, "SELECT count(*) FROM devices" },
        { &c.processes, "SELECT count(*) FROM processes" },
        { &c.threads, "SELECT count(*) FROM threads" },
        { &c.kernelNames, "SELECT count(*) FROM kernel_names" },
        { &c.kernels, "SELECT count(*) FROM kernels" },
        { &c.metrics, "SELECT count(*) FROM kernel_metrics" },
        { &c.memcpys, "SELECT count(*) FROM memops WHERE kind <> 'memset'" },
        { &c.memsets, "SELECT count(*) FROM memops WHERE kind = 'memset'" },
        { &c.apiCalls, "SELECT count(*) FROM api_calls" },
        { &c.nvtxRanges, "SELECT count(*) FROM nvtx_ranges" },
        { &c.commOps, "SELECT count(*) FROM comm_ops" },
        { &c.verdicts, "SELECT count(*) FROM verdicts" },
        { &c.ceilings, "SELECT count(*) FROM ceilings" },
    } };
    for (const auto& [target, sql] : queries) {
        auto value = m_impl->db.queryInt(sql);
        if (value.hasError())
            return inFile(m_impl->path, value.error());
        *target = value.value();
    }
    return c;
}

Result<TimeSpan> SessionReader::gpuTimeSpan()
{
    TimeSpan span;
    auto status = m_impl->query("SELECT min(s), max(e) FROM ("
                                "SELECT min(start_ns) AS s, max(end_ns) AS e FROM kernels "
                                "UNION ALL SELECT min(start_ns), max(end_ns) FROM memops "
                                "UNION ALL SELECT min(start_ns), max(end_ns) FROM comm_ops)",
        {}, [&](Statement& s) {
            if (!s.columnIsNull(0) && !s.columnIsNull(1)) {
                span.startNs = s.columnInt(0);
                span.endNs = s.columnInt(1);
                span.empty = false;
            }
            return false;
        });
    if (status.hasError())
        return status.error();
    return span;
}

Result<std::vector<std::string>> SessionReader::integrityProblems()
{
    std::vector<std::string> problems;
    auto status = m_impl->query("PRAGMA quick_check(20)", {}, [&](Statement& s) {
        auto line = s.columnText(0);
        if (line != "ok")
            problems.push_back(std::move(line));
        return true;
    });
    if (status.hasError()) {
        // A file too damaged for the check to run is itself the finding.
        problems.push_back(status.error().message);
    }
    return problems;
}

} // namespace ridgeline::core
