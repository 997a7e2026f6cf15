// SPDX-License-Identifier: MIT
#include "ridgeline/core/sessionwriter.h"

#include "ridgeline/core/demangle.h"
#include "ridgeline/core/sessionformat.h"
#include "ridgeline/core/sqlite.h"
#include "ridgeline/core/version.h"
#include "schema.h"

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace ridgeline::core {

namespace fs = std::filesystem;
using sqlite::Statement;

namespace {

constexpr const char* kInsertKernel
    = "INSERT INTO kernels(id, process_id, device_id, context_id, stream_id, correlation_id, name_id, start_ns, "
      "end_ns, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared, graph_id) "
      "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19)";

void bindId(Statement& stmt, int index, std::int64_t id)
{
    if (id == 0)
        stmt.bindNull(index);
    else
        stmt.bind(index, id);
}

std::string hostName()
{
    char buffer[256] = {};
    if (gethostname(buffer, sizeof(buffer) - 1) != 0)
        return {};
    return buffer;
}

// Makes the finished file durable before it gets its final name.
void syncFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

Error writeError(const Error& error, std::string_view what)
{
    return makeError(error.code, fmt::format("writing {} failed: {}", what, error.message));
}

} // namespace

const char* toString(SessionStatus status)
{
    return status == SessionStatus::Complete ? "complete" : "partial";
}

struct SessionWriter::Impl {
    sqlite::Database db;
    std::string finalPath;
    std::string workPath;
    WriterOptions options;
    int batchDepth = 0;
    bool finished = false;
    std::unordered_map<std::string, Statement> statements; // prepared once per writer, by SQL text
    std::unordered_map<std::string, std::int64_t> kernelNames;
    std::unordered_map<std::string, std::int64_t> strings;
    std::unordered_map<std::string, std::int64_t> metricNames;
    std::unordered_set<std::int64_t> metricsWithUnit;
    // Longest op per table, recorded in meta by finish() for time-window queries.
    std::map<std::string, std::int64_t> maxDurations { { "kernels", 0 }, { "memops", 0 }, { "api_calls", 0 },
        { "nvtx_ranges", 0 }, { "comm_ops", 0 } };

    template <typename Op> void noteDurations(const char* table, std::span<const Op> ops)
    {
        auto& longest = maxDurations[table];
        for (const auto& op : ops)
            longest = std::max(longest, op.endNs - op.startNs);
    }

    explicit Impl(sqlite::Database database)
        : db(std::move(database))
    { }

    // Runs `body` inside the current batch, or inside a transaction of its own.
    template <typename Body> auto inTransaction(std::string_view what, Body&& body) -> decltype(body())
    {
        if (batchDepth > 0) {
            auto result = body();
            if (result.hasError())
                return writeError(result.error(), what);
            return result;
        }
        auto transaction = sqlite::Transaction::begin(db);
        if (transaction.hasError())
            return writeError(transaction.error(), what);
        auto result = body();
        if (result.hasError())
            return writeError(result.error(), what);
        auto committed = transaction.value().commit();
        if (committed.hasError())
            return writeError(committed.error(), what);
        return result;
    }

    Result<Statement*> statement(const std::string& sql)
    {
        auto it = statements.find(sql);
        if (it == statements.end()) {
            auto stmt = db.prepare(sql);
            if (stmt.hasError())
                return stmt.error();
            it = statements.emplace(sql, std::move(stmt).value()).first;
        }
        return &it->second;
    }

    Result<std::int64_t> intern(std::unordered_map<std::string, std::int64_t>& cache, const char* table,
        const char* column, std::string_view value)
    {
        std::string key(value);
        if (auto it = cache.find(key); it != cache.end())
            return it->second;
        auto select = statement(fmt::format("SELECT id FROM {} WHERE {} = ?1", table, column));
        if (select.hasError())
            return select.error();
        Statement& s = *select.value();
        s.bind(1, value);
        auto row = s.step();
        if (row.hasError()) {
            s.reset();
            return row.error();
        }
        std::int64_t id = 0;
        const bool found = row.value() == Statement::Step::Row;
        if (found)
            id = s.columnInt(0);
        s.reset();
        if (!found) {
            auto insert = statement(fmt::format("INSERT INTO {}({}) VALUES(?1)", table, column));
            if (insert.hasError())
                return insert.error();
            insert.value()->bind(1, value);
            RIDGELINE_TRY(insert.value()->run());
            id = db.lastInsertRowid();
        }
        cache.emplace(std::move(key), id);
        return id;
    }

    Result<std::int64_t> internString(std::string_view value) { return intern(strings, "strings", "value", value); }
};

SessionWriter::SessionWriter(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{ }

SessionWriter::SessionWriter(SessionWriter&&) noexcept = default;
SessionWriter& SessionWriter::operator=(SessionWriter&&) noexcept = default;

SessionWriter::~SessionWriter()
{
    if (!m_impl || m_impl->finished)
        return;
    const bool removeWork = m_impl->options.atomic;
    const std::string work = m_impl->workPath;
    m_impl.reset(); // closes the database first
    if (removeWork) {
        std::error_code ec;
        for (const char* suffix : { "", "-journal", "-wal", "-shm" })
            fs::remove(work + suffix, ec);
    }
}

Result<SessionWriter> SessionWriter::create(const std::string& path, const WriterOptions& options)
{
    std::error_code ec;
    if (fs::exists(path, ec) && !options.replaceExisting)
        return makeError(
            ErrorCode::InvalidArgument, fmt::format("{} already exists (choose another name or overwrite it)", path));
    const std::string work = options.atomic ? fmt::format("{}.tmp-{}", path, getpid()) : path;
    for (const char* suffix : { "", "-journal", "-wal", "-shm" })
        fs::remove(work + suffix, ec);

    auto db = sqlite::Database::open(work, sqlite::Database::Mode::Create);
    if (db.hasError())
        return makeError(ErrorCode::Io, fmt::format("cannot create {}: {}", path, db.error().message));
    auto impl = std::make_unique<Impl>(std::move(db).value());
    impl->finalPath = path;
    impl->workPath = work;
    impl->options = options;
    SessionWriter writer(std::move(impl));
    auto& database = writer.m_impl->db;

    // An atomic file is private until renamed; a live one is read while it grows (WAL, below).
    // An atomic writer's index build may sort on helper threads (SQLite's multi-threaded sorter).
    const char* pragmas = options.atomic ? "PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF; PRAGMA "
                                           "cache_size=-65536; PRAGMA temp_store=MEMORY; PRAGMA threads=4;"
                                         : "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;";
    auto configured = database.exec(pragmas);
    if (configured.hasError())
        return writeError(configured.error(), path);
    if (options.maxPageCount > 0) {
        auto limited = database.exec(fmt::format("PRAGMA max_page_count={}", options.maxPageCount).c_str());
        if (limited.hasError())
            return limited.error();
    }
    auto created = writer.m_impl->inTransaction("the session schema", [&]() -> Status {
        RIDGELINE_TRY(schema::create(database));
        if (options.indexesUpFront)
            RIDGELINE_TRY(schema::createIndexes(database));
        return {};
    });
    if (created.hasError())
        return created.error();
    // Only now WAL: the schema stamp (application_id, user_version) is then already in the main
    // file's header, where readers check it before they let SQLite read anything.
    if (!options.atomic) {
        auto wal = database.exec("PRAGMA journal_mode=WAL;");
        if (wal.hasError())
            return writeError(wal.error(), path);
    }

    const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    const std::pair<const char*, std::string> meta[] = {
        { metakey::Format, "ridgeline-session" },
        { metakey::ToolVersion, kVersion },
        { metakey::CreatedAt, fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now) },
        { metakey::Status, toString(SessionStatus::Partial) },
        { metakey::Host, hostName() },
    };
    for (const auto& [key, value] : meta)
        RIDGELINE_TRY(writer.setMeta(key, value));
    return writer;
}

const std::string& SessionWriter::path() const
{
    return m_impl->finalPath;
}

Status SessionWriter::setMeta(std::string_view key, std::string_view value)
{
    return m_impl->inTransaction("session metadata", [&]() -> Status {
        auto stmt = m_impl->db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)");
        if (stmt.hasError())
            return stmt.error();
        stmt.value().bind(1, key);
        stmt.value().bind(2, value);
        return stmt.value().run();
    });
}

