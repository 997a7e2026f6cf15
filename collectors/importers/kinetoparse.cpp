// SPDX-License-Identifier: MIT
// One pass of simdjson On-Demand over a Kineto trace: every key of every event is looked at once,
// as raw text, and only the events Ridgeline keeps are unescaped. Nothing but the records kept
// is allocated, so memory stays near the size of the JSON text itself.
#include "kinetojson.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::collectors::kineto {

namespace {

class Parser {
public:
    Parser(ParsedTrace& trace, const char* base, std::size_t size, const std::function<void(double)>& progress)
        : m_trace(trace)
        , m_base(base)
        , m_size(size)
        , m_progress(progress)
    { }

    void topLevel(od::document& doc)
    {
        if (doc.type().value() == od::json_type::array) { // a bare Chrome-trace event list
            events(doc.get_array());
            return;
        }
        for (auto member : doc.get_object()) {
            od::field field = fieldOf(std::move(member));
            const std::string_view key = keyOf(field);
            od::value& v = field.value();
            if (key == "traceEvents")
                events(v.get_array());
            else if (key == "deviceProperties" && v.type().value() == od::json_type::array)
                deviceProperties(v.get_array());
            else if (key == "distributedInfo" && v.type().value() == od::json_type::object)
                distributedInfo(v.get_object());
            else if (key == "host_name" || key == "hostname")
                m_trace.hostName = readString(v);
            else if (key == "baseTimeNanoseconds")
                m_trace.baseTimeNs = readString(v);
        }
    }

    std::size_t lastEventOffset() const { return m_lastEvent; }

private:
    void deviceProperties(od::array array)
    {
        for (auto element : array) {
            od::value item = element.value();
            if (item.type().value() != od::json_type::object)
                continue;
            core::Device device;
            for (auto member : item.get_object()) {
                od::field field = fieldOf(std::move(member));
                const std::string_view key = keyOf(field);
                od::value& v = field.value();
                const std::int64_t n = key == "name" ? 0 : readInt(v).value_or(0);
                if (key == "id")
                    device.id = n;
                else if (key == "name")
                    device.name = readString(v);
                else if (key == "totalGlobalMem")
                    device.memoryBytes = n;
                else if (key == "computeMajor")
                    device.ccMajor = toInt(n);
                else if (key == "computeMinor")
                    device.ccMinor = toInt(n);
                else if (key == "numSms")
                    device.smCount = toInt(n);
                else if (key == "maxThreadsPerMultiprocessor")
                    device.maxThreadsPerSm = toInt(n);
                else if (key == "sharedMemPerMultiprocessor" || key == "maxSharedMemoryPerMultiProcessor")
                    device.sharedMemoryPerSmBytes = n;
            }
            device.ordinal = toInt(device.id);
            m_trace.devices.push_back(device);
        }
    }

    void distributedInfo(od::object object)
    {
        for (auto member : object) {
            od::field field = fieldOf(std::move(member));
            const std::string_view key = keyOf(field);
            od::value& v = field.value();
            if (key == "rank") {
                if (auto rank = readInt(v)) {
                    m_trace.rank = toInt(*rank);
                    m_trace.hasDistributedInfo = true;
                }
            } else if (key == "world_size")
                m_trace.worldSize = toInt(readInt(v).value_or(0));
            else if (key == "backend")
                m_trace.backend = readString(v);
        }
    }

    void events(od::array array)
    {
        for (auto element : array) {
            od::value event = element.value();
            ++m_trace.events;
            m_lastEvent = offsetOf(event);
            // Every 5 % of the text.
            if (m_progress && m_size > 0 && m_lastEvent >= m_nextReport) {
                m_progress(static_cast<double>(m_lastEvent) / static_cast<double>(m_size));
                m_nextReport = m_lastEvent + m_size / 20;
            }
            if (event.type().value() == od::json_type::object)
                oneEvent(event);
        }
    }

    std::size_t offsetOf(od::value& value)
    {
        const char* at = value.current_location().value();
        return static_cast<std::size_t>(at - m_base);
    }

