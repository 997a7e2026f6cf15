// SPDX-License-Identifier: MIT
#include "ridgeline/core/store/sessionreader.h"

#include "columnread.h"
#include "fileheader.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sqlite.h"
#include "schema.h"
#include "sessionreaderimpl.h"

#include <array>
#include <fmt/format.h>
#include <sqlite3.h>
#include <thread>

namespace ridgeline::core {

using sqlite::Statement;

using detail::inFile;

namespace {

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

// What open() and openImage() share once the header passed: the schema, checked, and an older one
// migrated (in a copy).
Result<sqlite::Database> validatedSession(sqlite::Database database, int fileVersion, const std::string& path)
{
    // SQLite's own view of the header must agree with ours (it also reads a hot journal).
    auto version = database.queryInt("PRAGMA user_version");
    if (version.hasError())
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: not a readable session ({})", path, version.error().message));
    if (version.value() != fileVersion)
        return makeError(ErrorCode::BadFile, fmt::format("{}: inconsistent schema version", path));
    auto validated = schema::validate(database, fileVersion);
    if (validated.hasError())
        return inFile(path, validated.error());
    if (fileVersion == kSchemaVersion)
        return database;
    auto migrated = migratedCopy(database, fileVersion);
    if (migrated.hasError())
        return inFile(path, migrated.error());
    // What the migration added must now be there, like in a file of this version.
    if (auto complete = schema::validate(migrated.value(), kSchemaVersion); complete.hasError())
        return inFile(path, complete.error());
    return migrated;
}

} // namespace

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
    // A reader is used by one thread at a time (its cached rows are not locked either), so its
    // connection needs no mutex: a lock and an unlock less per step and per column read.
    auto db = sqlite::Database::open(path, sqlite::Database::Mode::ReadOnly, true);
    if (db.hasError())
        return makeError(ErrorCode::Io, db.error().message);
    auto ready = validatedSession(std::move(db).value(), header.value().schemaVersion, path);
    if (ready.hasError())
        return ready.error();
    auto impl = std::make_unique<Impl>(std::move(ready).value());
    impl->path = path;
    impl->fromFile = true;
    impl->fileSchemaVersion = header.value().schemaVersion;
    return SessionReader(std::move(impl));
}

Result<SessionReader> SessionReader::reopen() const
{
    if (!m_impl->fromFile)
        return makeError(
            ErrorCode::InvalidArgument, m_impl->path + ": a session held in memory cannot be opened again");
    return open(m_impl->path);
}

std::optional<SessionReader> SessionReader::readerForSplitScan(std::pair<std::int64_t, std::int64_t> ids) const
{
    // SQLite's stepping is most of such a scan (a 100 M-op session: 86 M kernels); below this many
    // ids a second connection and thread cost more than they save.
    constexpr std::int64_t kSplitAboveIds = 2'000'000;
    if (std::thread::hardware_concurrency() < 2 || saturatingSub(ids.second, ids.first) < kSplitAboveIds)
        return std::nullopt;
    auto second = reopen();
    if (second.hasError())
        return std::nullopt; // a session in memory
    return std::move(second).value();
}

Result<SessionReader> SessionReader::openImage(std::string_view image, const std::string& name)
{
    return openImageAs(image, name, false);
}

Result<SessionReader> SessionReader::openEditableImage(std::string_view image, const std::string& name)
{
    return openImageAs(image, name, true);
}

void SessionReader::forgetCachedRows()
{
    m_impl->cache = {};
    m_impl->derived.clear();
}

std::shared_ptr<const void> SessionReader::derived(std::string_view key) const
{
    const auto it = m_impl->derived.find(key);
    return it == m_impl->derived.end() ? nullptr : it->second;
}

void SessionReader::keepDerived(std::string_view key, std::shared_ptr<const void> value)
{
    m_impl->derived[std::string(key)] = std::move(value);
}

Result<SessionReader> SessionReader::openImageAs(std::string_view image, const std::string& name, bool editable)
{
    auto header = inspectImageHeader(image, name);
    if (header.hasError())
        return header.error();
    auto db = sqlite::Database::openImage(
        image, editable ? sqlite::Database::Mode::ReadWrite : sqlite::Database::Mode::ReadOnly);
    if (db.hasError())
        return inFile(name, db.error());
    auto ready = validatedSession(std::move(db).value(), header.value().schemaVersion, name);
    if (ready.hasError())
        return ready.error();
    auto impl = std::make_unique<Impl>(std::move(ready).value());
    impl->path = name;
    impl->fileSchemaVersion = header.value().schemaVersion;
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
    return m_impl->once(m_impl->cache.meta, [&]() -> Result<std::map<std::string, std::string>> {
        std::map<std::string, std::string> out;
        auto status = m_impl->query("SELECT key, value FROM meta", {}, [&](Statement& s) {
            out[s.columnText(0)] = s.columnText(1);
            return true;
        });
        if (status.hasError())
            return status.error();
        return out;
    });
}

