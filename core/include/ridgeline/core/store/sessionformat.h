// SPDX-License-Identifier: MIT
// Constants of the .ridge session file (ARCHITECTURE §3).
#pragma once

#include <cstdint>

namespace ridgeline::core {

// PRAGMA application_id of every session: "RDGL" in ASCII.
inline constexpr std::int32_t kApplicationId = 0x5244474C;
// PRAGMA user_version: the schema this build writes. Older versions are migrated on open.
inline constexpr int kSchemaVersion = 9; // 2: operators, api_calls.external_id, comm_ops.seq; 3: metric_values; 4:
                                         // graph nodes; 5: rank_summaries; 6: operators' Concrete Inputs; 7: ncu_rules;
                                         // 8: kernel_totals, stored_summaries; 9: timeline_summaries
inline constexpr const char* kSessionExtension = ".ridge";

// Meta keys every session carries.
namespace metakey {
inline constexpr const char* Format = "format"; // always "ridgeline-session"
inline constexpr const char* ToolVersion = "tool_version";
inline constexpr const char* CreatedAt = "created_at"; // ISO 8601 UTC
inline constexpr const char* Status = "status"; // "complete" | "partial"
inline constexpr const char* Source = "source"; // "capture", "import:kineto", "fixture", ...
inline constexpr const char* Origin = "origin"; // where the data came from, for imported or bundled files
inline constexpr const char* Host = "host";
inline constexpr const char* CaptureCommand = "capture_command";
// "max_duration_ns.<table>": the longest op of a table, written when a session is finished, so
// that time-window queries know how far before the window an overlapping op can start.
inline constexpr const char* MaxDurationPrefix = "max_duration_ns.";
} // namespace metakey

} // namespace ridgeline::core
