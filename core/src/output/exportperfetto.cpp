// SPDX-License-Identifier: MIT
// Chrome Trace Event JSON for ui.perfetto.dev (reference: shared/reference/trace-formats.md §5).
#include "base/takevalue.h"
#include "exportcommon.h"
#include "perfettocollectives.h"
#include "perfettooperators.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/version.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

namespace ridgeline::core {

namespace {

using detail::jsonString;
using detail::microseconds;

// Synthetic ids, far above real pids and tids (Linux: at most 2^22).
constexpr std::int64_t kDevicePidBase = 1'800'000'000;
constexpr std::int64_t kHostPidFallbackBase = 1'700'000'000;
constexpr std::int64_t kSyntheticTidBase = 1'900'000'000;
// Beyond this a double cannot hold microseconds with nanosecond decimals.
constexpr std::int64_t kLargeTimeNs = std::int64_t(1) << 50;

// One track in the viewer: lanes of a stream, a host thread or a thread's NVTX ranges.
struct Track {
    std::int64_t pid = 0;
    std::string name;
    std::int64_t sortIndex = 0;
    bool nesting = false; // slices may nest on a lane (NVTX, API calls); GPU ops may not
    std::optional<std::int64_t> firstTid; // the OS tid for host threads
    struct Lane {
        std::int64_t tid = 0;
        std::vector<std::int64_t> openEnds; // nesting: a stack; otherwise the last end only
    };
    std::vector<Lane> lanes;
};

class TraceWriter {
public:
    explicit TraceWriter(std::ostream& out)
        : m_out(out)
    { }

    void begin() { m_out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"; }
    void end(const std::string& metadata) { m_out << "\n],\n\"metadata\":" << metadata << "}\n"; }

    void event(const std::string& body)
    {
        if (m_count++ > 0)
            m_out << ",\n";
        m_out << '{' << body << '}';
    }

    void processName(std::int64_t pid, const std::string& name, std::int64_t sortIndex)
    {
        event(fmt::format(
            R"("name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":{}}})", pid, jsonString(name)));
        event(fmt::format(
            R"("name":"process_sort_index","ph":"M","pid":{},"tid":0,"args":{{"sort_index":{}}})", pid, sortIndex));
    }

    // The tid of the lane that takes [start, end) on `track`, naming a new lane when one is opened.
    std::int64_t place(Track& track, std::int64_t start, std::int64_t end)
    {
        for (auto& lane : track.lanes) {
            auto& open = lane.openEnds;
            if (track.nesting) {
                while (!open.empty() && open.back() <= start)
                    open.pop_back();
                if (open.empty() || end <= open.back()) {
                    open.push_back(end);
                    return lane.tid;
                }
            } else if (open.empty() || open.back() <= start) {
                open.assign(1, end);
                return lane.tid;
            }
        }
        const auto index = static_cast<std::int64_t>(track.lanes.size());
        Track::Lane lane;
        lane.tid = index == 0 && track.firstTid ? *track.firstTid : m_nextTid++;
        lane.openEnds.push_back(end);
        track.lanes.push_back(lane);
        const auto name = index == 0 ? track.name : fmt::format("{} (lane {})", track.name, index + 1);
        event(fmt::format(R"("name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":{}}})", track.pid,
            lane.tid, jsonString(name)));
        event(fmt::format(R"("name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}})",
            track.pid, lane.tid, track.sortIndex + index));
        return lane.tid;
    }

    void complete(const std::string& name, const char* category, std::int64_t pid, std::int64_t tid,
        std::int64_t startNs, std::int64_t endNs, const nlohmann::json& args, const char* colour)
    {
        std::string body = fmt::format(R"("name":{},"cat":"{}","ph":"X","ts":{},"dur":{},"pid":{},"tid":{})",
            jsonString(name), category, microseconds(saturatingSub(startNs, m_baseNs)),
            microseconds(std::max<std::int64_t>(0, saturatingSub(endNs, startNs))), pid, tid);
        if (colour)
            body += fmt::format(R"(,"cname":"{}")", colour);
        body += ",\"args\":" + args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        event(body);
    }

    void flow(const char* phase, std::int64_t id, std::int64_t pid, std::int64_t tid, std::int64_t ns,
        const char* name = "launch", const char* category = "correlation")
    {
        event(fmt::format(R"("name":"{}","cat":"{}","ph":"{}","id":{},"pid":{},"tid":{},"ts":{}{})", name, category,
            phase, id, pid, tid, microseconds(saturatingSub(ns, m_baseNs)), phase[0] == 'f' ? R"(,"bp":"e")" : ""));
    }

