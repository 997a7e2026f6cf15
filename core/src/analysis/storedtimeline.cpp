// SPDX-License-Identifier: MIT
// The whole session's timeline analysis stored in the session (storedtimeline.h).
#include "ridgeline/core/analysis/storedtimeline.h"

#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"
#include "store/rowloop.h"
#include "store/sessionupdate.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace ridgeline::core {

using nlohmann::json;

namespace {

// The tables a whole-session analysis reads besides the verdicts (sessiongpuops.cpp). An edit of
// any of them by another SQLite tool deletes the stored analysis' name; Ridgeline's own connections
// never run triggers (sqlite.cpp, harden()), and `amend` drops it itself (sessionamend.cpp).
std::string forgetOnEditsSql()
{
    std::string sql;
    for (const char* table : { "kernels", "memops", "comm_ops", "api_calls", "processes" }) {
        for (const char* edit : { "INSERT", "DELETE", "UPDATE" })
            sql += fmt::format("CREATE TRIGGER IF NOT EXISTS timeline_on_{0}_{1} AFTER {1} ON {0} BEGIN DELETE FROM "
                               "stored_summaries WHERE name = 'timeline'; END;\n",
                table, edit);
    }
    return sql;
}

void mix(std::uint64_t& hash, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i) { // FNV-1a over the value's bytes
        hash ^= (value >> (8 * i)) & 0xffu;
        hash *= 0x100000001b3ull;
    }
}

double doubleOf(const json& v)
{
    return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>(); // NaN is stored as null
}

bool plausible(const TimelineSummary& s)
{
    const auto nonNegative = [](std::initializer_list<std::int64_t> values) {
        return std::all_of(values.begin(), values.end(), [](std::int64_t v) { return v >= 0; });
    };
    const auto& g = s.idleGaps;
    return nonNegative({ s.kernels, s.memcpys, s.memsets, s.collectives, s.spanNs, s.busyNs, s.idleNs, s.computeNs,
               s.nonComputeNs, s.communicationNs, s.overlapNs, g.hostNotLaunchingNs, g.hostNotLaunchingCount,
               g.waitingNs, g.waitingCount, g.unknownNs, g.unknownCount })
        && std::all_of(s.timeByVerdictNs.begin(), s.timeByVerdictNs.end(), [](std::int64_t v) { return v >= 0; })
        && s.busyNs <= s.spanNs && s.idleNs == s.spanNs - s.busyNs;
}

// A row in one line, for `check`'s examples.
std::string describe(const TimelineSummary& s)
{
    return fmt::format("{} kernels, {} copies, {} memsets, {} collectives; span {} ns, busy {} ns, compute {} ns",
        s.kernels, s.memcpys, s.memsets, s.collectives, s.spanNs, s.busyNs, s.computeNs);
}

// The verdicts of kernelVerdicts, kept with their key: a scan gets them from here.
struct KeyedVerdicts {
    KernelVerdicts verdicts;
    std::uint64_t key = 0;
};

Result<KeyedVerdicts> keyedVerdicts(SessionReader& reader)
{
    auto verdicts = kernelVerdicts(reader);
    if (verdicts.hasError())
        return verdicts.error();
    KeyedVerdicts out { std::move(verdicts).value(), 0 };
    out.key = timelineVerdictsKey(out.verdicts);
    return out;
}

// Whether the session names a stored analysis of this build's version (its rows not yet read).
Result<bool> namesStoredTimeline(SessionReader& reader)
{
    constexpr int kSchemaWithTimelines = 9; // the version that added timeline_summaries
    if (reader.fileSchemaVersion() < kSchemaWithTimelines)
        return false;
    auto named = reader.database().prepare("SELECT 1 FROM stored_summaries WHERE name = 'timeline' AND version = ?1");
    if (named.hasError())
        return named.error();
    named.value().bind(1, static_cast<std::int64_t>(kStoredTimelineVersion));
    bool stored = false;
    RIDGELINE_TRY(detail::forEachRow(named.value(), [&](sqlite::Statement&) { stored = true; }));
    return stored;
}