Status SessionWriter::beginBatch()
{
    if (m_impl->batchDepth++ == 0) {
        auto begun = m_impl->db.exec("BEGIN IMMEDIATE");
        if (begun.hasError()) {
            m_impl->batchDepth = 0;
            return writeError(begun.error(), "a batch");
        }
    }
    return {};
}

Status SessionWriter::commitBatch()
{
    if (m_impl->batchDepth == 0)
        return makeError(ErrorCode::InvalidArgument, "commitBatch() without beginBatch()");
    if (--m_impl->batchDepth > 0)
        return {};
    auto committed = m_impl->db.exec("COMMIT");
    if (committed.hasError()) {
        (void)m_impl->db.exec("ROLLBACK");
        return writeError(committed.error(), "a batch");
    }
    return {};
}

Result<std::int64_t> SessionWriter::addDevice(const Device& d)
{
    return m_impl->inTransaction("a device", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->db.prepare(
            "INSERT INTO devices(id, host, ordinal, uuid, name, cc_major, cc_minor, sm_count, core_clock_khz, "
            "memory_clock_khz, memory_bytes, memory_bus_width_bits, l2_cache_bytes, max_threads_per_sm, "
            "shared_memory_per_sm_bytes, nvlink_bandwidth, pcie_bandwidth) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)");
        if (stmt.hasError())
            return stmt.error();
        auto& s = stmt.value();
        s.bind(1, d.id); // explicit: device 0 is a real device
        s.bind(2, d.host);
        s.bind(3, d.ordinal);
        s.bind(4, d.uuid);
        s.bind(5, d.name);
        s.bind(6, d.ccMajor);
        s.bind(7, d.ccMinor);
        s.bind(8, d.smCount);
        s.bind(9, d.coreClockKhz);
        s.bind(10, d.memoryClockKhz);
        s.bind(11, d.memoryBytes);
        s.bind(12, d.memoryBusWidthBits);
        s.bind(13, d.l2CacheBytes);
        s.bind(14, d.maxThreadsPerSm);
        s.bind(15, d.sharedMemoryPerSmBytes);
        s.bind(16, d.nvlinkBandwidthBytesPerS);
        s.bind(17, d.pcieBandwidthBytesPerS);
        RIDGELINE_TRY(s.run());
        return m_impl->db.lastInsertRowid();
    });
}

