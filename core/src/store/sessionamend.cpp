// SPDX-License-Identifier: MIT
#include "ridgeline/core/store/sessionamend.h"

#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"
#include "rowloop.h"
#include "statementbind.h"

#include <cctype>
#include <fmt/format.h>
#include <functional>

namespace ridgeline::core {

namespace {

using sqlite::Database;

Status setMeta(Database& db, const std::string& key, const std::string& value)
{
    auto stmt = db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)");
    if (stmt.hasError())
        return stmt.error();
    stmt.value().bind(1, key);
    stmt.value().bind(2, value);
    return stmt.value().run();
}

// Runs a query and hands each row to `visit`.
Status forEachRow(Database& db, const char* sql, const std::function<void(sqlite::Statement&)>& visit)
{
    auto stmt = db.prepare(sql);
    if (stmt.hasError())
        return stmt.error();
    return detail::forEachRow(stmt.value(), visit);
}

Status insertCeiling(sqlite::Statement& stmt, std::int64_t deviceId, const Ceiling& c)
{
    stmt.reset();
    detail::bindCeiling(stmt, deviceId, c);
    return stmt.run();
}

Result<int> addCeilings(Database& db, const std::map<std::string, std::vector<Ceiling>>& byUuid)
{
    std::map<std::string, std::vector<std::int64_t>> devices; // canonical uuid -> device ids
    RIDGELINE_TRY(forEachRow(db, "SELECT id, uuid FROM devices",
        [&](sqlite::Statement& row) { devices[canonicalGpuUuid(row.columnText(1))].push_back(row.columnInt(0)); }));
    auto insert = db.prepare(detail::kInsertCeiling);
    if (insert.hasError())
        return insert.error();
    int amended = 0;
    for (const auto& [uuid, ceilings] : byUuid) {
        const auto key = canonicalGpuUuid(uuid);
        auto it = devices.find(key);
        if (key.empty() || it == devices.end())
            continue;
        for (std::int64_t deviceId : it->second) {
            for (const auto& c : ceilings)
                RIDGELINE_TRY(insertCeiling(insert.value(), deviceId, c));
            ++amended;
        }
    }
    return amended;
}

Result<int> nameDevices(Database& db, const SessionAmendment::DeviceNaming& naming)
{
    std::vector<std::int64_t> ids;
    // Importers call a device they cannot name "unknown GPU".
    RIDGELINE_TRY(forEachRow(db, "SELECT id FROM devices WHERE name IN ('', 'unknown GPU')",
        [&](sqlite::Statement& row) { ids.push_back(row.columnInt(0)); }));
    auto update = db.prepare("UPDATE devices SET name = ?1, "
                             "cc_major = CASE WHEN cc_major = 0 AND cc_minor = 0 THEN ?2 ELSE cc_major END, "
                             "cc_minor = CASE WHEN cc_major = 0 AND cc_minor = 0 THEN ?3 ELSE cc_minor END, "
                             "sm_count = CASE WHEN sm_count = 0 THEN ?4 ELSE sm_count END, "
                             "core_clock_khz = CASE WHEN core_clock_khz = 0 THEN ?5 ELSE core_clock_khz END "
                             "WHERE id = ?6");
    auto insert = db.prepare(detail::kInsertCeiling);
    if (update.hasError())
        return update.error();
    if (insert.hasError())
        return insert.error();
    for (auto id : ids) {
        auto& stmt = update.value();
        stmt.reset();
        detail::bindAll(stmt, naming.name, std::int64_t { naming.ccMajor }, std::int64_t { naming.ccMinor },
            std::int64_t { naming.smCount }, naming.coreClockKhz, id);
        RIDGELINE_TRY(stmt.run());
        for (const auto& c : naming.ceilings)
            RIDGELINE_TRY(insertCeiling(insert.value(), id, c));
    }
    return static_cast<int>(ids.size());
}

Status recordProcess(Database& db, const Process& p)
{
    auto existing = db.prepare("SELECT id FROM processes WHERE pid = ?1 AND host = ?2 ORDER BY id LIMIT 1");
    if (existing.hasError())
        return existing.error();
    existing.value().bind(1, p.pid);
    existing.value().bind(2, p.host);
    auto step = existing.value().step();
    if (step.hasError())
        return step.error();
    if (step.value() == sqlite::Statement::Step::Row) {
        const auto id = existing.value().columnInt(0);
        auto update = db.prepare("UPDATE processes SET exit_status = ?1, end_ns = CASE WHEN end_ns = 0 THEN ?2 ELSE "
                                 "end_ns END WHERE id = ?3");
        if (update.hasError())
            return update.error();
        update.value().bind(1, p.exitStatus);
        update.value().bind(2, p.endNs);
        update.value().bind(3, id);
        return update.value().run();
    }
    auto insert = db.prepare("INSERT INTO processes(pid, host, rank, world_size, command, start_ns, end_ns, "
                             "exit_status) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)");
    if (insert.hasError())
        return insert.error();
    detail::bindAll(insert.value(), p.pid, p.host, p.rank, p.worldSize, p.command, p.startNs, p.endNs, p.exitStatus);
    return insert.value().run();
}

// The stored timeline analysis (analysis/storedtimeline.h) reads the processes' ranks, and this
// connection runs no triggers: an amended session forgets it (a file older than v8 has none).
Status forgetStoredTimeline(Database& db)
{
    bool named = false;
    RIDGELINE_TRY(forEachRow(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'stored_summaries'",
        [&](sqlite::Statement&) { named = true; }));
    return named ? db.exec("DELETE FROM stored_summaries WHERE name = 'timeline'") : Status {};
}

Status amendRecords(Database& db, const SessionAmendment& amendment, AmendmentResult& result)
{
    auto transaction = sqlite::Transaction::begin(db);
    if (transaction.hasError())
        return transaction.error();
    RIDGELINE_TRY(forgetStoredTimeline(db));
    for (const auto& [key, value] : amendment.meta) {
        if (value.empty()) {
            auto drop = db.prepare("DELETE FROM meta WHERE key = ?1");
            if (drop.hasError())
                return drop.error();
            drop.value().bind(1, key);
            RIDGELINE_TRY(drop.value().run());
        } else {
            RIDGELINE_TRY(setMeta(db, key, value));
        }
    }
    if (amendment.status)
        RIDGELINE_TRY(setMeta(db, metakey::Status, toString(*amendment.status)));
    auto amended = addCeilings(db, amendment.ceilingsByUuid);
    if (amended.hasError())
        return amended.error();
    result.devicesWithNewCeilings = amended.value();
    if (amendment.unnamedDevices) {
        auto named = nameDevices(db, *amendment.unnamedDevices);
        if (named.hasError())
            return named.error();
        result.devicesNamed = named.value();
    }
    for (const auto& p : amendment.processes)
        RIDGELINE_TRY(recordProcess(db, p));
    if (amendment.defaultRank) {
        auto rank = db.prepare("UPDATE processes SET rank = ?1 WHERE rank < 0");
        if (rank.hasError())
            return rank.error();
        rank.value().bind(1, std::int64_t { *amendment.defaultRank });
        RIDGELINE_TRY(rank.value().run());
    }
    return transaction.value().commit();
}

Status replaceVerdicts(Database& db, const std::vector<Verdict>& verdicts)
{
    auto transaction = sqlite::Transaction::begin(db);
    if (transaction.hasError())
        return transaction.error();
    RIDGELINE_TRY(db.exec("DELETE FROM verdicts"));
    auto insert = db.prepare(detail::kInsertVerdict);
    if (insert.hasError())
        return insert.error();
    for (const auto& v : verdicts) {
        auto& stmt = insert.value();
        stmt.reset();
        detail::bindVerdict(stmt, v);
        RIDGELINE_TRY(stmt.run());
    }
    return transaction.value().commit();
}

} // namespace