// The whole session scanned with `verdicts` (never the stored analysis).
Result<std::vector<TimelineSummary>> scanWholeSession(SessionReader& reader, const KernelVerdicts& verdicts)
{
    return analyzeSessionTimeline(
        reader, [&verdicts](SessionReader&) -> Result<KernelVerdicts> { return verdicts; }, TimelineSelection {});
}

Status writeRows(sqlite::Database& db, const std::vector<TimelineSummary>& summaries, std::uint64_t key)
{
    auto transaction = sqlite::Transaction::begin(db);
    if (transaction.hasError())
        return transaction.error();
    RIDGELINE_TRY(db.exec("DELETE FROM timeline_summaries; DELETE FROM stored_summaries WHERE name = 'timeline';"));
    auto insert
        = db.prepare("INSERT INTO timeline_summaries(rank, device_id, verdicts_key, data) VALUES(?1, ?2, ?3, ?4)");
    if (insert.hasError())
        return insert.error();
    for (const auto& s : summaries) {
        auto& stmt = insert.value();
        stmt.reset();
        stmt.bind(1, static_cast<std::int64_t>(s.rank));
        stmt.bind(2, s.deviceId);
        stmt.bind(3, static_cast<std::int64_t>(key));
        stmt.bind(4, timelineSummaryJson(s));
        RIDGELINE_TRY(stmt.run());
    }
    auto named = db.prepare("INSERT INTO stored_summaries(name, version) VALUES('timeline', ?1)");
    if (named.hasError())
        return named.error();
    named.value().bind(1, static_cast<std::int64_t>(kStoredTimelineVersion));
    RIDGELINE_TRY(named.value().run());
    RIDGELINE_TRY(db.exec(forgetOnEditsSql().c_str()));
    return transaction.value().commit();
}

} // namespace

std::uint64_t timelineVerdictsKey(const KernelVerdicts& verdicts)
{
    std::vector<std::pair<std::int64_t, VerdictClass>> sorted(verdicts.begin(), verdicts.end());
    std::sort(sorted.begin(), sorted.end());
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (MemOpKind kind : { MemOpKind::MemcpyHtoD, MemOpKind::MemcpyDtoH, MemOpKind::MemcpyDtoD, MemOpKind::MemcpyHtoH,
             MemOpKind::MemcpyPtoP, MemOpKind::Memset, MemOpKind::Other })
        mix(hash, static_cast<std::uint64_t>(memOpVerdict(kind)));
    mix(hash, sorted.size());
    for (const auto& [id, verdict] : sorted) {
        mix(hash, static_cast<std::uint64_t>(id));
        mix(hash, static_cast<std::uint64_t>(verdict));
    }
    return hash;
}

