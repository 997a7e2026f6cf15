// SPDX-License-Identifier: MIT
// The timeline of a whole session in memory, compact enough to keep open (about 35 bytes per GPU
// op), organised in lanes: per rank → device → its idle gaps, its streams (kernels, copies,
// memsets) and its collectives; then per rank the host threads (runtime API calls), their PyTorch
// operators and their NVTX ranges. Each lane has one or more rows (timelinerow.h): ops that overlap on one stream, nested
// API calls and nested NVTX ranges go to further rows (their depth). Drawing asks each row for its
// level of detail (TimelineRow::lod); hit-testing and highlighting work on the same rows.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/timeline/timelinerow.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ridgeline::core {

class SessionReader;

enum class TimelineLaneKind : std::uint8_t {
    Idle, // the idle gaps of a device (IdleGap items)
    Stream, // kernels, copies and memsets of one stream of a device
    Collectives, // the collectives (comm_ops) of a device, carried by a kernel or not
    HostThread, // the API calls of one host thread
    Nvtx, // the NVTX ranges of one host thread
    Operators, // the PyTorch operators of one host thread, a row per nesting depth (issue 17)
};
const char* toString(TimelineLaneKind kind);

struct TimelineLane {
    TimelineLaneKind kind = TimelineLaneKind::Stream;
    int rank = -1; // -1 when unknown
    std::int64_t deviceId = -1; // device lanes
    std::int64_t streamId = -1; // Stream lanes
    std::int64_t processId = -1; // host lanes: processes.id
    std::int64_t threadId = -1; // host lanes: the OS thread id
    std::string label; // "Stream 7", "Collectives", "Thread 1234 (python)", ...
    std::uint32_t firstRow = 0; // into TimelineData::row()
    std::uint32_t rowCount = 0;
};

struct TimelineGpuOpRef {
    std::uint32_t row = 0;
    std::uint32_t index = 0;
    bool operator==(const TimelineGpuOpRef&) const = default;
};

// A subset of the ops of every row (e.g. all launches of one kernel), for highlighting.
struct TimelineMarks {
    std::vector<std::vector<std::uint32_t>> byRow; // ascending item indices; empty or one per row
    std::size_t count = 0;
    std::optional<TimelineGpuOpRef> earliest;
    bool empty() const { return count == 0; }
};

class TimelineData {
public:
    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    std::size_t rowCount() const { return m_rows.size(); }
    const TimelineRow& row(std::size_t i) const { return m_rows[i]; }
    // The lane a row belongs to.
    const TimelineLane& laneOfRow(std::size_t row) const;
    const std::vector<Device>& devices() const { return m_devices; }
    const Device* device(std::int64_t deviceId) const;

    // Item names: demangled kernel names, "Memcpy HtoD", API call names, NVTX range names, ...
    std::string_view name(std::int32_t nameIndex) const;
    // kernel_names.id of a kernel's name; -1 for the others.
    std::int64_t kernelNameId(std::int32_t nameIndex) const;

    // First start .. last end over every item; 0 .. 0 when there are none.
    TimeWindow extent() const { return m_extent; }
    // Kernels, copies, memsets and collectives without a kernel (the ops of the analysis).
    std::size_t gpuOpCount() const { return m_gpuOps; }
    std::size_t itemCount() const;
    // Heap and object bytes held, measured from the containers' capacities.
    std::size_t memoryBytes() const;

    // Every launch of a kernel name (kernel_names.id), on one device or all (deviceId < 0).
    // One pass over the stream rows: call it when the selection changes, not per paint.
    TimelineMarks launchesOf(std::int64_t kernelNameId, std::int64_t deviceId = -1) const;
    // The kernel launch with this kernels.id.
    std::optional<TimelineGpuOpRef> findKernel(std::int64_t kernelId) const;
    // The item with this source id that starts at `startNs` in a lane of `kind` of one host thread
    // (an API call, an operator, an NVTX range): a binary search per row of the lane.
    std::optional<TimelineGpuOpRef> findHostItem(TimelineLaneKind kind, std::int64_t processId, std::int64_t threadId,
        std::int64_t startNs, std::int64_t sourceId) const;

private:
    friend class TimelineDataBuilder;
    std::vector<TimelineLane> m_lanes;
    std::vector<TimelineRow> m_rows;
    std::vector<std::uint32_t> m_laneOfRow;
    std::vector<std::string> m_names;
    std::vector<std::int64_t> m_kernelNameIds; // per name
    std::vector<Device> m_devices;
    TimeWindow m_extent;
    std::size_t m_gpuOps = 0;
};

// Assembles a TimelineData lane by lane (the session loader uses it; so can tests).
class TimelineDataBuilder {
public:
    // The index of `name`, added the first time it is seen.
    std::int32_t addName(std::string_view name, std::int64_t kernelNameId = -1);
    // Lays `items` out in rows (layoutRows) and appends the lane; firstRow and rowCount are set here.
    // A lane without items is left out.
    void addLane(TimelineLane lane, std::vector<TimelineItem> items);
    // The same with rows already laid out (empty rows are dropped).
    void addLane(TimelineLane lane, std::vector<TimelineRow> rows);
    void setDevices(std::vector<Device> devices) { m_data.m_devices = std::move(devices); }
    void addGpuOps(std::size_t count) { m_data.m_gpuOps += count; }
    TimelineData finish();

private:
    TimelineData m_data;
    std::unordered_map<std::string, std::int32_t> m_nameIndex;
    std::unordered_map<std::int64_t, std::int32_t> m_kernelNameIndex;
};

// Called now and then with the fraction done (0..1); returning false cancels the load, which then
// fails with ErrorCode::Internal and the message "Loading the timeline was cancelled."
using TimelineLoadProgress = std::function<bool(double fraction)>;

// The whole session's timeline. Reads kernels in storage order (a narrow scan), copies, memsets,
// collectives, API calls, NVTX ranges and operators (nested by time on their thread); the kernels'
// verdicts from `verdicts` (timeline.h). loadTimelineData(reader, progress), with the analysis'
// verdicts, is in analysis/sessiontimeline.h.
Result<TimelineData> loadTimelineData(
    SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineLoadProgress& progress);

} // namespace ridgeline::core