    std::int64_t m_baseNs = 0;

private:
    std::ostream& m_out;
    std::int64_t m_count = 0;
    std::int64_t m_nextTid = kSyntheticTidBase;
};

nlohmann::json optionalNumber(const std::optional<double>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

void addVerdict(nlohmann::json& args, const KernelAnalysis& analysis)
{
    args["verdict"] = toString(analysis.verdict);
    args["bound_by"] = analysis.boundBy;
    args["reason"] = analysis.reason;
    args["pct_of_roof"]
        = analysis.boundUtilization ? nlohmann::json(*analysis.boundUtilization * 100.0) : nlohmann::json(nullptr);
    if (analysis.figures == FigureSource::Shapes)
        args["figures_from"] = "shapes";
    if (analysis.hasFigures()) {
        args["achieved_flops_per_s"] = optionalNumber(analysis.achievedFlopsPerS);
        if (auto dram = analysis.intensity.find(Resource::DRAM); dram != analysis.intensity.end())
            args["ai_dram"] = dram->second;
    }
}

struct HostLaunch {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    std::int64_t startNs = 0;
};

std::string deviceLabel(const Device& device, bool manyHosts)
{
    auto label = fmt::format("GPU {}: {}", device.ordinal, device.name.empty() ? "unknown device" : device.name);
    return manyHosts && !device.host.empty() ? fmt::format("{} on {}", label, device.host) : label;
}

std::string processLabel(const Process& process)
{
    std::string label = process.command.empty() ? std::string("process") : process.command;
    if (process.rank >= 0)
        label += fmt::format(" [rank {}]", process.rank);
    if (!process.host.empty())
        label += fmt::format(" on {}", process.host);
    return label;
}

// The session's tables the trace is written from, all read before anything is written.
struct TraceInput {
    std::map<std::string, std::string> meta;
    std::vector<Device> devices;
    std::vector<Process> processes;
    std::vector<Thread> threads;
    std::vector<KernelName> names;
    std::vector<MemOp> memOps; // in start order
    std::vector<ApiCall> apiCalls; // outer slices first, so that nesting ones stack on one lane
    std::vector<NvtxRange> ranges; // likewise
    TimeSpan span;
};

Status readInput(SessionReader& reader, TraceInput& in, const std::optional<TimeWindow>& window)
{
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.meta(), in.meta));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.devices(), in.devices));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.processes(), in.processes));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.threads(), in.threads));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.kernelNames(), in.names));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.memOps(), in.memOps));
    in.memOps = detail::sortedByStart(std::move(in.memOps));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.apiCalls(), in.apiCalls));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.nvtxRanges(), in.ranges));
    RIDGELINE_EXPORT_TRY(detail::takeValue(reader.gpuTimeSpan(), in.span));
    if (window) {
        const auto outside = [&](const auto& e) { return !detail::overlaps(e.startNs, e.endNs, *window); };
        std::erase_if(in.memOps, outside);
        std::erase_if(in.apiCalls, outside);
        std::erase_if(in.ranges, outside);
    }
    auto byStart = [](const auto& a, const auto& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
    };
    std::stable_sort(in.apiCalls.begin(), in.apiCalls.end(), byStart);
    std::stable_sort(in.ranges.begin(), in.ranges.end(), byStart);
    return {};
}