std::string timelineSummaryJson(const TimelineSummary& s)
{
    json queues = json::array();
    for (const auto& q : s.queues)
        queues.push_back(json::array({ q.streamId, q.launches, q.maxDepth, q.averageDepth }));
    const auto& g = s.idleGaps;
    const json doc = { { "kernels", s.kernels }, { "memcpys", s.memcpys }, { "memsets", s.memsets },
        { "collectives", s.collectives }, { "start_ns", s.startNs }, { "end_ns", s.endNs }, { "span_ns", s.spanNs },
        { "busy_ns", s.busyNs }, { "idle_ns", s.idleNs }, { "compute_ns", s.computeNs },
        { "non_compute_ns", s.nonComputeNs }, { "communication_ns", s.communicationNs }, { "overlap_ns", s.overlapNs },
        { "comm_comp_overlap_pct", s.commCompOverlapPct ? json(*s.commCompOverlapPct) : json(nullptr) },
        { "time_by_verdict_ns", s.timeByVerdictNs },
        // host not launching, waiting, unknown: time and count of each
        { "idle_gaps",
            { g.hostNotLaunchingNs, g.hostNotLaunchingCount, g.waitingNs, g.waitingCount, g.unknownNs,
                g.unknownCount } },
        // [stream, launches, max depth, average depth] per stream
        { "queues", queues } };
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<TimelineSummary> timelineSummaryFromJson(std::string_view text)
{
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return std::nullopt;
    try {
        TimelineSummary s;
        s.kernels = doc.at("kernels").get<std::int64_t>();
        s.memcpys = doc.at("memcpys").get<std::int64_t>();
        s.memsets = doc.at("memsets").get<std::int64_t>();
        s.collectives = doc.at("collectives").get<std::int64_t>();
        s.startNs = doc.at("start_ns").get<std::int64_t>();
        s.endNs = doc.at("end_ns").get<std::int64_t>();
        s.spanNs = doc.at("span_ns").get<std::int64_t>();
        s.busyNs = doc.at("busy_ns").get<std::int64_t>();
        s.idleNs = doc.at("idle_ns").get<std::int64_t>();
        s.computeNs = doc.at("compute_ns").get<std::int64_t>();
        s.nonComputeNs = doc.at("non_compute_ns").get<std::int64_t>();
        s.communicationNs = doc.at("communication_ns").get<std::int64_t>();
        s.overlapNs = doc.at("overlap_ns").get<std::int64_t>();
        if (const auto& pct = doc.at("comm_comp_overlap_pct"); !pct.is_null())
            s.commCompOverlapPct = pct.get<double>();
        const auto byVerdict = doc.at("time_by_verdict_ns").get<std::vector<std::int64_t>>();
        if (byVerdict.size() != s.timeByVerdictNs.size())
            return std::nullopt;
        std::copy(byVerdict.begin(), byVerdict.end(), s.timeByVerdictNs.begin());
        const auto gaps = doc.at("idle_gaps").get<std::vector<std::int64_t>>();
        if (gaps.size() != 6)
            return std::nullopt;
        s.idleGaps = { gaps[0], gaps[1], gaps[2], gaps[3], gaps[4], gaps[5] };
        for (const auto& q : doc.at("queues")) {
            if (!q.is_array() || q.size() != 4)
                return std::nullopt;
            s.queues.push_back(
                { q[0].get<std::int64_t>(), q[1].get<std::int64_t>(), q[2].get<std::int64_t>(), doubleOf(q[3]) });
        }
        if (!plausible(s))
            return std::nullopt;
        return s;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

Result<std::optional<std::vector<TimelineSummary>>> storedTimelineSummaries(
    SessionReader& reader, std::uint64_t verdictsKey)
{
    using Stored = std::optional<std::vector<TimelineSummary>>;
    auto named = namesStoredTimeline(reader);
    if (named.hasError())
        return named.error();
    if (!named.value())
        return Stored();
    auto& db = reader.database();
    auto rows
        = db.prepare("SELECT rank, device_id, verdicts_key, data FROM timeline_summaries ORDER BY rank, device_id");
    if (rows.hasError())
        return rows.error();
    std::vector<TimelineSummary> out;
    bool usable = true;
    RIDGELINE_TRY(detail::forEachRow(rows.value(), [&](sqlite::Statement& s) {
        if (!usable)
            return;
        const auto rank = s.columnInt(0);
        auto summary = timelineSummaryFromJson(s.columnText(3));
        usable = summary && static_cast<std::uint64_t>(s.columnInt(2)) == verdictsKey
            && rank >= std::numeric_limits<int>::min() && rank <= std::numeric_limits<int>::max();
        if (!usable)
            return;
        summary->rank = static_cast<int>(rank);
        summary->deviceId = s.columnInt(1);
        out.push_back(std::move(*summary));
    }));
    if (!usable)
        return Stored();
    return Stored(std::move(out));
}

Status storeTimelineSummaries(const std::string& path)
{
    TimelineToStore timeline;
    {
        auto reader = SessionReader::open(path); // closed before the file is written
        if (reader.hasError())
            return reader.error();
        auto verdicts = keyedVerdicts(reader.value());
        if (verdicts.hasError())
            return verdicts.error();
        timeline.verdictsKey = verdicts.value().key;
        auto scanned = scanWholeSession(reader.value(), verdicts.value().verdicts);
        if (scanned.hasError())
            return scanned.error();
        timeline.summaries = std::move(scanned).value();
    }
    return storeTimelineSummaries(path, timeline);
}

Status storeTimelineSummaries(const std::string& path, const TimelineToStore& timeline)
{
    auto db = openFinishedSessionForUpdate(path, "its timeline is stored when it is finished");
    if (db.hasError())
        return db.error();
    if (auto written = writeRows(db.value(), timeline.summaries, timeline.verdictsKey); written.hasError())
        return makeError(written.error().code,
            fmt::format("{}: the timeline analysis could not be stored ({})", path, written.error().message));
    return {};
}

Status storeTimelineSummariesIfLarge(const std::string& path)
{
    std::int64_t ops = 0;
    {
        auto reader = SessionReader::open(path);
        if (reader.hasError())
            return reader.error();
        // Ids are dense in the files Ridgeline writes: their ranges count the ops without a scan.
        for (auto range : { reader.value().kernelIdRange(), reader.value().memOpIdRange() }) {
            if (range.hasError())
                return range.error();
            if (range.value())
                ops = saturatingAdd(ops, saturatingAdd(saturatingSub(range.value()->second, range.value()->first), 1));
        }
    }
    return ops >= kStoreTimelineFromOps ? storeTimelineSummaries(path) : Status {};
}

Result<std::vector<ValueWarning>> checkStoredTimeline(SessionReader& reader, std::size_t examples)
{
    std::vector<ValueWarning> out;
    // Most sessions have none: their verdicts (operators linked to kernels, seconds for a large
    // PyTorch trace) are not worked out for nothing.
    auto named = namesStoredTimeline(reader);
    if (named.hasError())
        return named.error();
    if (!named.value())
        return out;
    auto verdicts = keyedVerdicts(reader);
    if (verdicts.hasError())
        return verdicts.error();
    auto stored = storedTimelineSummaries(reader, verdicts.value().key);
    if (stored.hasError())
        return stored.error();
    if (!stored.value())
        return out;
    auto scanned = scanWholeSession(reader, verdicts.value().verdicts);
    if (scanned.hasError())
        return scanned.error();
    std::map<std::pair<int, std::int64_t>, const TimelineSummary*> actual;
    for (const auto& s : scanned.value())
        actual[{ s.rank, s.deviceId }] = &s;
    ValueWarning warning { "stale_timeline_summaries",
        "a stored timeline analysis that differs from the GPU ops (report and the app show it)", 0, {} };
    const auto differ = [&](int rank, std::int64_t device, const std::string& storedText, const std::string& ops) {
        if (warning.examples.size() < examples)
            warning.examples.push_back(
                fmt::format("rank {} device {}: stored {}; the ops: {}", rank, device, storedText, ops));
        ++warning.count;
    };
    for (const auto& s : *stored.value()) {
        auto it = actual.find({ s.rank, s.deviceId });
        if (it == actual.end())
            differ(s.rank, s.deviceId, describe(s), "none");
        else if (timelineSummaryJson(s) != timelineSummaryJson(*it->second))
            differ(s.rank, s.deviceId, describe(s), describe(*it->second));
        if (it != actual.end())
            actual.erase(it);
    }
    for (const auto& [key, s] : actual)
        differ(key.first, key.second, "none", describe(*s));
    if (warning.count > 0)
        out.push_back(std::move(warning));
    return out;
}

} // namespace ridgeline::core
