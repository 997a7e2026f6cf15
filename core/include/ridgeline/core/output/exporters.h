// SPDX-License-Identifier: MIT
// `ridgeline export`: a session as a Chrome Trace Event JSON file (opens in ui.perfetto.dev and
// chrome://tracing), as one CSV file per table, and as one self-contained HTML page.
//
// Errors: ErrorCode::Io means the output could not be written; a problem reading the session comes
// back with any other code (BadFile, NotFound, NewerSchema, ...), never as Io.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/timeline/timeline.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

class SessionReader;

// Chrome Trace Event JSON, written while the kernels are read (no document is built in memory).
// Processes: one per device ("GPU 0: NVIDIA H100 ...") and one per host process. Threads: one per
// device stream ("stream 7"), per host thread (runtime API calls) and per host thread's NVTX ranges.
// Ops that overlap on one stream go to extra lanes ("stream 7 (lane 2)"); NVTX ranges nest on one
// lane and only ranges that overlap without nesting get another. ts and dur are microseconds with
// three decimals (exact nanoseconds); when the session's clock is far from zero (epoch timestamps,
// beyond 2^50 ns), a whole-second base is subtracted first and recorded as metadata.time_base_ns.
// Kernels and copies carry their verdict in args and as the colour (traceColourForVerdict); API
// calls are joined to the GPU ops they launched by flow events (same process and correlation id), and
// the kernels of one collective instance on every rank by one flow (cat "collective"), from the rank
// that started first to the one that started last. PyTorch operators are slices on their thread's
// track, nesting with its API calls, joined to the GPU ops they launched by flows of category
// "operator" (docs/EXPORTS.md).
// `window`: only the GPU ops, calls, operators and ranges that overlap it (a profiler step's).
Status writePerfettoTrace(SessionReader& reader, std::ostream& out, const std::optional<TimeWindow>& window = {});

// The Chrome trace viewer's reserved colour name (catapult tracing/base/color_scheme.html) for a
// verdict: compute-bound "terrible" (dark red), memory-bound "thread_state_runnable" (blue),
// communication-bound "detailed_memory_dump" (magenta), latency-bound "thread_state_iowait"
// (orange), unknown "generic_work" (grey).
const char* traceColourForVerdict(VerdictClass verdict);
// The same colours as CSS hex ("#b40000"), for the HTML report.
const char* htmlColourForVerdict(VerdictClass verdict);

// The tables `writeCsvTables` writes, one file `NAME.csv` each.
std::vector<std::string> csvTableNames();
// One CSV file per table in `directory` (created when missing), each written atomically; times in
// ns as stored, names quoted per RFC 4180. Returns the paths written.
Result<std::vector<std::string>> writeCsvTables(SessionReader& reader, const std::string& directory);

// One HTML page with no external resources and no script: session summary, the top kernels with
// their verdicts, an SVG roofline of the first device and a per-device timeline summary. Every text
// that comes from the session is HTML-escaped.
// `timeline` chooses what the timeline summary covers (the whole session by default; a profiler
// step; with allSteps each step besides); the page says which.
Status writeHtmlReport(SessionReader& reader, std::ostream& out, const TimelineSelection& timeline = {});

// &, <, >, " and ' as character references.
std::string htmlEscape(std::string_view text);

// Writes `path` through a temporary file in the same directory that is renamed over it only when
// `write` succeeded and every byte reached the disk; on failure nothing is left behind.
Status writeFileAtomically(const std::string& path, const std::function<Status(std::ostream&)>& write);

} // namespace ridgeline::core
