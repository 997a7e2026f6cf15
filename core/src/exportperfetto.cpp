// SPDX-License-Identifier: MIT
// Chrome Trace Event JSON for ui.perfetto.dev (reference: shared/reference/trace-formats.md §5).
#include "exportcommon.h"
#include "ridgeline/core/exporters.h"
#include "ridgeline/core/saturating.h"
#include "ridgeline/core/sessionreader.h"
#include "ridgeline/core/version.h"

#include <algorithm>
#include <fmt/format.h>
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

    void flow(const char* phase, std::int64_t id, std::int64_t pid, std::int64_t tid, std::int64_t ns)
    {
        event(fmt::format(R"("name":"launch","cat":"correlation","ph":"{}","id":{},"pid":{},"tid":{},"ts":{}{})", phase,
            id, pid, tid, microseconds(saturatingSub(ns, m_baseNs)), phase[0] == 'f' ? R"(,"bp":"e")" : ""));
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
    args["verdict"] = analysis.verdict;
    args["bound_by"] = analysis.boundBy;
    args["reason"] = analysis.reason;
    args["pct_of_roof"]
        = analysis.boundUtilization ? nlohmann::json(*analysis.boundUtilization * 100.0) : nlohmann::json(nullptr);
    if (analysis.hasCounters) {
        args["achieved_flops_per_s"] = optionalNumber(analysis.achievedFlopsPerS);
        if (auto dram = analysis.intensity.find("DRAM"); dram != analysis.intensity.end())
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

} // namespace

Status writePerfettoTrace(SessionReader& reader, std::ostream& out)
{
    auto meta = reader.meta();
    RIDGELINE_EXPORT_TRY(meta);
    auto devices = reader.devices();
    RIDGELINE_EXPORT_TRY(devices);
    auto processes = reader.processes();
    RIDGELINE_EXPORT_TRY(processes);
    auto threads = reader.threads();
    RIDGELINE_EXPORT_TRY(threads);
    auto names = reader.kernelNames();
    RIDGELINE_EXPORT_TRY(names);
    auto memOpsRead = reader.memOps();
    RIDGELINE_EXPORT_TRY(memOpsRead);
    auto apiCallsRead = reader.apiCalls();
    RIDGELINE_EXPORT_TRY(apiCallsRead);
    auto rangesRead = reader.nvtxRanges();
    RIDGELINE_EXPORT_TRY(rangesRead);
    auto span = reader.gpuTimeSpan();
    RIDGELINE_EXPORT_TRY(span);
    const auto memOps = detail::sortedByStart(std::move(memOpsRead).value());
    auto apiCalls = std::move(apiCallsRead).value();
    auto ranges = std::move(rangesRead).value();
    // Outer slices first so that nesting ones stack on one lane.
    auto byStart = [](const auto& a, const auto& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
    };
    std::stable_sort(apiCalls.begin(), apiCalls.end(), byStart);
    std::stable_sort(ranges.begin(), ranges.end(), byStart);

    TraceWriter writer(out);
    // Time base: zero unless the clock is too far out for doubles to keep nanoseconds.
    std::int64_t minNs = span.value().empty ? 0 : span.value().startNs;
    std::int64_t maxNs = span.value().empty ? 0 : span.value().endNs;
    for (const auto& op : memOps) {
        minNs = std::min(minNs, op.startNs);
        maxNs = std::max(maxNs, op.endNs);
    }
    for (const auto& call : apiCalls) {
        minNs = std::min(minNs, call.startNs);
        maxNs = std::max(maxNs, call.endNs);
    }
    for (const auto& range : ranges) {
        minNs = std::min(minNs, range.startNs);
        maxNs = std::max(maxNs, range.endNs);
    }
    if (maxNs > kLargeTimeNs || minNs < -kLargeTimeNs)
        writer.m_baseNs = saturatingSub(minNs, ((minNs % 1'000'000'000) + 1'000'000'000) % 1'000'000'000);

    writer.begin();
    // Devices, then host processes.
    std::set<std::string> hosts;
    for (const auto& d : devices.value())
        hosts.insert(d.host);
    std::map<std::int64_t, std::int64_t> devicePids;
    std::int64_t sortIndex = 0;
    for (const auto& d : devices.value()) {
        devicePids[d.id] = saturatingAdd(kDevicePidBase, d.id);
        writer.processName(saturatingAdd(kDevicePidBase, d.id), deviceLabel(d, hosts.size() > 1), sortIndex++);
    }
    auto devicePid = [&](std::int64_t deviceId) {
        auto [it, added] = devicePids.emplace(deviceId, saturatingAdd(kDevicePidBase, deviceId));
        if (added)
            writer.processName(it->second, fmt::format("GPU (device {} not described)", deviceId), sortIndex++);
        return it->second;
    };
    std::map<std::int64_t, std::int64_t> hostPids; // process row id -> pid in the trace
    std::set<std::int64_t> usedPids;
    for (const auto& p : processes.value()) {
        const auto pid = usedPids.insert(p.pid).second && p.pid > 0 ? p.pid : saturatingAdd(kHostPidFallbackBase, p.id);
        hostPids[p.id] = pid;
        writer.processName(pid, processLabel(p), 1000 + sortIndex++);
    }
    auto hostPid = [&](std::int64_t processId) {
        auto [it, added] = hostPids.emplace(processId, saturatingAdd(kHostPidFallbackBase, processId));
        if (added)
            writer.processName(it->second, fmt::format("process {} (not described)", processId), 1000 + sortIndex++);
        return it->second;
    };

    // Host threads: API calls on the OS thread's own tid, NVTX ranges on a track of their own.
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> threadOrder;
    for (const auto& t : threads.value()) {
        threadNames[{ t.processId, t.tid }] = t.name;
        threadOrder.emplace(std::make_pair(t.processId, t.tid), static_cast<std::int64_t>(threadOrder.size()));
    }
    std::map<std::pair<std::int64_t, std::int64_t>, Track> apiTracks, nvtxTracks;
    auto hostTrack = [&](auto& tracks, std::int64_t processId, std::int64_t tid, bool nvtx) -> Track& {
        auto [it, added] = tracks.try_emplace({ processId, tid });
        if (added) {
            auto order
                = threadOrder.emplace(std::make_pair(processId, tid), static_cast<std::int64_t>(threadOrder.size()))
                      .first->second;
            const auto& name = threadNames[{ processId, tid }];
            auto label = name.empty() ? fmt::format("thread {}", tid) : fmt::format("thread {} ({})", tid, name);
            it->second.pid = hostPid(processId);
            it->second.name = nvtx ? "NVTX: " + label : label;
            it->second.sortIndex = order * 1000 + (nvtx ? 500 : 0);
            it->second.nesting = true;
            if (!nvtx)
                it->second.firstTid = tid;
        }
        return it->second;
    };

    std::map<std::pair<std::int64_t, std::int64_t>, HostLaunch> launches; // (process, correlation)
    for (const auto& call : apiCalls) {
        auto& track = hostTrack(apiTracks, call.processId, call.threadId, false);
        const auto tid = writer.place(track, call.startNs, call.endNs);
        nlohmann::json args
            = { { "domain", call.domain }, { "correlation", call.correlationId }, { "return_code", call.returnCode } };
        writer.complete(call.name, "cuda_api", track.pid, tid, call.startNs, call.endNs, args, nullptr);
        if (call.correlationId != 0)
            launches.try_emplace({ call.processId, call.correlationId }, HostLaunch { track.pid, tid, call.startNs });
    }
    for (const auto& range : ranges) {
        auto& track = hostTrack(nvtxTracks, range.processId, range.threadId, true);
        const auto tid = writer.place(track, range.startNs, range.endNs);
        nlohmann::json args = { { "domain", range.domain }, { "category", range.category } };
        if (range.color != 0)
            args["color"] = fmt::format("#{:08x}", range.color);
        writer.complete(range.name, "nvtx", track.pid, tid, range.startNs, range.endNs, args, nullptr);
    }

    // GPU ops, streamed in start order: one track per (device, stream), lanes for overlaps.
    std::unordered_map<std::int64_t, std::string> kernelNames;
    for (const auto& n : names.value())
        kernelNames[n.id] = n.demangled.empty() ? n.raw : n.demangled;
    std::map<std::pair<std::int64_t, std::int64_t>, Track> streams;
    auto streamTrack = [&](std::int64_t deviceId, std::int64_t streamId) -> Track& {
        auto [it, added] = streams.try_emplace({ deviceId, streamId });
        if (added) {
            it->second.pid = devicePid(deviceId);
            it->second.name = fmt::format("stream {}", streamId);
            it->second.sortIndex = std::clamp<std::int64_t>(streamId, 0, 1'000'000) * 1000;
        }
        return it->second;
    };
    std::int64_t flowId = 0;
    auto linkLaunch = [&](std::int64_t processId, std::int64_t correlationId, std::int64_t pid, std::int64_t tid,
                          std::int64_t startNs) {
        if (correlationId == 0)
            return;
        auto it = launches.find({ processId, correlationId });
        if (it == launches.end())
            return;
        ++flowId;
        writer.flow("s", flowId, it->second.pid, it->second.tid, it->second.startNs);
        writer.flow("f", flowId, pid, tid, startNs);
    };
    detail::GpuOpVisitor visit;
    visit.kernel = [&](const Kernel& k, const KernelAnalysis& analysis) {
        auto& track = streamTrack(k.deviceId, k.streamId);
        const auto tid = writer.place(track, k.startNs, k.endNs);
        auto name = kernelNames.find(k.nameId);
        nlohmann::json args
            = { { "kernel_id", k.id }, { "correlation", k.correlationId }, { "grid", detail::dimText(k.grid) },
                  { "block", detail::dimText(k.block) }, { "registers_per_thread", k.registersPerThread },
                  { "static_shared_bytes", k.staticSharedBytes }, { "dynamic_shared_bytes", k.dynamicSharedBytes },
                  { "start_ns", k.startNs }, { "duration_ns", k.durationNs() } };
        addVerdict(args, analysis);
        writer.complete(name == kernelNames.end() ? fmt::format("kernel name {}", k.nameId) : name->second, "kernel",
            track.pid, tid, k.startNs, k.endNs, args, traceColourForVerdict(analysis.verdict));
        linkLaunch(k.processId, k.correlationId, track.pid, tid, k.startNs);
    };
    visit.memOp = [&](const MemOp& op) {
        auto& track = streamTrack(op.deviceId, op.streamId);
        const auto tid = writer.place(track, op.startNs, op.endNs);
        const auto analysis = analyzeMemOp(op);
        nlohmann::json args = { { "kind", toString(op.kind) }, { "bytes", op.bytes },
            { "correlation", op.correlationId }, { "src_memory", op.srcMemory }, { "dst_memory", op.dstMemory },
            { "start_ns", op.startNs }, { "duration_ns", saturatingSub(op.endNs, op.startNs) } };
        addVerdict(args, analysis);
        writer.complete(toString(op.kind), op.kind == MemOpKind::Memset ? "memset" : "memcpy", track.pid, tid,
            op.startNs, op.endNs, args, traceColourForVerdict(analysis.verdict));
        linkLaunch(op.processId, op.correlationId, track.pid, tid, op.startNs);
    };
    RIDGELINE_TRY(detail::forEachGpuOp(reader, memOps, visit));

    nlohmann::json colours = nlohmann::json::object();
    for (const char* v : { verdict::ComputeBound, verdict::MemoryBound, verdict::CommunicationBound,
             verdict::LatencyBound, verdict::Unknown })
        colours[v] = traceColourForVerdict(v);
    auto metaValue = [&](const char* key) {
        auto it = meta.value().find(key);
        return it == meta.value().end() ? std::string() : it->second;
    };
    const nlohmann::json metadata
        = { { "ridgeline_version", kVersion }, { "session", reader.path() }, { "source", metaValue("source") },
              { "origin", metaValue("origin") }, { "time_base_ns", writer.m_baseNs }, { "verdict_colours", colours } };
    writer.end(metadata.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (!out)
        return makeError(ErrorCode::Io, "cannot write the trace (disk full?)");
    return {};
}

} // namespace ridgeline::core
