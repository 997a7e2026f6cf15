// SPDX-License-Identifier: MIT
// The per-process part file of a capture (docs/CAPTURE.md "Injection library"): a live WAL
// session (WriterOptions::atomic = false) that readers and the launcher's merge can open while it
// grows. One translated CUPTI buffer is one transaction. Counter values reach it by correlation id,
// before or after their kernel's activity record. No CUPTI here: tested directly.
#pragma once

#include "activitytranslate.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "graphcounters.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::inject {

// Meta keys of a part file (docs/CAPTURE.md).
namespace partmeta {
inline constexpr const char* Pid = "capture.pid";
inline constexpr const char* Host = "capture.host";
inline constexpr const char* Command = "capture.command";
inline constexpr const char* SessionId = "capture.session_id";
inline constexpr const char* DroppedRecords = "capture.dropped_records";
inline constexpr const char* ReplayPasses = "capture.replay_passes";
inline constexpr const char* Metrics = "capture.metrics";
inline constexpr const char* Error = "capture.error";
inline constexpr const char* Warning = "capture.warning";
inline constexpr const char* StartNs = "capture.start_ns";
inline constexpr const char* EndNs = "capture.end_ns";
} // namespace partmeta

struct PartIdentity {
    std::int64_t pid = 0;
    std::string host;
    std::string command; // argv joined by spaces
    std::string sessionId;
    std::int64_t startNs = 0;
};

class PartWriter {
public:
    // Creates the part file (refuses an existing one) and records the process.
    static core::Result<PartWriter> create(const std::string& path, const PartIdentity& identity);

    // One buffer, one transaction. Kernels whose counters arrived first get them now.
    core::Status write(const TranslatedBatch& batch);
    // Counter values of the kernel launched with this correlation id (written now when the kernel
    // is already in the file, else kept until it arrives).
    core::Status addCounters(std::uint32_t correlationId, std::vector<core::MetricValue> values);
    // Kernels profiled with counters: their ids are remembered so late counters still find them.
    void expectCounters(std::uint32_t correlationId);
    // A CUDA graph launch profiled with counters, and its ranges once known (graphcounters.h):
    // per kernel node, or graph-level (kept on the launch's first kernel, every kernel marked).
    void expectGraphCounters(std::uint32_t correlationId);
    core::Status addGraphCounters(std::uint32_t correlationId, std::vector<GraphRange> ranges);
    // Graph launches whose ranges met none of their kernels (dropped or still in flight).
    std::size_t orphanGraphCounters() const { return m_graphs.orphans(); }

    // Adds to the running count and stores it (capture.dropped_records is always present).
    core::Status addDropped(std::uint64_t records);
    std::uint64_t dropped() const { return m_dropped; }
    // capture.error / capture.warning: several sentences are joined by newlines.
    core::Status addError(const std::string& sentence);
    core::Status addWarning(const std::string& sentence);
    core::Status setMeta(const std::string& key, const std::string& value);

    // Counters whose kernel record never arrived (dropped or still in flight).
    std::size_t orphanCounters() const { return m_pendingCounters.size(); }

    std::int64_t processId() const { return m_processId; }

    // Records the process end (meta capture.end_ns) and marks the part complete.
    core::Status finish(std::int64_t endNs);

private:
    PartWriter(core::SessionWriter writer, std::int64_t processId);
    core::Status appendMeta(const char* key, std::string& text, const std::string& sentence);
    core::Status apply(const GraphAttribution& attribution);

    core::SessionWriter m_writer;
    std::int64_t m_processId = 0;
    std::uint64_t m_dropped = 0;
    std::string m_errors;
    std::string m_warnings;
    std::map<std::uint32_t, std::vector<core::MetricValue>> m_pendingCounters; // by correlation id
    std::map<std::uint32_t, std::optional<std::int64_t>> m_expected; // correlation id -> kernel id once written
    std::map<std::string, std::int64_t> m_nameIds;
    GraphCounters m_graphs;
};

} // namespace ridgeline::inject
