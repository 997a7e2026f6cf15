// SPDX-License-Identifier: MIT
// Internals of the Kineto importer: reading (gzip), parsing (simdjson On-Demand) and writing the
// session share these types.
#pragma once

#include "common/inputsource.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::collectors::kineto {

// What an NCCL kernel's args say about its collective.
struct CommInfo {
    std::string collective; // "allreduce" from the args, else from the kernel name ("AllReduce")
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    int groupSize = 0;
    std::string dtype;
    std::string processGroup;
    std::string algorithm;
    std::string protocol;
    std::int64_t seq = -1; // "Seq": the instance within its process group (traces since 2026)
};

// An operator (cpu_op, python_function) as parsed, its strings interned in its batch
// (ParsedTrace::strings; 0 is the empty string), so that none is allocated per operator.
struct TraceOperator {
    std::int64_t processId = 0; // the pid
    std::int64_t threadId = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t externalId = 0;
    std::int64_t sequenceNumber = -1;
    std::uint32_t name = 0, inputDims = 0, inputTypes = 0, module = 0, callStack = 0, concreteInputs = 0;
    bool python = false; // a python_function, else a cpu_op
};

// The operators' strings of a batch (or a trace), interned: their bytes in one buffer and an open
// addressing table of their indexes, so that a new string costs no allocation of its own (about 600
// per 1 MB batch). Index 0 is the empty string.
class StringTable {
public:
    std::uint32_t intern(std::string_view text) { return intern(text, hashOf(text)); }
    // `hash`: hashOf(text), when known (another table's hash(index)).
    std::uint32_t intern(std::string_view text, std::size_t hash);
    std::size_t hash(std::uint32_t index) const { return index == 0 ? hashOf({}) : m_hashes[index - 1]; }
    static std::size_t hashOf(std::string_view text) { return std::hash<std::string_view>()(text); }
    std::string_view operator[](std::uint32_t index) const
    {
        const auto [offset, size] = m_spans[index];
        return { m_bytes.data() + offset, size };
    }
    std::size_t size() const { return m_spans.size(); }
    void clear() { *this = {}; }

private:
    void grow();
    std::string m_bytes;
    std::vector<std::pair<std::size_t, std::uint32_t>> m_spans { { 0, 0 } }; // offset and size
    std::vector<std::uint32_t> m_slots; // index of the string, 0 when free
    std::vector<std::size_t> m_hashes; // of each string
};

struct TraceKernel {
    core::Kernel kernel; // deviceId: the file's device id; nameId: index into ParsedTrace::names
    std::optional<CommInfo> comm;
};

// One trace file, ids as the file has them: deviceId = the device ordinal, processId = the OS pid.
struct ParsedTrace {
    std::string name; // file name for messages
    std::vector<core::Device> devices; // from deviceProperties; id = the file's "id"
    bool hasDistributedInfo = false;
    int rank = -1;
    int worldSize = 0;
    std::string backend;
    std::string hostName;
    std::string baseTimeNs; // "baseTimeNanoseconds" as written, when present
    std::vector<std::string> names; // unique kernel names
    std::map<std::string, std::int64_t, std::less<>> nameIndex;
    std::vector<TraceKernel> kernels;
    std::vector<core::MemOp> memops;
    std::vector<core::ApiCall> apiCalls;
    std::vector<core::NvtxRange> ranges;
    // cpu_op and python_function events in file order, and the strings they use ([0] = "").
    std::vector<TraceOperator> operators;
    StringTable strings;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames; // (pid, tid) -> name
    std::map<std::int64_t, std::string> processNames; // pid -> process_name
    std::map<std::int64_t, std::int64_t> hostPidEvents; // pid of CPU-side events -> count
    std::map<std::string, std::int64_t> otherAcceleratorOps; // e.g. "mtia_ccp_events" -> count
    std::int64_t profilerRanges = 0; // "cuda_profiler_range" events (Kineto's CUPTI counter mode)
    std::int64_t events = 0;
    std::int64_t firstNs = 0;
    std::int64_t lastNs = 0;
    bool anyTime = false;
};

// Parses one trace as it streams in, its events in batches on `workers` threads and on the calling
// thread whenever it would wait for them (0: all on the calling thread). `progress` gets the
// fraction of the input read.
// `batchBytes`: events handed to a worker at a time (0: the splitter's default). `consume`, when
// given, sees each batch's records in file order before they join the trace, and may take some.
// `windowBytes`: the splitter's window (0: its default).
using BatchConsumer = std::function<core::Status(ParsedTrace& part)>;
core::Result<ParsedTrace> parseTrace(InputSource& source, const std::function<void(double)>& progress,
    unsigned workers = 0, std::size_t batchBytes = 0, const BatchConsumer& consume = {}, std::size_t windowBytes = 0);

