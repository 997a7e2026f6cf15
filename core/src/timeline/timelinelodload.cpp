// SPDX-License-Identifier: MIT
// Loads a session's timeline into lanes: the GPU ops come from the scan the timeline analysis
// uses (sessiongpuops.h), in storage order; rows are sorted and laid out once here.
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "sessiongpuops.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace ridgeline::core {

namespace {

struct DeviceGroup {
    std::map<std::int64_t, std::vector<TimelineItem>> streams;
    std::vector<TimelineItem> collectives; // every comm op of the device
    std::vector<TimelineItem> standalone; // comm ops without a kernel: GPU ops of their own
};

struct HostThread {
    std::vector<TimelineItem> calls;
    std::vector<TimelineItem> operators;
    std::vector<TimelineItem> ranges;
};

using DeviceKey = std::pair<int, std::int64_t>; // rank, device
using ThreadKey = std::pair<std::int64_t, std::int64_t>; // process, OS thread id

// Known ranks first, in order; processes without a rank last.
bool rankBefore(int a, int b)
{
    return std::pair { a < 0, a } < std::pair { b < 0, b };
}

TimelineItemKind itemKind(GpuOpKind kind)
{
    switch (kind) {
    case GpuOpKind::Kernel:
        return TimelineItemKind::Kernel;
    case GpuOpKind::Collective:
        return TimelineItemKind::Collective;
    case GpuOpKind::Memcpy:
        return TimelineItemKind::Memcpy;
    case GpuOpKind::Memset:
        return TimelineItemKind::Memset;
    }
    return TimelineItemKind::Kernel;
}

const char* memOpLabel(MemOpKind kind)
{
    switch (kind) {
    case MemOpKind::MemcpyHtoD:
        return "Memcpy HtoD";
    case MemOpKind::MemcpyDtoH:
        return "Memcpy DtoH";
    case MemOpKind::MemcpyDtoD:
        return "Memcpy DtoD";
    case MemOpKind::MemcpyHtoH:
        return "Memcpy HtoH";
    case MemOpKind::MemcpyPtoP:
        return "Memcpy PtoP";
    case MemOpKind::Memset:
        return "Memset";
    case MemOpKind::Other:
        break;
    }
    return "Memory op";
}

class Loader {
public:
    Loader(SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineLoadProgress& progress)
        : m_reader(reader)
        , m_verdicts(verdicts)
        , m_progress(progress)
    { }

    Result<TimelineData> run();

private:
    bool cancelled(double fraction) const { return m_progress && !m_progress(fraction); }
    Status readGpuOps();
    Status readHost();
    Status readOperators();
    void addDeviceLanes(const DeviceKey& key, DeviceGroup& group);
    void addHostLanes(const ThreadKey& key, HostThread& thread);
    // Adds API calls or NVTX ranges to their threads' `items` as `kind`.
    template <typename Record>
    void addHostItems(
        const std::vector<Record>& records, std::vector<TimelineItem> HostThread::*items, TimelineItemKind kind)
    {
        for (const auto& r : records) {
            (m_threads[{ r.processId, r.threadId }].*items)
                .push_back({ r.startNs, r.endNs, r.id, m_builder.addName(r.name), kind, VerdictClass::Unknown });
        }
    }