Result<std::int64_t> SessionWriter::addProcess(const Process& p)
{
    return m_impl->inTransaction("a process", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->db.prepare("INSERT INTO processes(id, pid, host, rank, world_size, command, start_ns, "
                                       "end_ns, exit_status) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
        if (stmt.hasError())
            return stmt.error();
        auto& s = stmt.value();
        bindId(s, 1, p.id);
        s.bind(2, p.pid);
        s.bind(3, p.host);
        s.bind(4, p.rank);
        s.bind(5, p.worldSize);
        s.bind(6, p.command);
        s.bind(7, p.startNs);
        s.bind(8, p.endNs);
        s.bind(9, p.exitStatus);
        RIDGELINE_TRY(s.run());
        return m_impl->db.lastInsertRowid();
    });
}

Status SessionWriter::addThreads(std::span<const Thread> threads)
{
    return m_impl->inTransaction("threads", [&]() -> Status {
        auto stmt = m_impl->db.prepare("INSERT INTO threads(id, process_id, tid, name) VALUES(?1,?2,?3,?4)");
        if (stmt.hasError())
            return stmt.error();
        for (const auto& t : threads) {
            auto& s = stmt.value();
            bindId(s, 1, t.id);
            s.bind(2, t.processId);
            s.bind(3, t.tid);
            s.bind(4, t.name);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
}

Status SessionWriter::addCeilings(std::span<const Ceiling> ceilings)
{
    return m_impl->inTransaction("ceilings", [&]() -> Status {
        auto stmt = m_impl->db.prepare("INSERT OR REPLACE INTO ceilings(device_id, resource, source, value, unit, "
                                       "note) VALUES(?1,?2,?3,?4,?5,?6)");
        if (stmt.hasError())
            return stmt.error();
        for (const auto& c : ceilings) {
            auto& s = stmt.value();
            s.bind(1, c.deviceId);
            s.bind(2, c.resource);
            s.bind(3, toString(c.source));
            s.bind(4, c.value);
            s.bind(5, c.unit);
            s.bind(6, c.note);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
}

Result<std::int64_t> SessionWriter::internKernelName(std::string_view raw, std::string_view demangled)
{
    std::string key(raw);
    if (auto it = m_impl->kernelNames.find(key); it != m_impl->kernelNames.end())
        return it->second;
    auto id = m_impl->inTransaction("a kernel name", [&]() -> Result<std::int64_t> {
        auto stmt = m_impl->statement("INSERT INTO kernel_names(raw, demangled) VALUES(?1, ?2) "
                                      "ON CONFLICT(raw) DO UPDATE SET raw = raw RETURNING id");
        if (stmt.hasError())
            return stmt.error();
        Statement& s = *stmt.value();
        s.bind(1, raw);
        s.bind(2, demangled.empty() ? demangle(raw) : std::string(demangled));
        auto row = s.step();
        const std::int64_t value = row.ok() ? s.columnInt(0) : 0;
        s.reset();
        if (row.hasError())
            return row.error();
        return value;
    });
    if (id.ok())
        m_impl->kernelNames.emplace(std::move(key), id.value());
    return id;
}

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
            RIDGELINE_TRY(s.run());
            if (first == 0)
                first = m_impl->db.lastInsertRowid();
        }
        return first;
    });
}

Status SessionWriter::addMetrics(std::span<const MetricValue> metrics)
{
    return m_impl->inTransaction("kernel metrics", [&]() -> Status {
        auto cached
            = m_impl->statement("INSERT OR REPLACE INTO kernel_metrics(kernel_id, metric_id, value) VALUES(?1,?2,?3)");
        if (cached.hasError())
            return cached.error();
        for (const auto& m : metrics) {
            auto metricId = m_impl->intern(m_impl->metricNames, "metric_names", "name", m.name);
            if (metricId.hasError())
                return metricId.error();
            // A metric's unit is recorded once, from the first value that names it.
            if (!m.unit.empty() && m_impl->metricsWithUnit.insert(metricId.value()).second) {
                auto unit = m_impl->statement("UPDATE metric_names SET unit = ?2 WHERE id = ?1 AND unit = ''");
                if (unit.hasError())
                    return unit.error();
                unit.value()->bind(1, metricId.value());
                unit.value()->bind(2, m.unit);
                RIDGELINE_TRY(unit.value()->run());
            }
            Statement& s = *cached.value();
            s.bind(1, m.kernelId);
            s.bind(2, metricId.value());
            s.bind(3, m.value);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
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
        auto stmt
            = m_impl->db.prepare("INSERT INTO api_calls(id, process_id, thread_id, domain_id, name_id, "
                                 "correlation_id, start_ns, end_ns, return_code) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
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
            "root, algorithm, protocol, process_group, start_ns, end_ns) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)");
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
            s.bind(2, v.verdict);
            s.bind(3, v.boundBy);
            s.bind(4, v.utilization);
            s.bind(5, v.reason);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
}

Status SessionWriter::finish(SessionStatus status)
{
    if (m_impl->finished)
        return makeError(ErrorCode::InvalidArgument, "the session is already finished");
    if (m_impl->batchDepth > 0)
        return makeError(ErrorCode::InvalidArgument, "finish() inside a batch");
    for (const auto& [table, longest] : m_impl->maxDurations)
        RIDGELINE_TRY(setMeta(std::string(metakey::MaxDurationPrefix) + table, std::to_string(longest)));
    RIDGELINE_TRY(setMeta(metakey::Status, toString(status)));
    // A small page cache makes SQLite's sorter spill sorted runs that its helper threads (PRAGMA
    // threads) sort and merge in parallel: the index build is ~15 % faster than with 64 MB.
    if (m_impl->options.atomic)
        RIDGELINE_TRY(m_impl->db.exec("PRAGMA cache_size=-8192"));
    auto indexed
        = m_impl->inTransaction("the session indexes", [&]() -> Status { return schema::createIndexes(m_impl->db); });
    if (indexed.hasError())
        return indexed;
    // One self-contained file, no -wal beside it, when nobody is reading it. While readers hold
    // the WAL this cannot be done; the data is safe in the WAL and SQLite folds it into the file
    // when the last connection closes.
    if (!m_impl->options.atomic) {
        if (m_impl->db.exec("PRAGMA wal_checkpoint(TRUNCATE)").ok())
            (void)m_impl->db.exec("PRAGMA journal_mode=DELETE");
    }
    m_impl->statements.clear();
    m_impl->db.close();
    m_impl->finished = true;
    if (m_impl->options.atomic) {
        syncFile(m_impl->workPath);
        std::error_code ec;
        fs::rename(m_impl->workPath, m_impl->finalPath, ec);
        if (ec)
            return makeError(ErrorCode::Io,
                fmt::format("cannot move the finished session to {} ({}); it is kept as {}", m_impl->finalPath,
                    ec.message(), m_impl->workPath));
    }
    return {};
}

} // namespace ridgeline::core