    void oneEvent(od::value& event)
    {
        std::string_view ph, cat, name, ts, dur;
        Category category = Category::Unknown;
        std::int64_t pid = 0, tid = 0;
        Args args;
        for (auto member : event.get_object()) {
            od::field field = fieldOf(std::move(member));
            const std::string_view key = keyOf(field);
            od::value& v = field.value();
            if (key == "ph")
                ph = unquoted(v.raw_json_token());
            else if (key == "cat") {
                cat = isScalar(v) ? unquoted(v.raw_json_token()) : std::string_view();
                category = classify(cat);
            } else if (key == "name" && isScalar(v))
                name = v.raw_json_token();
            else if (key == "ts" && isScalar(v))
                ts = unquoted(v.raw_json_token());
            else if (key == "dur" && isScalar(v))
                dur = unquoted(v.raw_json_token());
            else if (key == "pid")
                pid = readInt(v).value_or(0);
            else if (key == "tid")
                tid = readInt(v).value_or(0);
            else if (key == "args" && wantsArgs(ph, category))
                readArgs(v, args);
        }
        if (ph == "M") {
            metadata(unescapeJsonString(name), pid, tid, args.name);
            return;
        }
        if (ph != "X")
            return;
        const auto start = microsToNs(ts);
        const auto length = microsToNs(dur.empty() ? std::string_view("0") : dur);
        if (!start || !length || category == Category::Unknown)
            return;
        const std::int64_t startNs = *start;
        const std::int64_t endNs = startNs + std::max<std::int64_t>(*length, 0);
        if (category == Category::Other) {
            // Other accelerators' device ops (HTA: mtia_ccp_events): counted for a warning.
            if (cat.size() >= 4 && equalsIgnoreCase(cat.substr(0, 4), "mtia"))
                ++m_trace.otherAcceleratorOps[std::string(cat)];
            return;
        }
        note(startNs, endNs);
        switch (category) {
        case Category::Kernel:
            kernel(name, pid, tid, startNs, endNs, args);
            break;
        case Category::Memcpy:
        case Category::Memset:
            memop(category, name, pid, tid, startNs, endNs, args);
            break;
        case Category::Runtime:
        case Category::Driver:
            ++m_trace.hostPidEvents[pid];
            m_trace.apiCalls.push_back({ 0, pid, tid, category == Category::Runtime ? "runtime" : "driver",
                unescapeJsonString(name), args.correlation, startNs, endNs, 0 });
            break;
        case Category::Annotation:
            ++m_trace.hostPidEvents[pid];
            m_trace.ranges.push_back(
                { 0, pid, tid, "user_annotation", unescapeJsonString(name), startNs, endNs, 0, 0 });
            break;
        case Category::GpuAnnotation:
            // pid is the device, tid the stream: kept on the stream's lane (process set when written).
            m_trace.ranges.push_back({ 0, -1, args.stream.value_or(tid), "gpu_user_annotation",
                unescapeJsonString(name), startNs, endNs, 0, 0 });
            break;
        case Category::Host:
            ++m_trace.hostPidEvents[pid];
            break;
        default:
            break;
        }
    }

    static bool wantsArgs(std::string_view ph, Category category)
    {
        if (ph.empty() || ph == "M" || category == Category::Unknown)
            return true;
        return category == Category::Kernel || category == Category::Memcpy || category == Category::Memset
            || category == Category::Runtime || category == Category::Driver || category == Category::GpuAnnotation;
    }

    void note(std::int64_t startNs, std::int64_t endNs)
    {
        if (!m_trace.anyTime) {
            m_trace.firstNs = startNs;
            m_trace.lastNs = endNs;
            m_trace.anyTime = true;
        }
        m_trace.firstNs = std::min(m_trace.firstNs, startNs);
        m_trace.lastNs = std::max(m_trace.lastNs, endNs);
    }

    void metadata(const std::string& what, std::int64_t pid, std::int64_t tid, const std::string& value)
    {
        if (what == "process_name")
            m_trace.processNames[pid] = value;
        else if (what == "thread_name")
            m_trace.threadNames[{ pid, tid }] = value;
    }

    std::int64_t intern(std::string_view rawName)
    {
        std::string text = unescapeJsonString(rawName);
        if (auto it = m_trace.nameIndex.find(text); it != m_trace.nameIndex.end())
            return it->second;
        const auto index = static_cast<std::int64_t>(m_trace.names.size());
        m_trace.names.push_back(text);
        m_trace.nameIndex.emplace(std::move(text), index);
        return index;
    }

