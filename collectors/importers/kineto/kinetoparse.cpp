// SPDX-License-Identifier: MIT
// simdjson On-Demand over a Kineto trace, one piece at a time as kinetosplit.h cuts it: every key
// of every event is looked at once, as raw text, and only the events Ridgeline keeps are
// unescaped. Nothing but the records kept is allocated; the text is never held whole.
#include "kinetojson.h"
#include "ridgeline/core/model/commnames.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::collectors::kineto {

namespace {

class Parser {
public:
    explicit Parser(ParsedTrace& trace)
        : m_trace(trace)
    { }

    // The events of one batch: `text` is "[e1,e2,...]" whose '[' is at byte `offset` of the trace.
    void batch(od::document& doc, std::string_view text, std::uint64_t offset)
    {
        m_base = text.data();
        m_baseOffset = offset;
        events(doc.get_array());
    }

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
            if (is(key, "traceEvents"))
                events(v.get_array());
            else if (is(key, "deviceProperties") && v.type().value() == od::json_type::array)
                deviceProperties(v.get_array());
            else if (is(key, "distributedInfo") && v.type().value() == od::json_type::object)
                distributedInfo(v.get_object());
            else if (is(key, "host_name") || is(key, "hostname"))
                m_trace.hostName = readString(v);
            else if (is(key, "baseTimeNanoseconds"))
                m_trace.baseTimeNs = readString(v);
        }
    }

    std::uint64_t lastEventOffset() const { return m_lastEvent; }

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
                const std::int64_t n = is(key, "name") ? 0 : readInt(v).value_or(0);
                if (is(key, "id"))
                    device.id = n;
                else if (is(key, "name"))
                    device.name = readString(v);
                else if (is(key, "totalGlobalMem"))
                    device.memoryBytes = n;
                else if (is(key, "computeMajor"))
                    device.ccMajor = toInt(n);
                else if (is(key, "computeMinor"))
                    device.ccMinor = toInt(n);
                else if (is(key, "numSms"))
                    device.smCount = toInt(n);
                else if (is(key, "maxThreadsPerMultiprocessor"))
                    device.maxThreadsPerSm = toInt(n);
                else if (is(key, "sharedMemPerMultiprocessor") || is(key, "maxSharedMemoryPerMultiProcessor"))
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
            if (is(key, "rank")) {
                if (auto rank = readInt(v)) {
                    m_trace.rank = toInt(*rank);
                    m_trace.hasDistributedInfo = true;
                }
            } else if (is(key, "world_size"))
                m_trace.worldSize = toInt(readInt(v).value_or(0));
            else if (is(key, "backend"))
                m_trace.backend = readString(v);
        }
    }

    void events(od::array array)
    {
        for (auto element : array) {
            od::value event = element.value();
            ++m_trace.events;
            m_lastEvent = offsetOf(event);
            if (event.type().value() == od::json_type::object)
                oneEvent(event);
        }
    }

    std::uint64_t offsetOf(od::value& value)
    {
        const char* at = value.current_location().value();
        return m_baseOffset + static_cast<std::uint64_t>(at - m_base);
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
            if (is(key, "ph"))
                ph = unquoted(v.raw_json_token());
            else if (is(key, "cat")) {
                cat = isScalar(v) ? unquoted(v.raw_json_token()) : std::string_view();
                category = classify(cat);
            } else if (is(key, "name") && isScalar(v))
                name = v.raw_json_token();
            else if (is(key, "ts") && isScalar(v))
                ts = unquoted(v.raw_json_token());
            else if (is(key, "dur") && isScalar(v))
                dur = unquoted(v.raw_json_token());
            else if (is(key, "pid"))
                pid = readInt(v).value_or(0);
            else if (is(key, "tid"))
                tid = readInt(v).value_or(0);
            else if (is(key, "args") && (category == Category::CpuOp || category == Category::PythonFunction))
                readOperatorArgs(v, args);
            else if (is(key, "args") && wantsArgs(ph, category))
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
            else if (equalsIgnoreCase(cat, "cuda_profiler_range"))
                ++m_trace.profilerRanges;
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
            countHostEvent(pid);
            m_trace.apiCalls.push_back({ 0, pid, tid, category == Category::Runtime ? "runtime" : "driver",
                unescapeJsonString(name), args.correlation, startNs, endNs, 0, args.externalId });
            break;
        case Category::Annotation:
            countHostEvent(pid);
            m_trace.ranges.push_back(
                { 0, pid, tid, "user_annotation", unescapeJsonString(name), startNs, endNs, 0, 0 });
            break;
        case Category::GpuAnnotation:
            // pid is the device, tid the stream: kept on the stream's lane (process set when written).
            m_trace.ranges.push_back({ 0, -1, args.stream.value_or(tid), "gpu_user_annotation",
                unescapeJsonString(name), startNs, endNs, 0, 0 });
            break;
        case Category::CpuOp:
        case Category::PythonFunction:
            countHostEvent(pid);
            hostOperator(category, name, pid, tid, startNs, endNs, args);
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

    void hostOperator(Category category, std::string_view rawName, std::int64_t pid, std::int64_t tid,
        std::int64_t startNs, std::int64_t endNs, const Args& args)
    {
        TraceOperator op;
        op.processId = pid;
        op.threadId = tid;
        op.startNs = startNs;
        op.endNs = endNs;
        op.externalId = args.externalId;
        op.sequenceNumber = args.sequenceNumber;
        op.python = category == Category::PythonFunction;
        // A name without escapes is looked up as written, without a copy.
        const std::string_view plain = unquoted(rawName);
        op.name = plain.find('\\') == std::string_view::npos ? internString(plain)
                                                              : internString(unescapeJsonString(rawName));
        op.inputDims = internString(args.inputDims);
        op.inputTypes = internString(args.inputTypes);
        op.module = internString(args.module);
        op.callStack = internString(args.callStack);
        op.concreteInputs = internString(args.concreteInputs);
        m_trace.operators.push_back(op);
    }

    std::uint32_t internString(std::string_view text) { return m_trace.strings.intern(text); }

    // Host events per pid, the last pid's count at hand (a thread's events come together).
    void countHostEvent(std::int64_t pid)
    {
        if (m_lastPidCount == nullptr || pid != m_lastPid) {
            m_lastPidCount = &m_trace.hostPidEvents[pid];
            m_lastPid = pid;
        }
        ++*m_lastPidCount;
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
        // Communication kernels by the one list (commnames.h): NCCL's, symmetric memory's, custom
        // all-reduces, DeepEP's.
        const auto comm = core::communicationKernel(name);
        if (args.hasCollective || comm) {
            CommInfo info = std::move(args.comm);
            parseNcclKernelName(name, info);
            if (info.collective.empty())
                info.collective = comm && !comm->collective.empty() ? std::string(comm->collective) : "unknown";
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
    std::int64_t m_lastPid = 0;
    std::int64_t* m_lastPidCount = nullptr; // std::map: stays valid as pids are added
    const char* m_base = nullptr;
    std::uint64_t m_baseOffset = 0;
    std::uint64_t m_lastEvent = 0;
};

core::Error jsonError(std::string_view name, const simdjson::simdjson_error& e, std::string_view where)
{
    return core::makeError(core::ErrorCode::BadFile,
        fmt::format("{}: malformed JSON in {}: {}", name, where, simdjson::error_message(e.error())));
}

} // namespace

struct PieceParser::Impl {
    od::parser parser;
};

PieceParser::PieceParser()
    : m_impl(std::make_unique<Impl>())
{ }

PieceParser::~PieceParser() = default;

core::Status PieceParser::member(std::string_view text, std::size_t capacity, ParsedTrace& trace)
{
    Parser reader(trace);
    try {
        od::document doc = m_impl->parser.iterate(simdjson::padded_string_view(text.data(), text.size(), capacity));
        reader.topLevel(doc);
    } catch (const simdjson::simdjson_error& e) {
        return jsonError(trace.name, e, fmt::format("the top-level member {:.40}", text.substr(1)));
    }
    return {};
}

core::Status PieceParser::events(std::string_view text, std::size_t capacity, std::uint64_t offset, ParsedTrace& part)
{
    // Real events are 200-500 bytes, most of them operators: room for them without regrowing.
    part.operators.reserve(part.operators.size() + text.size() / 384);
    Parser reader(part);
    try {
        od::document doc = m_impl->parser.iterate(simdjson::padded_string_view(text.data(), text.size(), capacity));
        reader.batch(doc, text, offset);
    } catch (const simdjson::simdjson_error& e) {
        return jsonError(part.name, e, fmt::format("the event starting at byte {}", reader.lastEventOffset()));
    }
    return {};
}

void mergeInto(ParsedTrace& trace, ParsedTrace&& part)
{
    std::vector<std::int64_t> nameIds;
    nameIds.reserve(part.names.size());
    for (auto& name : part.names) {
        auto it = trace.nameIndex.find(name);
        if (it == trace.nameIndex.end()) {
            it = trace.nameIndex.emplace(name, static_cast<std::int64_t>(trace.names.size())).first;
            trace.names.push_back(std::move(name));
        }
        nameIds.push_back(it->second);
    }
    for (auto& k : part.kernels) {
        k.kernel.nameId = nameIds[static_cast<std::size_t>(k.kernel.nameId)];
        trace.kernels.push_back(std::move(k));
    }
    const auto append = [](auto& to, auto& from) {
        if (to.empty())
            to = std::move(from);
        else
            to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
    };
    append(trace.memops, part.memops);
    append(trace.apiCalls, part.apiCalls);
    append(trace.ranges, part.ranges);
    // Operators are normally taken by the batch consumer; otherwise their strings join the trace's.
    std::vector<std::uint32_t> stringIds(part.strings.size(), 0);
    for (std::uint32_t i = 1; i < part.strings.size(); ++i)
        stringIds[i] = trace.strings.intern(part.strings[i]);
    for (auto op : part.operators) {
        for (auto* id : { &op.name, &op.inputDims, &op.inputTypes, &op.module, &op.callStack, &op.concreteInputs })
            *id = stringIds[*id];
        trace.operators.push_back(op);
    }
    for (auto& [key, value] : part.threadNames)
        trace.threadNames[key] = std::move(value);
    for (auto& [key, value] : part.processNames)
        trace.processNames[key] = std::move(value);
    for (const auto& [pid, count] : part.hostPidEvents)
        trace.hostPidEvents[pid] += count;
    for (const auto& [cat, count] : part.otherAcceleratorOps)
        trace.otherAcceleratorOps[cat] += count;
    trace.profilerRanges += part.profilerRanges;
    trace.events += part.events;
    if (part.anyTime) {
        trace.firstNs = trace.anyTime ? std::min(trace.firstNs, part.firstNs) : part.firstNs;
        trace.lastNs = trace.anyTime ? std::max(trace.lastNs, part.lastNs) : part.lastNs;
        trace.anyTime = true;
    }
}

} // namespace ridgeline::collectors::kineto