// Time base: zero unless the clock is too far out for doubles to keep nanoseconds. `extra`: another
// span the trace holds (the operators').
std::int64_t timeBase(const TraceInput& in, std::optional<std::pair<std::int64_t, std::int64_t>> extra)
{
    std::int64_t minNs = in.span.empty ? 0 : in.span.startNs;
    std::int64_t maxNs = in.span.empty ? 0 : in.span.endNs;
    if (extra) {
        minNs = in.span.empty ? extra->first : std::min(minNs, extra->first);
        maxNs = in.span.empty ? extra->second : std::max(maxNs, extra->second);
    }
    auto widen = [&](const auto& items) {
        for (const auto& item : items) {
            minNs = std::min(minNs, item.startNs);
            maxNs = std::max(maxNs, item.endNs);
        }
    };
    widen(in.memOps);
    widen(in.apiCalls);
    widen(in.ranges);
    if (maxNs > kLargeTimeNs || minNs < -kLargeTimeNs)
        return saturatingSub(minNs, ((minNs % 1'000'000'000) + 1'000'000'000) % 1'000'000'000);
    return 0;
}

// Writes one trace: processes (devices, then host processes), host threads (API calls, NVTX
// ranges), GPU ops per stream with flow arrows from their launching calls, then the metadata.
class PerfettoExport {
public:
    PerfettoExport(const TraceInput& in, std::ostream& out, const std::optional<TimeWindow>& window)
        : m_in(in)
        , m_writer(out)
        , m_window(window)
    { }

    Status write(SessionReader& reader)
    {
        RIDGELINE_TRY(m_operators.load(reader));
        if (m_window)
            m_operators.keepWithin(*m_window);
        m_writer.m_baseNs = timeBase(m_in, m_operators.span());
        m_writer.begin();
        writeProcesses();
        writeHostThreads();
        RIDGELINE_TRY(writeGpuOps(reader));
        writeEnd(reader.path());
        return {};
    }

private:
    using Key = std::pair<std::int64_t, std::int64_t>;

    void writeProcesses()
    {
        std::set<std::string> hosts;
        for (const auto& d : m_in.devices)
            hosts.insert(d.host);
        for (const auto& d : m_in.devices) {
            m_devicePids[d.id] = saturatingAdd(kDevicePidBase, d.id);
            m_writer.processName(saturatingAdd(kDevicePidBase, d.id), deviceLabel(d, hosts.size() > 1), m_sortIndex++);
        }
        std::set<std::int64_t> usedPids;
        for (const auto& p : m_in.processes) {
            const auto pid
                = usedPids.insert(p.pid).second && p.pid > 0 ? p.pid : saturatingAdd(kHostPidFallbackBase, p.id);
            m_hostPids[p.id] = pid;
            m_writer.processName(pid, processLabel(p), 1000 + m_sortIndex++);
        }
    }

    std::int64_t devicePid(std::int64_t deviceId)
    {
        auto [it, added] = m_devicePids.emplace(deviceId, saturatingAdd(kDevicePidBase, deviceId));
        if (added)
            m_writer.processName(it->second, fmt::format("GPU (device {} not described)", deviceId), m_sortIndex++);
        return it->second;
    }

    std::int64_t hostPid(std::int64_t processId)
    {
        auto [it, added] = m_hostPids.emplace(processId, saturatingAdd(kHostPidFallbackBase, processId));
        if (added)
            m_writer.processName(
                it->second, fmt::format("process {} (not described)", processId), 1000 + m_sortIndex++);
        return it->second;
    }

    // Host threads: API calls on the OS thread's own tid, NVTX ranges on a track of their own.
    Track& hostTrack(std::map<Key, Track>& tracks, std::int64_t processId, std::int64_t tid, bool nvtx)
    {
        auto [it, added] = tracks.try_emplace({ processId, tid });
        if (added) {
            auto order = m_threadOrder.emplace(Key(processId, tid), static_cast<std::int64_t>(m_threadOrder.size()))
                             .first->second;
            const auto& name = m_threadNames[{ processId, tid }];
            auto label = name.empty() ? fmt::format("thread {}", tid) : fmt::format("thread {} ({})", tid, name);
            it->second.pid = hostPid(processId);
            it->second.name = nvtx ? "NVTX: " + label : label;
            it->second.sortIndex = order * 1000 + (nvtx ? 500 : 0);
            it->second.nesting = true;
            if (!nvtx)
                it->second.firstTid = tid;
        }
        return it->second;
    }

    void writeHostThreads()
    {
        for (const auto& t : m_in.threads) {
            m_threadNames[{ t.processId, t.tid }] = t.name;
            m_threadOrder.emplace(Key(t.processId, t.tid), static_cast<std::int64_t>(m_threadOrder.size()));
        }
        std::map<Key, Track> apiTracks, nvtxTracks;
        // Operators share their thread's track with its API calls, merged in start order so that
        // calls nest inside the operators that hold them.
        const auto& operators = m_operators.slices();
        std::size_t nextOperator = 0;
        const auto writeOperatorsBefore = [&](std::int64_t startNs, std::int64_t endNs) {
            for (; nextOperator < operators.size(); ++nextOperator) {
                const auto& op = operators[nextOperator];
                if (op.startNs > startNs || (op.startNs == startNs && op.endNs < endNs))
                    break;
                writeOperator(hostTrack(apiTracks, op.processId, op.threadId, false), op);
            }
        };
        for (const auto& call : m_in.apiCalls) {
            writeOperatorsBefore(call.startNs, call.endNs);
            auto& track = hostTrack(apiTracks, call.processId, call.threadId, false);
            const auto tid = m_writer.place(track, call.startNs, call.endNs);
            nlohmann::json args = { { "domain", call.domain }, { "correlation", call.correlationId },
                { "return_code", call.returnCode } };
            m_writer.complete(call.name, "cuda_api", track.pid, tid, call.startNs, call.endNs, args, nullptr);
            if (call.correlationId != 0)
                m_launches.try_emplace(
                    { call.processId, call.correlationId }, HostLaunch { track.pid, tid, call.startNs });
        }
        writeOperatorsBefore(std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min());
        for (const auto& range : m_in.ranges) {
            auto& track = hostTrack(nvtxTracks, range.processId, range.threadId, true);
            const auto tid = m_writer.place(track, range.startNs, range.endNs);
            nlohmann::json args = { { "domain", range.domain }, { "category", range.category } };
            if (range.color != 0)
                args["color"] = fmt::format("#{:08x}", range.color);
            m_writer.complete(range.name, "nvtx", track.pid, tid, range.startNs, range.endNs, args, nullptr);
        }
    }

    void writeOperator(Track& track, const detail::PerfettoOperators::Slice& op)
    {
        const auto tid = m_writer.place(track, op.startNs, op.endNs);
        m_writer.complete(m_operators.name(op), m_operators.category(op), track.pid, tid, op.startNs, op.endNs,
            m_operators.args(op), nullptr);
        m_operators.placed(op, track.pid, tid);
    }

    // A flow arrow from the PyTorch operator that launched a GPU op to it.
    void linkOperator(bool kernel, std::int64_t sourceId, std::int64_t pid, std::int64_t tid, std::int64_t startNs)
    {
        const auto origin = m_operators.launcherOf(kernel, sourceId);
        if (!origin)
            return;
        ++m_flowId;
        m_writer.flow("s", m_flowId, origin->pid, origin->tid, origin->startNs, "launched", "operator");
        m_writer.flow("f", m_flowId, pid, tid, startNs, "launched", "operator");
    }

    // One track per (device, stream), lanes for overlaps.
    Track& streamTrack(std::int64_t deviceId, std::int64_t streamId)
    {
        auto [it, added] = m_streams.try_emplace({ deviceId, streamId });
        if (added) {
            it->second.pid = devicePid(deviceId);
            it->second.name = fmt::format("stream {}", streamId);
            it->second.sortIndex = std::clamp<std::int64_t>(streamId, 0, 1'000'000) * 1000;
        }
        return it->second;
    }

    // A flow arrow from the API call that launched an op (same process and correlation id) to it.
    void linkLaunch(
        std::int64_t processId, std::int64_t correlationId, std::int64_t pid, std::int64_t tid, std::int64_t startNs)
    {
        if (correlationId == 0)
            return;
        auto it = m_launches.find({ processId, correlationId });
        if (it == m_launches.end())
            return;
        ++m_flowId;
        m_writer.flow("s", m_flowId, it->second.pid, it->second.tid, it->second.startNs);
        m_writer.flow("f", m_flowId, pid, tid, startNs);
    }

    void writeKernel(const Kernel& k, const KernelAnalysis& analysis)
    {
        auto& track = streamTrack(k.deviceId, k.streamId);
        const auto tid = m_writer.place(track, k.startNs, k.endNs);
        auto name = m_kernelNames.find(k.nameId);
        nlohmann::json args
            = { { "kernel_id", k.id }, { "correlation", k.correlationId }, { "grid", detail::dimText(k.grid) },
                  { "block", detail::dimText(k.block) }, { "registers_per_thread", k.registersPerThread },
                  { "static_shared_bytes", k.staticSharedBytes }, { "dynamic_shared_bytes", k.dynamicSharedBytes },
                  { "start_ns", k.startNs }, { "duration_ns", k.durationNs() } };
        addVerdict(args, analysis);
        m_writer.complete(name == m_kernelNames.end() ? fmt::format("kernel name {}", k.nameId) : name->second,
            "kernel", track.pid, tid, k.startNs, k.endNs, args, traceColourForVerdict(analysis.verdict));
        linkLaunch(k.processId, k.correlationId, track.pid, tid, k.startNs);
        // The same collective instance on the other ranks (perfettocollectives.h).
        if (auto step = m_collectiveFlows.find(k.id); step != m_collectiveFlows.end()) {
            const char phase[] = { step->second.phase, '\0' };
            m_writer.flow(phase, step->second.flowId, track.pid, tid, k.startNs, "collective instance", "collective");
        }
        linkOperator(true, k.id, track.pid, tid, k.startNs);
    }

    void writeMemOp(const MemOp& op)
    {
        auto& track = streamTrack(op.deviceId, op.streamId);
        const auto tid = m_writer.place(track, op.startNs, op.endNs);
        const auto analysis = analyzeMemOp(op);
        nlohmann::json args = { { "kind", toString(op.kind) }, { "bytes", op.bytes },
            { "correlation", op.correlationId }, { "src_memory", op.srcMemory }, { "dst_memory", op.dstMemory },
            { "start_ns", op.startNs }, { "duration_ns", saturatingSub(op.endNs, op.startNs) } };
        addVerdict(args, analysis);
        m_writer.complete(toString(op.kind), op.kind == MemOpKind::Memset ? "memset" : "memcpy", track.pid, tid,
            op.startNs, op.endNs, args, traceColourForVerdict(analysis.verdict));
        linkLaunch(op.processId, op.correlationId, track.pid, tid, op.startNs);
        linkOperator(false, op.id, track.pid, tid, op.startNs);
    }

    // GPU ops, streamed in start order.
    Status writeGpuOps(SessionReader& reader)
    {
        for (const auto& n : m_in.names)
            m_kernelNames[n.id] = n.demangled.empty() ? n.raw : n.demangled;
        auto flows = detail::collectiveFlows(reader);
        RIDGELINE_EXPORT_TRY(flows);
        m_collectiveFlows = std::move(flows).value();
        detail::GpuOpVisitor visit;
        visit.kernel = [this](const Kernel& k, const KernelAnalysis& analysis) {
            if (!m_window || detail::overlaps(k.startNs, k.endNs, *m_window))
                writeKernel(k, analysis);
        };
        visit.memOp = [this](const MemOp& op) { writeMemOp(op); };
        return detail::forEachGpuOp(reader, m_in.memOps, visit);
    }

    void writeEnd(const std::string& sessionPath)
    {
        nlohmann::json colours = nlohmann::json::object();
        for (const auto v : kVerdictClasses)
            colours[toString(v)] = traceColourForVerdict(v);
        auto metaValue = [&](const char* key) {
            auto it = m_in.meta.find(key);
            return it == m_in.meta.end() ? std::string() : it->second;
        };
        const nlohmann::json metadata = { { "ridgeline_version", kVersion }, { "session", sessionPath },
            { "source", metaValue("source") }, { "origin", metaValue("origin") }, { "time_base_ns", m_writer.m_baseNs },
            { "verdict_colours", colours } };
        m_writer.end(metadata.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }

    const TraceInput& m_in;
    TraceWriter m_writer;
    std::optional<TimeWindow> m_window; // a profiler step's: only what overlaps it
    detail::PerfettoOperators m_operators;
    std::int64_t m_sortIndex = 0;
    std::map<std::int64_t, std::int64_t> m_devicePids; // device id -> pid in the trace
    std::map<std::int64_t, std::int64_t> m_hostPids; // process row id -> pid in the trace
    std::map<Key, std::string> m_threadNames;
    std::map<Key, std::int64_t> m_threadOrder;
    std::map<Key, HostLaunch> m_launches; // (process, correlation)
    std::map<Key, Track> m_streams;
    std::unordered_map<std::int64_t, std::string> m_kernelNames;
    std::unordered_map<std::int64_t, detail::CollectiveFlowStep> m_collectiveFlows; // by kernel id
    std::int64_t m_flowId = 0;
};

} // namespace

Status writePerfettoTrace(SessionReader& reader, std::ostream& out, const std::optional<TimeWindow>& window)
{
    TraceInput in;
    RIDGELINE_TRY(readInput(reader, in, window));
    RIDGELINE_TRY(PerfettoExport(in, out, window).write(reader));
    if (!out)
        return makeError(ErrorCode::Io, "cannot write the trace (disk full?)");
    return {};
}

} // namespace ridgeline::core