// Worker threads for parsing a file's events: one fewer than hardware threads (at least 1, at most
// 8), the reading thread parsing beside them.
unsigned parseWorkers();

// Parses the pieces kinetosplit.h cuts (simdjson On-Demand; one instance per thread).
class PieceParser {
public:
    PieceParser();
    ~PieceParser();
    PieceParser(const PieceParser&) = delete;
    PieceParser& operator=(const PieceParser&) = delete;
    // A top-level member `{"key":value}` into `trace` (devices, distributedInfo, host name, ...).
    core::Status member(std::string_view text, std::size_t capacity, ParsedTrace& trace);
    // A batch of events `[...]` whose '[' is at byte `offset` of the trace, into `part` (names
    // interned in the part; `part.name` is used in messages).
    core::Status events(std::string_view text, std::size_t capacity, std::uint64_t offset, ParsedTrace& part);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Appends a batch's records to the trace, as if parsed in sequence after what it holds.
void mergeInto(ParsedTrace& trace, ParsedTrace&& part);

// Nests a trace's operators exactly, per thread, in integer nanoseconds, and assigns session ids.
// Kineto writes a thread's cpu_ops by start time and its python_function events after them, so the
// operators are held until finish(): a python_function read last may hold every cpu_op before it.
// They are held compactly (kinetooperators.cpp: a 20-byte sort key per operator and its other
// columns as varints, 31 bytes in all on a real trace), not as 120-byte rows.
class OperatorNesting {
public:
    explicit OperatorNesting(std::int64_t firstId = 1);
    ~OperatorNesting();
    OperatorNesting(const OperatorNesting&) = delete;
    OperatorNesting& operator=(const OperatorNesting&) = delete;
    using Row = core::SessionWriter::OperatorRow;
    // `op.processId` must already be the session's process id; `python`: a python_function event
    // (of equal times, a Python function holds the operator it calls). Its id and parentId are
    // ignored. Refused (InvalidArgument) past 2^31 operators in one trace.
    core::Status add(const Row& op, bool python);
    // Hands every operator added since the last finish() to `write`, nested (parentId: the innermost
    // operator that holds it; ids in the order they were added), in that order, in spans of
    // core::detail's chunk size (4,096; the last one shorter), and returns how many of them cross an
    // operator open on their thread: start inside it and end after it. Those keep their own times
    // and go under the innermost operator that holds them. `write`'s first error stops it.
    core::Result<std::int64_t> finish(const std::function<core::Status(std::span<const Row>)>& write);
    // How many operators were added since the last finish().
    std::size_t size() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// finish() of an OperatorNesting and the packing of its rows into the session's chunks
// (SessionWriter::packOperators) on a thread of its own, started here, while the caller writes
// the trace's other records; drain() then stores the chunks on the caller's thread, which owns the
// writer. A few chunks wait at most, so memory stays bounded. For few operators no thread is
// started: drain() does it all. `nesting` must not be used until drain() has returned.
class OperatorPacker {
public:
    explicit OperatorPacker(OperatorNesting& nesting);
    ~OperatorPacker(); // stops the thread first when drain() was not called or stopped early
    OperatorPacker(const OperatorPacker&) = delete;
    OperatorPacker& operator=(const OperatorPacker&) = delete;
    // Hands each chunk to `store` in order, then returns finish()'s result; the first error
    // (finish()'s or `store`'s) stops it. Call it once.
    core::Result<std::int64_t> drain(
        const std::function<core::Status(const core::SessionWriter::OperatorChunk&)>& store);

private:
    struct Shared;
    std::unique_ptr<Shared> m_shared;
};

// Helpers (kinetoevents.cpp).
// A JSON number token in µs ("1712195495519689.047", "68.0", "1e3") as ns, rounded half away from
// zero; nullopt when it is not a number or does not fit.
std::optional<std::int64_t> microsToNs(std::string_view token);
// "Memcpy HtoD (Pinned -> Device)" -> kind HtoD, "pinned", "device".
void parseMemcpyName(std::string_view name, core::MemOp& op);
// "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(...)" -> collective, algorithm, protocol.
void parseNcclKernelName(std::string_view name, CommInfo& info);
// Bytes per element of a PyTorch dtype name ("Float", "BFloat16", "c10::Half", "float32"); 0 unknown.
int dtypeSize(std::string_view dtype);
bool equalsIgnoreCase(std::string_view a, std::string_view b);
// The content of a JSON string token (with its quotes), unescaped.
std::string unescapeJsonString(std::string_view token);

} // namespace ridgeline::collectors::kineto