Result<std::vector<Device>> SessionReader::devices()
{
    return m_impl->once(m_impl->cache.devices, [&] {
        return m_impl->collect<Device>(
            "SELECT id, host, ordinal, uuid, name, cc_major, cc_minor, sm_count, core_clock_khz, memory_clock_khz, "
            "memory_bytes, memory_bus_width_bits, l2_cache_bytes, max_threads_per_sm, shared_memory_per_sm_bytes, "
            "nvlink_bandwidth, pcie_bandwidth FROM devices ORDER BY id",
            {}, [](Statement& s) {
                Device d;
                detail::readAll(s, d.id, d.host, d.ordinal, d.uuid, d.name, d.ccMajor, d.ccMinor, d.smCount,
                    d.coreClockKhz, d.memoryClockKhz, d.memoryBytes, d.memoryBusWidthBits, d.l2CacheBytes,
                    d.maxThreadsPerSm, d.sharedMemoryPerSmBytes, d.nvlinkBandwidthBytesPerS, d.pcieBandwidthBytesPerS);
                return d;
            });
    });
}

Result<std::vector<Ceiling>> SessionReader::ceilings(std::optional<std::int64_t> deviceId)
{
    auto all = m_impl->once(m_impl->cache.ceilings, [&] {
        return m_impl->collect<Ceiling>("SELECT device_id, resource, source, value, unit, note FROM ceilings "
                                        "ORDER BY device_id, resource, source",
            {}, [](Statement& s) {
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
    });
    if (all.hasError() || !deviceId)
        return all;
    std::vector<Ceiling> ofDevice;
    for (auto& c : all.value())
        if (c.deviceId == *deviceId)
            ofDevice.push_back(std::move(c));
    return ofDevice;
}

Result<std::vector<Process>> SessionReader::processes()
{
    return m_impl->once(m_impl->cache.processes, [&] {
        return m_impl->collect<Process>(
            "SELECT id, pid, host, rank, world_size, command, start_ns, end_ns, exit_status FROM processes ORDER BY id",
            {}, [](Statement& s) {
                Process p;
                detail::readAll(
                    s, p.id, p.pid, p.host, p.rank, p.worldSize, p.command, p.startNs, p.endNs, p.exitStatus);
                return p;
            });
    });
}

Result<std::vector<Thread>> SessionReader::threads()
{
    return m_impl->once(m_impl->cache.threads, [&] {
        return m_impl->collect<Thread>(
            "SELECT id, process_id, tid, name FROM threads ORDER BY id", {}, [](Statement& s) {
                return Thread { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnText(3) };
            });
    });
}

Result<std::vector<KernelName>> SessionReader::kernelNames()
{
    return m_impl->once(m_impl->cache.kernelNames, [&] {
        return m_impl->collect<KernelName>(
            "SELECT id, raw, demangled FROM kernel_names ORDER BY id", {}, [](Statement& s) {
                return KernelName { s.columnInt(0), s.columnText(1), s.columnText(2) };
            });
    });
}

Result<TableCounts> SessionReader::counts()
{
    return m_impl->once(m_impl->cache.counts, [&]() -> Result<TableCounts> {
        TableCounts c;
        const std::array<std::pair<std::int64_t*, const char*>, 15> queries { {
            { &c.devices, "SELECT count(*) FROM devices" },
            { &c.processes, "SELECT count(*) FROM processes" },
            { &c.threads, "SELECT count(*) FROM threads" },
            { &c.kernelNames, "SELECT count(*) FROM kernel_names" },
            { &c.kernels, "SELECT count(*) FROM kernels" },
            { &c.metrics, "SELECT CAST(total(count) AS INTEGER) FROM metric_values" },
            { &c.memcpys, "SELECT count(*) FROM memops WHERE kind <> 'memset'" },
            { &c.memsets, "SELECT count(*) FROM memops WHERE kind = 'memset'" },
            { &c.apiCalls, "SELECT count(*) FROM api_calls" },
            { &c.nvtxRanges, "SELECT count(*) FROM nvtx_ranges" },
            { &c.commOps, "SELECT count(*) FROM comm_ops" },
            { &c.verdicts, "SELECT count(*) FROM verdicts" },
            { &c.ceilings, "SELECT count(*) FROM ceilings" },
            { &c.operators, "SELECT CAST(total(count) AS INTEGER) FROM operator_chunks" },
            { &c.ncuRules, "SELECT count(*) FROM ncu_rules" },
        } };
        for (const auto& [target, sql] : queries) {
            auto value = m_impl->db.queryInt(sql);
            if (value.hasError())
                return inFile(m_impl->path, value.error());
            *target = value.value();
        }
        return c;
    });
}

Result<TimeSpan> SessionReader::gpuTimeSpan()
{
    return m_impl->once(m_impl->cache.gpuTimeSpan, [&]() -> Result<TimeSpan> {
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
    });
}

sqlite::Database& SessionReader::database()
{
    return m_impl->db;
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