    void kernel(std::string_view rawName, std::int64_t pid, std::int64_t tid, std::int64_t startNs, std::int64_t endNs,
        Args& args)
    {
        TraceKernel k;
        k.kernel.deviceId = args.device.value_or(pid);
        k.kernel.contextId = args.context;
        k.kernel.streamId = args.stream.value_or(tid);
        k.kernel.correlationId = args.correlation;
        k.kernel.nameId = intern(rawName);
        k.kernel.startNs = startNs;
        k.kernel.endNs = endNs;
        k.kernel.grid = args.grid;
        k.kernel.block = args.block;
        k.kernel.registersPerThread = toInt(args.registers);
        k.kernel.staticSharedBytes = toInt(args.sharedMemory); // Kineto reports static + dynamic as one figure
        const std::string& name = m_trace.names[static_cast<std::size_t>(k.kernel.nameId)];
        if (args.hasCollective || isNcclKernelName(name)) {
            CommInfo info = std::move(args.comm);
            parseNcclKernelName(name, info);
            if (info.collective.empty())
                info.collective = "unknown";
            if (!args.pgName.empty() || !args.pgDesc.empty()) {
                info.processGroup = args.pgName;
                if (!args.pgDesc.empty())
                    info.processGroup += fmt::format("{}({})", info.processGroup.empty() ? "" : " ", args.pgDesc);
                if (!args.pgRanks.empty())
                    info.processGroup += " ranks " + args.pgRanks;
            }
            k.comm = std::move(info);
        }
        m_trace.kernels.push_back(std::move(k));
    }

    void memop(Category category, std::string_view rawName, std::int64_t pid, std::int64_t tid, std::int64_t startNs,
        std::int64_t endNs, const Args& args)
    {
        core::MemOp op;
        op.processId = -1;
        op.deviceId = args.device.value_or(pid);
        op.streamId = args.stream.value_or(tid);
        op.correlationId = args.correlation;
        op.bytes = args.bytes;
        op.startNs = startNs;
        op.endNs = endNs;
        const std::string name = unescapeJsonString(rawName);
        if (category == Category::Memset) {
            op.kind = core::MemOpKind::Memset;
            op.dstMemory = "device";
        } else {
            parseMemcpyName(name, op);
            op.srcDeviceId = args.fromDevice;
            op.dstDeviceId = args.toDevice;
        }
        m_trace.memops.push_back(std::move(op));
    }

    ParsedTrace& m_trace;
    const char* m_base;
    std::size_t m_size;
    const std::function<void(double)>& m_progress;
    std::size_t m_lastEvent = 0;
    std::size_t m_nextReport = 0;
};

} // namespace

core::Result<ParsedTrace> parseTrace(
    std::string_view name, const std::string& padded, const std::function<void(double)>& progress)
{
    ParsedTrace trace;
    trace.name = std::string(name);
    if (padded.find_first_not_of(" \t\r\n") == std::string::npos)
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: the file is empty", name));
    if (padded.capacity() < padded.size() + simdjson::SIMDJSON_PADDING)
        return core::makeError(core::ErrorCode::Internal, fmt::format("{}: the JSON buffer lacks padding", name));
    od::parser parser;
    Parser reader(trace, padded.data(), padded.size(), progress);
    try {
        od::document doc
            = parser.iterate(simdjson::padded_string_view(padded.data(), padded.size(), padded.capacity()));
        reader.topLevel(doc);
        if (const auto trailing = doc.current_location(); !trailing.error())
            return core::makeError(core::ErrorCode::BadFile,
                fmt::format("{}: malformed JSON: unexpected text after the trace at byte {}", name,
                    static_cast<std::size_t>(trailing.value_unsafe() - padded.data())));
    } catch (const simdjson::simdjson_error& e) {
        const auto code = e.error();
        if (code == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || code == simdjson::UNCLOSED_STRING)
            return core::makeError(core::ErrorCode::BadFile,
                fmt::format("{}: truncated or malformed JSON: the text ends at byte {} inside an unclosed {} ({})",
                    name, padded.size(), code == simdjson::UNCLOSED_STRING ? "string" : "object or array",
                    simdjson::error_message(code)));
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: malformed JSON in the event starting at byte {} (of {}): {}", name,
                reader.lastEventOffset(), padded.size(), simdjson::error_message(code)));
    }
    return trace;
}

} // namespace ridgeline::collectors::kineto
