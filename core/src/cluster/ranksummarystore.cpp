// SPDX-License-Identifier: MIT
// Rank summaries as JSON, in a session's rank_summaries table (schema v5).
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"
#include "store/rowloop.h"
#include "store/sessionupdate.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ridgeline::core {

using nlohmann::json;

std::string rankSummaryJson(const RankSummary& s)
{
    json kernels = json::array();
    for (const auto& k : s.topKernels)
        kernels.push_back({ { "name", k.name }, { "time_ns", k.timeNs }, { "launches", k.launches } });
    json collectives = json::array();
    for (const auto& c : s.collectives)
        collectives.push_back(json::array({ c.processGroup, c.collective, c.seq, c.startNs, c.endNs }));
    const json doc = { { "version", kRankSummaryVersion }, { "rank", s.rank }, { "host", s.host },
        { "devices", s.devices }, { "kernels", s.kernels }, { "collective_ops", s.collectiveOps },
        { "start_ns", s.startNs }, { "end_ns", s.endNs }, { "span_ns", s.spanNs }, { "busy_ns", s.busyNs },
        { "idle_ns", s.idleNs }, { "compute_ns", s.computeNs }, { "communication_ns", s.communicationNs },
        { "overlap_ns", s.overlapNs }, { "ranked_ns", s.rankedNs }, { "time_at_roof_ns", s.timeAtRoofNs },
        { "recoverable_ns", s.recoverableNs }, { "top_kernels", kernels },
        // [process group, collective, seq, start, end]: compact, there can be thousands.
        { "collectives", collectives },
        { "activity",
            { { "start_ns", s.activity.startNs }, { "bin_ns", s.activity.binNs }, { "busy_ns", s.activity.busyNs },
                { "communication_ns", s.activity.communicationNs } } } };
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<RankSummary> rankSummaryFromJson(std::string_view text)
{
    const json doc = json::parse(text, nullptr, false);
    const auto bad = [](const std::string& why) {
        return makeError(ErrorCode::InvalidArgument, "a stored rank summary is unreadable (" + why + ")");
    };
    if (doc.is_discarded() || !doc.is_object())
        return bad("not a JSON object");
    try {
        if (doc.at("version").get<int>() != kRankSummaryVersion)
            return bad(fmt::format("version {}, this build reads {}", doc.at("version").dump(), kRankSummaryVersion));
        RankSummary s;
        s.rank = doc.at("rank").get<int>();
        s.host = doc.at("host").get<std::string>();
        s.devices = doc.at("devices").get<int>();
        s.kernels = doc.at("kernels").get<std::int64_t>();
        s.collectiveOps = doc.at("collective_ops").get<std::int64_t>();
        s.startNs = doc.at("start_ns").get<std::int64_t>();
        s.endNs = doc.at("end_ns").get<std::int64_t>();
        s.spanNs = doc.at("span_ns").get<std::int64_t>();
        s.busyNs = doc.at("busy_ns").get<std::int64_t>();
        s.idleNs = doc.at("idle_ns").get<std::int64_t>();
        s.computeNs = doc.at("compute_ns").get<std::int64_t>();
        s.communicationNs = doc.at("communication_ns").get<std::int64_t>();
        s.overlapNs = doc.at("overlap_ns").get<std::int64_t>();
        s.rankedNs = doc.at("ranked_ns").get<std::int64_t>();
        s.timeAtRoofNs = doc.at("time_at_roof_ns").get<std::int64_t>();
        s.recoverableNs = doc.at("recoverable_ns").get<std::int64_t>();
        for (const auto& k : doc.at("top_kernels"))
            s.topKernels.push_back({ k.at("name").get<std::string>(), k.at("time_ns").get<std::int64_t>(),
                k.at("launches").get<std::int64_t>() });
        for (const auto& c : doc.at("collectives")) {
            if (!c.is_array() || c.size() != 5)
                return bad("a collective is not [group, name, seq, start, end]");
            s.collectives.push_back({ c[0].get<std::string>(), c[1].get<std::string>(), c[2].get<std::int64_t>(),
                c[3].get<std::int64_t>(), c[4].get<std::int64_t>() });
        }
        const auto& activity = doc.at("activity");
        s.activity.startNs = activity.at("start_ns").get<std::int64_t>();
        s.activity.binNs = activity.at("bin_ns").get<std::int64_t>();
        s.activity.busyNs = activity.at("busy_ns").get<std::vector<std::int64_t>>();
        s.activity.communicationNs = activity.at("communication_ns").get<std::vector<std::int64_t>>();
        if (s.activity.binNs < 0 || s.activity.busyNs.size() != s.activity.communicationNs.size())
            return bad("the activity's bins do not pair up");
        return s;
    } catch (const json::exception& e) {
        return bad(e.what());
    }
}

Result<std::optional<std::vector<RankSummary>>> storedRankSummaries(SessionReader& reader)
{
    auto stmt = reader.database().prepare("SELECT data FROM rank_summaries WHERE version = ?1 ORDER BY rank");
    if (stmt.hasError())
        return stmt.error();
    stmt.value().bind(1, static_cast<std::int64_t>(kRankSummaryVersion));
    std::vector<RankSummary> out;
    bool damaged = false; // recomputed instead
    RIDGELINE_TRY(detail::forEachRow(stmt.value(), [&](sqlite::Statement& s) {
        if (damaged)
            return;
        auto summary = rankSummaryFromJson(s.columnText(0));
        if (summary.hasError())
            damaged = true;
        else
            out.push_back(std::move(summary).value());
    }));
    if (damaged || out.empty())
        return std::optional<std::vector<RankSummary>>();
    return std::optional(std::move(out));
}

Status storeRankSummaries(const std::string& path, const std::vector<RankSummary>& summaries)
{
    auto db = openFinishedSessionForUpdate(path, "summarize it when it is finished");
    if (db.hasError())
        return db.error();
    auto& database = db.value();
    auto transaction = sqlite::Transaction::begin(database);
    if (transaction.hasError())
        return transaction.error();
    RIDGELINE_TRY(database.exec("DELETE FROM rank_summaries"));
    auto insert = database.prepare("INSERT INTO rank_summaries(rank, version, data) VALUES(?1, ?2, ?3)");
    if (insert.hasError())
        return insert.error();
    for (const auto& s : summaries) {
        auto& stmt = insert.value();
        stmt.reset();
        stmt.bind(1, static_cast<std::int64_t>(s.rank));
        stmt.bind(2, static_cast<std::int64_t>(kRankSummaryVersion));
        stmt.bind(3, rankSummaryJson(s));
        RIDGELINE_TRY(stmt.run());
    }
    return transaction.value().commit();
}

} // namespace ridgeline::core
