// SPDX-License-Identifier: MIT
#include "ridgeline/core/store/sessionwriter.h"

#include "ridgeline/core/base/hostname.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sqlite.h"
#include "ridgeline/core/version.h"
#include "schema.h"
#include "sessionwriterimpl.h"

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
namespace {

// Makes the finished file durable before it gets its final name.
void syncFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

constexpr const char* kInMemoryPragmas = "PRAGMA journal_mode=MEMORY;";
// An empty session has about 30 pages (4 KiB each); a reset() beyond this many makes a fresh copy.
constexpr std::int64_t kMaxPagesToEmpty = 256;

// An in-memory session, its schema made (and its indexes, when asked for up front): a copy of an
// empty session built once per process. Each fuzz process writes into one (reset() between inputs,
// and a new copy after an input that grew it), and making the schema takes milliseconds (each
// migration step makes SQLite parse the whole schema again).
Result<sqlite::Database> emptySession(bool withIndexes)
{
    const auto make = [](bool indexes) -> Result<std::string> {
        auto db = sqlite::Database::openMemory();
        if (db.hasError())
            return db.error();
        RIDGELINE_TRY(schema::create(db.value()));
        if (indexes)
            RIDGELINE_TRY(schema::createIndexes(db.value()));
        return db.value().image();
    };
    static const Result<std::string> plain = make(false), indexed = make(true);
    const auto& image = withIndexes ? indexed : plain;
    if (image.hasError())
        return image.error();
    return sqlite::Database::openImage(image.value(), sqlite::Database::Mode::ReadWrite);
}

} // namespace

const char* toString(SessionStatus status)
{
    return status == SessionStatus::Complete ? "complete" : "partial";
}

SessionWriter::SessionWriter(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{ }

SessionWriter::SessionWriter(SessionWriter&&) noexcept = default;
SessionWriter& SessionWriter::operator=(SessionWriter&&) noexcept = default;

SessionWriter::~SessionWriter()
{
    if (!m_impl || m_impl->finished)
        return;
    const bool removeWork = m_impl->options.atomic && !m_impl->options.inMemory;
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
    if (!options.inMemory && fs::exists(path, ec) && !options.replaceExisting)
        return makeError(
            ErrorCode::InvalidArgument, fmt::format("{} already exists (choose another name or overwrite it)", path));
    const std::string work = options.atomic && !options.inMemory ? fmt::format("{}.tmp-{}", path, getpid()) : path;
    if (!options.inMemory) {
        for (const char* suffix : { "", "-journal", "-wal", "-shm" })
            fs::remove(work + suffix, ec);
    }

    // A SessionWriter is not thread-safe itself (its caches), so its connection needs no mutex.
    auto db = options.inMemory ? emptySession(options.indexesUpFront)
                               : sqlite::Database::open(work, sqlite::Database::Mode::Create, true);
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
    const char* pragmas = options.inMemory ? kInMemoryPragmas
        : options.atomic                   ? "PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF; PRAGMA "
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
        if (!options.inMemory) // an in-memory session starts with its schema
            RIDGELINE_TRY(schema::create(database));
        if (options.indexesUpFront && !options.inMemory) // an in-memory one has them from its copy
            RIDGELINE_TRY(schema::createIndexes(database));
        return {};
    });
    if (created.hasError())
        return created.error();
    // Only now WAL: the schema stamp (application_id, user_version) is then already in the main
    // file's header, where readers check it before they let SQLite read anything.
    if (!options.atomic && !options.inMemory) {
        auto wal = database.exec("PRAGMA journal_mode=WAL;");
        if (wal.hasError())
            return writeError(wal.error(), path);
    }

    RIDGELINE_TRY(writer.setFirstMeta());
    return writer;
}

Status SessionWriter::setFirstMeta()
{
    const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    const std::pair<const char*, std::string> meta[] = {
        { metakey::Format, "ridgeline-session" },
        { metakey::ToolVersion, kVersion },
        { metakey::CreatedAt, fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now) },
        { metakey::Status, toString(SessionStatus::Partial) },
        { metakey::Host, hostName() },
    };
    for (const auto& [key, value] : meta)
        RIDGELINE_TRY(setMeta(key, value));
    return {};
}

// A session edited afterwards by another SQLite tool (a script that fixes times, a test) forgets its
// stored totals, and readers scan the kernels again. Ridgeline's own connections never run
// triggers (sqlite.cpp, harden()), so these cost nothing when it reads or writes the file.
constexpr const char* kForgetKernelTotalsOnEdits = R"sql(
CREATE TRIGGER IF NOT EXISTS kernel_totals_on_insert AFTER INSERT ON kernels
    BEGIN DELETE FROM stored_summaries WHERE name = 'kernel_totals'; END;
CREATE TRIGGER IF NOT EXISTS kernel_totals_on_delete AFTER DELETE ON kernels
    BEGIN DELETE FROM stored_summaries WHERE name = 'kernel_totals'; END;