Error amendingFailed(const std::string& path, const Error& error)
{
    return makeError(error.code, fmt::format("amending {} failed: {}", path, error.message));
}

Result<AmendmentResult> amendSession(const std::string& path, const SessionAmendment& amendment)
{
    AmendmentResult result;
    {
        // Opened (and so validated) as a session first: the file must be one.
        auto check = SessionReader::open(path);
        if (check.hasError())
            return check.error();
    }
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        if (db.hasError())
            return amendingFailed(path, db.error());
        if (auto amended = amendRecords(db.value(), amendment, result); amended.hasError())
            return amendingFailed(path, amended.error());
    }
    return result;
}

Status replaceSessionVerdicts(const std::string& path, const std::vector<Verdict>& verdicts)
{
    auto db = Database::open(path, Database::Mode::ReadWrite);
    if (db.hasError())
        return amendingFailed(path, db.error());
    if (auto replaced = replaceVerdicts(db.value(), verdicts); replaced.hasError())
        return amendingFailed(path, replaced.error());
    return {};
}

std::string canonicalGpuUuid(std::string_view uuid)
{
    if (uuid.size() >= 4 && (uuid.substr(0, 4) == "GPU-" || uuid.substr(0, 4) == "gpu-"))
        uuid.remove_prefix(4);
    std::string hex;
    for (char c : uuid) {
        if (c == '-')
            continue;
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return {};
        hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return hex.size() == 32 ? hex : std::string {};
}

} // namespace ridgeline::core