    SessionReader& m_reader;
    const KernelVerdictSource& m_verdicts;
    const TimelineLoadProgress& m_progress;
    TimelineDataBuilder m_builder;
    std::map<DeviceKey, DeviceGroup> m_devices;
    std::map<ThreadKey, HostThread> m_threads;
    std::map<ThreadKey, std::string> m_threadNames;
    std::unordered_map<std::int64_t, int> m_rankOf; // process -> rank
    bool m_cancelled = false;
};

Status Loader::readGpuOps()
{
    auto counts = m_reader.counts();
    if (counts.hasError())
        return counts.error();
    const auto& c = counts.value();
    const double total = static_cast<double>(std::max<std::int64_t>(1, c.kernels + c.memcpys + c.memsets + c.commOps));

    auto names = m_reader.kernelNames();
    if (names.hasError())
        return names.error();
    std::unordered_map<std::int64_t, std::int32_t> nameIndex;
    for (const auto& n : names.value())
        nameIndex[n.id] = m_builder.addName(n.demangled.empty() ? n.raw : n.demangled, n.id);
    names.value().clear();

    auto source = detail::SessionGpuOps::load(m_reader, { std::nullopt, false, false }, m_verdicts);
    if (source.hasError())
        return source.error();
    std::int64_t seen = 0;
    auto scanned = source.value().forEach(m_reader, [&](const detail::SessionGpuOp& g) {
        TimelineItem it { g.op.startNs, g.op.endNs, g.sourceId, -1, itemKind(g.op.kind), g.op.verdict };
        auto& group = m_devices[{ g.rank, g.deviceId }];
        switch (g.source) {
        case detail::GpuOpSource::Kernel:
            if (auto n = nameIndex.find(g.nameId); n != nameIndex.end())
                it.nameIndex = n->second;
            group.streams[g.op.streamId].push_back(it);
            break;
        case detail::GpuOpSource::MemOp:
            it.nameIndex = m_builder.addName(memOpLabel(g.memOpKind));
            group.streams[g.op.streamId].push_back(it);
            break;
        case detail::GpuOpSource::CommOp:
            group.standalone.push_back(it); // also on the collectives lane, below
            break;
        }
        m_builder.addGpuOps(1);
        if (++seen % 65536 == 0 && cancelled(0.75 * static_cast<double>(seen) / total)) {
            m_cancelled = true;
            return false;
        }
        return true;
    });
    if (scanned.hasError() || m_cancelled)
        return scanned;

    for (const auto& comm : source.value().commOps()) {
        std::string label = comm.collective.empty() ? std::string("collective") : comm.collective;
        if (comm.bytes > 0)
            label += " " + formatBytes(static_cast<double>(comm.bytes));
        m_devices[{ source.value().rankOf(comm.processId), comm.deviceId }].collectives.push_back(
            { comm.startNs, comm.endNs, comm.id, m_builder.addName(label), TimelineItemKind::Collective,
                VerdictClass::CommunicationBound });
    }
    return {};
}

Status Loader::readHost()
{
    auto processes = m_reader.processes();
    if (processes.hasError())
        return processes.error();
    for (const auto& p : processes.value())
        m_rankOf[p.id] = p.rank;
    auto threads = m_reader.threads();
    if (threads.hasError())
        return threads.error();
    for (const auto& t : threads.value())
        m_threadNames[{ t.processId, t.tid }] = t.name;

    auto calls = m_reader.apiCalls();
    if (calls.hasError())
        return calls.error();
    addHostItems(calls.value(), &HostThread::calls, TimelineItemKind::ApiCall);
    calls.value().clear();
    if (cancelled(0.85)) {
        m_cancelled = true;
        return {};
    }
    auto ranges = m_reader.nvtxRanges();
    if (ranges.hasError())
        return ranges.error();
    addHostItems(ranges.value(), &HostThread::ranges, TimelineItemKind::NvtxRange);
    return {};
}

// Operators nest by time on their thread (the importer's parents), so laying them out in rows puts
// each on its nesting depth.
Status Loader::readOperators()
{
    std::unordered_map<std::int64_t, std::int32_t> nameIndex; // strings id -> timeline name
    Status failed;
    auto scanned = m_reader.forEachOperatorSpan([&](const SessionReader::OperatorSpan& op) {
        if (failed.hasError())
            return;
        auto name = nameIndex.find(op.nameId);
        if (name == nameIndex.end()) {
            auto text = m_reader.strings({ op.nameId });
            if (text.hasError()) {
                failed = text.error();
                return;
            }
            auto found = text.value().find(op.nameId);
            name = nameIndex
                       .emplace(op.nameId, m_builder.addName(found == text.value().end() ? "operator" : found->second))
                       .first;
        }
        m_threads[{ op.processId, op.threadId }].operators.push_back(
            { op.startNs, op.endNs, op.id, name->second, TimelineItemKind::Operator, VerdictClass::Unknown });
    });
    if (scanned.hasError())
        return scanned;
    return failed;
}

void Loader::addDeviceLanes(const DeviceKey& key, DeviceGroup& group)
{
    TimelineLane base;
    base.rank = key.first;
    base.deviceId = key.second;
    std::vector<std::pair<TimelineLane, std::vector<TimelineRow>>> lanes;
    std::vector<const TimelineRow*> busy;
    for (auto& [stream, items] : group.streams) {
        TimelineLane lane = base;
        lane.kind = TimelineLaneKind::Stream;
        lane.streamId = stream;
        lane.label = "Stream " + std::to_string(stream);
        lanes.emplace_back(std::move(lane), layoutRows(items));
        std::vector<TimelineItem>().swap(items);
    }
    auto standalone = layoutRows(group.standalone);
    for (const auto& lane : lanes) {
        for (const auto& row : lane.second)
            busy.push_back(&row);
    }
    for (const auto& row : standalone)
        busy.push_back(&row);

    TimelineLane idle = base;
    idle.kind = TimelineLaneKind::Idle;
    idle.label = "GPU idle";
    m_builder.addLane(std::move(idle), idleGaps(busy));
    for (auto& [lane, rows] : lanes)
        m_builder.addLane(std::move(lane), std::move(rows));
    TimelineLane collectives = base;
    collectives.kind = TimelineLaneKind::Collectives;
    collectives.label = "Collectives";
    m_builder.addLane(std::move(collectives), std::move(group.collectives));
}

void Loader::addHostLanes(const ThreadKey& key, HostThread& thread)
{
    TimelineLane base;
    auto rank = m_rankOf.find(key.first);
    base.rank = rank == m_rankOf.end() ? -1 : rank->second;
    base.processId = key.first;
    base.threadId = key.second;
    // Profilers often name threads after their id already ("thread 4037 (python)").
    const std::string tid = std::to_string(key.second);
    std::string who = "Thread " + tid;
    if (auto name = m_threadNames.find(key); name != m_threadNames.end() && !name->second.empty())
        who = name->second.find(tid) != std::string::npos ? name->second : who + " (" + name->second + ")";
    TimelineLane calls = base;
    calls.kind = TimelineLaneKind::HostThread;
    calls.label = who;
    m_builder.addLane(std::move(calls), std::move(thread.calls));
    TimelineLane operators = base;
    operators.kind = TimelineLaneKind::Operators;
    operators.label = "Operators · thread " + tid;
    m_builder.addLane(std::move(operators), std::move(thread.operators));
    TimelineLane ranges = base;
    ranges.kind = TimelineLaneKind::Nvtx;
    ranges.label = "NVTX · thread " + tid;
    m_builder.addLane(std::move(ranges), std::move(thread.ranges));
}

Result<TimelineData> Loader::run()
{
    const auto cancelledError = [] { return makeError(ErrorCode::Internal, "Loading the timeline was cancelled."); };
    if (cancelled(0))
        return cancelledError();
    auto devices = m_reader.devices();
    if (devices.hasError())
        return devices.error();
    m_builder.setDevices(std::move(devices).value());
    RIDGELINE_TRY(readGpuOps());
    if (m_cancelled || cancelled(0.75))
        return cancelledError();
    RIDGELINE_TRY(readHost());
    if (m_cancelled || cancelled(0.9))
        return cancelledError();
    RIDGELINE_TRY(readOperators());
    if (cancelled(0.95))
        return cancelledError();

    std::set<int, bool (*)(int, int)> ranks(rankBefore);
    for (const auto& entry : m_devices)
        ranks.insert(entry.first.first);
    for (const auto& entry : m_threads) {
        auto rank = m_rankOf.find(entry.first.first);
        ranks.insert(rank == m_rankOf.end() ? -1 : rank->second);
    }
    for (const int rank : ranks) {
        for (auto& [key, group] : m_devices) {
            if (key.first == rank)
                addDeviceLanes(key, group);
        }
        for (auto& [key, thread] : m_threads) {
            auto r = m_rankOf.find(key.first);
            if ((r == m_rankOf.end() ? -1 : r->second) == rank)
                addHostLanes(key, thread);
        }
    }
    if (cancelled(1))
        return cancelledError();
    return m_builder.finish();
}

} // namespace

Result<TimelineData> loadTimelineData(
    SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineLoadProgress& progress)
{
    return Loader(reader, verdicts, progress).run();
}

} // namespace ridgeline::core
