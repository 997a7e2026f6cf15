// SPDX-License-Identifier: MIT
// The whole session's timeline analysis (timeline.h: one summary per rank and device) stored in
// the session (schema v9, `timeline_summaries`, named "timeline" in `stored_summaries`), so that
// `report`, exports and the app read a row per device instead of scanning 100 M GPU ops.
//
// A stored analysis is used only while it is still the one a scan would give:
// - the ops it came from are unchanged: another SQLite tool's edit of kernels, memops, comm_ops,
//   api_calls or processes makes the session forget it (triggers), and `amend` drops it;
// - the kernels' verdicts are unchanged: each row carries a key of the verdicts it was made with
//   (new ceilings, counters or a newer build's rules give other verdicts, and so a scan);
// - it was made by this analysis (kStoredTimelineVersion).
// A window or a profiler step is always a scan. `ridgeline check` compares the stored analysis with
// a scan (stale_timeline_summaries).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/timeline/timeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::core {

class SessionReader;

// Raised whenever analyzeTimeline's results change (what it counts, how ties or clipping go):
// analyses stored by an older build are then not read.
inline constexpr int kStoredTimelineVersion = 1;

// Importers and merges store the analysis from this many GPU ops on: below it a scan takes under
// a second, and the import does not pay for one. Capture and `summarize` store it always.
inline constexpr std::int64_t kStoreTimelineFromOps = 1'000'000;

// A key of the verdicts a timeline was analysed with (kernel ids and classes, and the copies' and
// memsets' classes): equal keys, equal colouring of every op.
std::uint64_t timelineVerdictsKey(const KernelVerdicts& verdicts);

// The stored analysis when it is there, readable and made with verdicts of the key given; nullopt
// otherwise (the caller scans). A table that cannot be read at all is an error.
Result<std::optional<std::vector<TimelineSummary>>> storedTimelineSummaries(
    SessionReader& reader, std::uint64_t verdictsKey);

// A whole-session analysis to store, with the key of the verdicts it was made with.
struct TimelineToStore {
    std::vector<TimelineSummary> summaries;
    std::uint64_t verdictsKey = 0;
};

// Analyses the whole session at `path` (a finished file, not a live capture part) and stores the
// result in it, replacing any stored before; an older file is migrated first. One transaction:
// a failure leaves the file as it was.
Status storeTimelineSummaries(const std::string& path);
// The same with an analysis already made of that file (summarizeRanks makes one on its way).
Status storeTimelineSummaries(const std::string& path, const TimelineToStore& timeline);
// The same when the session holds at least kStoreTimelineFromOps GPU ops; else nothing.
Status storeTimelineSummariesIfLarge(const std::string& path);

// `check`: the stored analysis against a scan. Empty when none is stored (or it is not read).
Result<std::vector<ValueWarning>> checkStoredTimeline(SessionReader& reader, std::size_t examples = 3);

// The text stored per row and back (exact: every field round-trips).
std::string timelineSummaryJson(const TimelineSummary& summary);
std::optional<TimelineSummary> timelineSummaryFromJson(std::string_view text);

} // namespace ridgeline::core