CREATE TRIGGER IF NOT EXISTS kernel_totals_on_update
    AFTER UPDATE OF device_id, name_id, start_ns, end_ns, graph_range_kernels ON kernels
    BEGIN DELETE FROM stored_summaries WHERE name = 'kernel_totals'; END;
)sql";

Status SessionWriter::Impl::storeKernelTotals()
{
    return inTransaction("the kernel totals", [&]() -> Status {
        auto insert = statement("INSERT INTO kernel_totals(name_id, device_id, launches, graph_level_launches, "
                                "total_ns, min_ns, max_ns) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        if (insert.hasError())
            return insert.error();
        Statement& s = *insert.value();
        for (const auto& t : kernelTotals.rows()) {
            bindAll(s, t.nameId, t.deviceId, t.launches, t.graphLevelLaunches, t.totalNs, t.minNs, t.maxNs);
            RIDGELINE_TRY(s.run());
        }
        auto stored = statement("INSERT OR REPLACE INTO stored_summaries(name, version) VALUES('kernel_totals', ?1)");
        if (stored.hasError())
            return stored.error();
        bindAll(*stored.value(), static_cast<std::int64_t>(kKernelTotalsVersion));
        RIDGELINE_TRY(stored.value()->run());
        return db.exec(kForgetKernelTotalsOnEdits);
    });
}

Status SessionWriter::Impl::deleteAllRows()
{
    std::vector<std::string> tables;
    {
        auto names
            = db.prepareCached("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
        if (names.hasError())
            return names.error();
        for (;;) {
            auto row = (*names.value()).step();
            if (row.hasError())
                return row.error();
            if (row.value() != Statement::Step::Row)
                break;
            tables.push_back((*names.value()).columnText(0));
        }
    }
    return inTransaction("an empty session", [&]() -> Status {
        for (const auto& table : tables) {
            auto clear = statement(fmt::format("DELETE FROM \"{}\"", table));
            if (clear.hasError())
                return clear.error();
            RIDGELINE_TRY(clear.value()->run());
        }
        return {};
    });
}

Status SessionWriter::reset()
{
    auto& impl = *m_impl;
    if (!impl.options.inMemory)
        return makeError(ErrorCode::InvalidArgument, "only an in-memory session can be reset");
    if (impl.batchDepth > 0) {
        impl.batchDepth = 0;
        (void)impl.db.exec("ROLLBACK"); // none is open when SQLite rolled it back itself (a full disk)
    }
    // DELETE leaves the pages it frees in the session: after an import that grew it (a 1 MB string),
    // every later image() and check would copy and walk them. A copy of the empty session then.
    auto pages = impl.db.queryInt("PRAGMA page_count");
    if (pages.hasError())
        return pages.error();
    if (pages.value() > kMaxPagesToEmpty) {
        auto fresh = emptySession(impl.options.indexesUpFront);
        if (fresh.hasError())
            return fresh.error();
        impl.statements.clear();
        impl.db = std::move(fresh).value();
        impl.indexed = false;
        RIDGELINE_TRY(impl.db.exec(kInMemoryPragmas));
    } else {
        RIDGELINE_TRY(impl.deleteAllRows());
    }
    impl.finished = false;
    impl.kernelNames.clear();
    impl.strings.clear();
    impl.metricNames.clear();
    impl.metricsWithUnit.clear();
    impl.kernelsWithMetrics.clear();
    impl.kernelTotals.clear();
    impl.kernelTotalsKnown = true;
    for (auto& [table, longest] : impl.maxDurations)
        longest = 0;
    return setFirstMeta();
}

const std::string& SessionWriter::path() const
{
    return m_impl->finalPath;
}

Result<std::string> SessionWriter::image()
{
    if (!m_impl->options.inMemory || !m_impl->finished)
        return makeError(ErrorCode::InvalidArgument, "only a finished in-memory session has an image");
    auto image = m_impl->db.image();
    if (image.hasError())
        return writeError(image.error(), "the session");
    return image;
}

Status SessionWriter::setMeta(std::string_view key, std::string_view value)
{
    return m_impl->inTransaction("session metadata", [&]() -> Status {
        auto stmt = m_impl->statement("INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)");
        if (stmt.hasError())
            return stmt.error();
        stmt.value()->bind(1, key);
        stmt.value()->bind(2, value);
        return stmt.value()->run();
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
        m_impl->kernelTotalsKnown = false; // kernels added in the batch are gone
        return writeError(committed.error(), "a batch");
    }
    return {};
}

Result<std::int64_t> SessionWriter::addDevice(const Device& device)
{
    return m_impl->insertRows("a device",
        "INSERT INTO devices(id, host, ordinal, uuid, name, cc_major, cc_minor, sm_count, core_clock_khz, "
        "memory_clock_khz, memory_bytes, memory_bus_width_bits, l2_cache_bytes, max_threads_per_sm, "
        "shared_memory_per_sm_bytes, nvlink_bandwidth, pcie_bandwidth) "
        "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)",
        std::span(&device, 1), [](Statement& s, const Device& d) {
            // The id explicitly: device 0 is a real device.
            bindAll(s, d.id, d.host, d.ordinal, d.uuid, d.name, d.ccMajor, d.ccMinor, d.smCount, d.coreClockKhz,
                d.memoryClockKhz, d.memoryBytes, d.memoryBusWidthBits, d.l2CacheBytes, d.maxThreadsPerSm,
                d.sharedMemoryPerSmBytes, d.nvlinkBandwidthBytesPerS, d.pcieBandwidthBytesPerS);
        });
}

Result<std::int64_t> SessionWriter::addProcess(const Process& process)
{
    return m_impl->insertRows("a process",
        "INSERT INTO processes(id, pid, host, rank, world_size, command, start_ns, end_ns, exit_status) "
        "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
        std::span(&process, 1), [](Statement& s, const Process& p) {
            bindAll(s, NewId { p.id }, p.pid, p.host, p.rank, p.worldSize, p.command, p.startNs, p.endNs, p.exitStatus);
        });
}

Status SessionWriter::addThreads(std::span<const Thread> threads)
{
    return withoutId(m_impl->insertRows("threads", "INSERT INTO threads(id, process_id, tid, name) VALUES(?1,?2,?3,?4)",
        threads, [](Statement& s, const Thread& t) { bindAll(s, NewId { t.id }, t.processId, t.tid, t.name); }));
}

Status SessionWriter::addCeilings(std::span<const Ceiling> ceilings)
{
    return withoutId(m_impl->insertRows("ceilings", detail::kInsertCeiling, ceilings,
        [](Statement& s, const Ceiling& c) { detail::bindCeiling(s, c.deviceId, c); }));
}

Result<std::int64_t> SessionWriter::internKernelName(std::string_view raw, std::string_view demangled)
{
    std::string key(raw);
    if (auto it = m_impl->kernelNames.find(key); it != m_impl->kernelNames.end())
        return it->second;
    auto id = m_impl->inTransaction("a kernel name", [&]() -> Result<std::int64_t> {
        std::int64_t value = 0;
        auto found = m_impl->readRow(
            "INSERT INTO kernel_names(raw, demangled) VALUES(?1, ?2) ON CONFLICT(raw) DO UPDATE SET raw = raw "
            "RETURNING id",
            [&](Statement& s) { value = s.columnInt(0); }, raw,
            demangled.empty() ? demangle(raw) : std::string(demangled));
        if (found.hasError())
            return found.error();
        return value;
    });
    if (id.ok())
        m_impl->kernelNames.emplace(std::move(key), id.value());
    return id;
}

Status SessionWriter::buildIndexes()
{
    if (m_impl->options.indexesUpFront || m_impl->indexed) // made in create(), or already
        return {};
    // A small page cache makes SQLite's sorter spill sorted runs that its helper threads (PRAGMA
    // threads) sort and merge in parallel: the index build is ~15 % faster than with 64 MB. The runs
    // go to temporary files: in memory (temp_store=MEMORY) the sorter held them all (418 MB for the
    // indexes of 10 M GPU ops, 4 GB at 100 M) and the build had not ended after 7.5 minutes at
    // 100 M (docs/PERFORMANCE.md, "Sessions of 100 million GPU operations").
    if (m_impl->options.atomic && !m_impl->options.inMemory)
        RIDGELINE_TRY(m_impl->db.exec("PRAGMA cache_size=-8192; PRAGMA temp_store=FILE;"));
    auto indexed
        = m_impl->inTransaction("the session indexes", [&]() -> Status { return schema::createIndexes(m_impl->db); });
    if (indexed.hasError())
        return indexed;
    m_impl->indexed = true;
    return {};
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
    if (m_impl->kernelTotalsKnown)
        RIDGELINE_TRY(m_impl->storeKernelTotals());
    RIDGELINE_TRY(buildIndexes());
    // One self-contained file, no -wal beside it, when nobody is reading it. While readers hold
    // the WAL this cannot be done; the data is safe in the WAL and SQLite folds it into the file
    // when the last connection closes. An in-memory session stays open for image().
    if (!m_impl->options.atomic && !m_impl->options.inMemory) {
        if (m_impl->db.exec("PRAGMA wal_checkpoint(TRUNCATE)").ok())
            (void)m_impl->db.exec("PRAGMA journal_mode=DELETE");
    }
    if (!m_impl->options.inMemory) { // an in-memory session stays open, its statements too (reset())
        m_impl->statements.clear();
        m_impl->db.close();
    }
    m_impl->finished = true;
    if (m_impl->options.atomic && !m_impl->options.inMemory) {
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
