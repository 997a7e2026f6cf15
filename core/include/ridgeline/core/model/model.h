// SPDX-License-Identifier: MIT
// Plain records of a session, one struct per table of the .ridge file (ARCHITECTURE §3).
// Times are int64 nanoseconds on the capture's clock; ids are the session's own row ids.
#pragma once

#include "ridgeline/core/base/saturating.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::core {

struct Dim3 {
    std::uint32_t x = 1, y = 1, z = 1;
    bool operator==(const Dim3&) const = default;
};

struct Device {
    std::int64_t id = 0;
    std::string host;
    int ordinal = 0; // CUDA device index on its host
    std::string uuid;
    std::string name;
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    std::int64_t coreClockKhz = 0; // boost / max SM clock
    std::int64_t memoryClockKhz = 0;
    std::int64_t memoryBytes = 0;
    int memoryBusWidthBits = 0;
    std::int64_t l2CacheBytes = 0;
    int maxThreadsPerSm = 0;
    std::int64_t sharedMemoryPerSmBytes = 0;
    double nvlinkBandwidthBytesPerS = 0; // aggregate, one direction; 0 = none / unknown
    double pcieBandwidthBytesPerS = 0;
    bool operator==(const Device&) const = default;
};

// What is known of a device beyond its name, for people: "compute capability 8.0, 108 SMs,
// host node-3"; empty when the session describes it no further (traces often name nothing).
std::string describeDevice(const Device& device);

enum class CeilingSource { Measured, Counters, Datasheet };

struct Ceiling {
    std::int64_t deviceId = 0;
    std::string resource; // "FP32", "FP64", "tensor_fp16", "DRAM", "L2", "L1", "NVLink", "PCIe", ...
    double value = 0; // FLOP/s or bytes/s
    std::string unit; // "FLOP/s" or "B/s"
    CeilingSource source = CeilingSource::Datasheet;
    std::string note; // where the figure comes from (datasheet URL, benchmark name, clock)
    bool operator==(const Ceiling&) const = default;
};

struct Process {
    std::int64_t id = 0;
    std::int64_t pid = 0;
    std::string host;
    int rank = -1; // distributed rank; -1 when not part of a job
    int worldSize = 0;
    std::string command;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::optional<int> exitStatus;
    bool operator==(const Process&) const = default;
};

struct Thread {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t tid = 0;
    std::string name;
    bool operator==(const Thread&) const = default;
};

struct KernelName {
    std::int64_t id = 0;
    std::string raw; // mangled, as CUPTI reports it
    std::string demangled;
    bool operator==(const KernelName&) const = default;
};

struct Kernel {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t deviceId = 0;
    std::int64_t contextId = 0;
    std::int64_t streamId = 0;
    std::int64_t correlationId = 0;
    std::int64_t nameId = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    Dim3 grid;
    Dim3 block;
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    int dynamicSharedBytes = 0;
    std::int64_t graphId = 0; // 0 = not launched from a CUDA graph
    std::int64_t graphNodeId = 0; // CUPTI's graph node id; 0 = not a graph node (schema v4)
    // > 0: the kernel ran in a CUDA graph launch that was profiled as one counter range over this many
    // kernels (graph-level counters only); the range's values are stored on the launch's first
    // kernel. 0: its counters, if any, are its own (schema v4).
    std::int64_t graphRangeKernels = 0;
    std::int64_t durationNs() const { return saturatingSub(endNs, startNs); }
    bool operator==(const Kernel&) const = default;
};

struct MetricValue {
    std::int64_t kernelId = 0;
    std::string name; // Nsight Compute metric name, e.g. "dram__bytes.sum"
    double value = 0;
    std::string unit;
    bool operator==(const MetricValue&) const = default;
};

// A metric value by the session's id of its name (SessionWriter::internMetricName).
struct MetricById {
    std::int64_t metricId = 0;
    double value = 0;
    bool operator==(const MetricById&) const = default;
};

enum class MemOpKind { MemcpyHtoD, MemcpyDtoH, MemcpyDtoD, MemcpyHtoH, MemcpyPtoP, Memset, Other };

struct MemOp {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t deviceId = 0;
    std::int64_t streamId = 0;
    std::int64_t correlationId = 0;
    MemOpKind kind = MemOpKind::Other;
    std::int64_t bytes = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::optional<std::int64_t> srcDeviceId; // peer copies
    std::optional<std::int64_t> dstDeviceId;
    std::string srcMemory; // "pageable", "pinned", "device", "managed", ...
    std::string dstMemory;
    bool operator==(const MemOp&) const = default;
};

struct ApiCall {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t threadId = 0; // OS thread id
    std::string domain; // "runtime", "driver", "nccl", ...
    std::string name;
    std::int64_t correlationId = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t returnCode = 0;
    // The PyTorch profiler's "External id": the operator (Operator::externalId) the call ran
    // under; 0 when the trace has none.
    std::int64_t externalId = 0;
    bool operator==(const ApiCall&) const = default;
};

struct NvtxRange {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t threadId = 0;
    std::string domain;
    std::string name;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0; // == startNs for an instantaneous mark
    std::uint32_t color = 0; // ARGB, 0 = none
    std::int64_t category = 0;
    bool operator==(const NvtxRange&) const = default;
};

// A host-side operator of a PyTorch profiler trace: a `cpu_op` (aten::mm, an autograd node, ...)
// or a `python_function`, nested by time on its thread (parentId: the innermost operator around it).
struct Operator {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t threadId = 0; // OS thread id
    std::int64_t parentId = 0; // 0: top level
    std::string domain; // "cpu_op" | "python_function"
    std::string name;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t externalId = 0; // "External id" (0: none); runtime calls under it carry the same
    std::int64_t sequenceNumber = -1; // autograd "Sequence number"; -1: none
    std::string inputDims; // "Input Dims" as JSON text, e.g. "[[2048, 512], []]"; empty: none
    std::string inputTypes; // "Input type" as JSON text, e.g. "[\"float\", \"\"]"
    std::string module; // "Module Hierarchy" (with_modules=True)
    std::string callStack; // "Call stack" (with_stack=True)
    // "Concrete Inputs" as JSON text (scalar arguments: "[\"\", \"\", \"0.\", \"True\"]"); schema v6 on
    std::string concreteInputs;
    std::int64_t durationNs() const { return saturatingSub(endNs, startNs); }
    bool operator==(const Operator&) const = default;
};

struct CommOp {
    std::int64_t id = 0;
    std::optional<std::int64_t> kernelId; // the NCCL kernel that carried it, when known
    std::int64_t processId = 0;
    std::int64_t deviceId = 0;
    std::string collective; // "AllReduce", "AllGather", "Send", ...
    std::int64_t bytes = 0; // message size
    std::string dataType;
    int groupSize = 0; // ranks taking part
    int root = -1;
    std::string algorithm; // "Ring", "Tree", ... when known
    std::string protocol; // "LL", "LL128", "Simple" when known
    std::string processGroup;
    std::int64_t seq = -1; // instance number within the process group, the same on every rank; -1 unknown
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool operator==(const CommOp&) const = default;
};

// One message of an Nsight Compute rule about a launch ("ncu estimates"; schema v7, table
// ncu_rules): what ncu's own guided analysis said, kept as the file says it.
struct NcuRule {
    std::int64_t kernelId = 0;
    std::string identifier; // the rule's identifier ("TheoreticalOccupancy")
    std::string name; // its display name ("Theoretical Occupancy")
    std::string section; // the section it belongs to ("Occupancy")
    std::string type; // the message's type as ncu prints it: "OPT", "WRN", "ERR", "INF", "OK" (or the CSV's text)
    std::string message; // the message text
    std::optional<double> speedupPct; // ncu's estimated speedup in percent (ncu 2024 and later), when given
    std::string speedupType; // "local" or "global" (kNcuSpeedupLocal/Global); empty when unknown or none
    bool operator==(const NcuRule&) const = default;
};
inline constexpr const char* kNcuSpeedupLocal = "local"; // the gain within the performance problem itself
inline constexpr const char* kNcuSpeedupGlobal = "global"; // the proportional decrease of the kernel's run time
// What a session keeps of a rule's texts (longer text is cut: a hostile report cannot make every
// reader load megabytes), and the speedups it accepts (ncu's are percentages of 0 to 100).
inline constexpr std::size_t kNcuRuleMaxMessage = 4096; // bytes of `message`
inline constexpr std::size_t kNcuRuleMaxLabel = 256; // bytes of `identifier`, `name`, `section`, `type`
inline constexpr double kNcuMaxSpeedupPct = 100;

// What bounds a kernel (ARCHITECTURE §4), in the order legends and reports list them. The text of
// each (toString: "compute-bound", ...) is what a session stores in verdicts.verdict and what
// reports, exports and the app show; text that names none of them reads as Unknown. Unknown stays
// the last: the count of classes is taken from it.
enum class VerdictClass : std::uint8_t { ComputeBound, MemoryBound, CommunicationBound, LatencyBound, Unknown };
inline constexpr std::size_t kVerdictClassCount = static_cast<std::size_t>(VerdictClass::Unknown) + 1;

// The one table of the verdict classes: each with its text, in the enum's order. A class added to
// the enum but not here does not compile (the static_asserts below).
inline constexpr auto kVerdictClassNames = std::to_array<std::pair<VerdictClass, const char*>>({
    { VerdictClass::ComputeBound, "compute-bound" },
    { VerdictClass::MemoryBound, "memory-bound" },
    { VerdictClass::CommunicationBound, "communication-bound" },
    { VerdictClass::LatencyBound, "latency-bound" },
    { VerdictClass::Unknown, "unknown" },
});
static_assert(kVerdictClassNames.size() == kVerdictClassCount, "every VerdictClass has its row in kVerdictClassNames");
static_assert(
    [] {
        for (std::size_t i = 0; i < kVerdictClassNames.size(); ++i) {
            if (static_cast<std::size_t>(kVerdictClassNames[i].first) != i)
                return false;
        }
        return true;
    }(),
    "kVerdictClassNames lists the verdict classes in the enum's order");

// Every verdict class, in order (from the table).
inline constexpr auto kVerdictClasses = [] {
    std::array<VerdictClass, kVerdictClassCount> classes {};
    for (std::size_t i = 0; i < kVerdictClassCount; ++i)
        classes[i] = kVerdictClassNames[i].first;
    return classes;
}();

const char* toString(VerdictClass verdict);
VerdictClass verdictClassFromString(std::string_view text);
// "memory-bound (DRAM)": the verdict with its bounding resource, or alone when none is named.
std::string verdictText(VerdictClass verdict, std::string_view boundBy);
// A copy's or memset's verdict, by its kind alone (it has no counters): host and peer copies are
// communication (PCIe, NVLink), device copies and memsets DRAM traffic, host-to-host copies and
// other ones unknown. analyzeMemOp (analysis/roofline.h) adds the resource and the sentence.
VerdictClass memOpVerdict(MemOpKind kind);

// Derived from counters and ceilings; recomputable (ARCHITECTURE §4).
struct Verdict {
    std::int64_t kernelId = 0;
    VerdictClass verdict = VerdictClass::Unknown;
    std::string boundBy; // FP64, FP32, FP16, tensor, DRAM, L2, L1, NVLink, PCIe, collective, or empty
    std::optional<double> utilization; // of the bounding resource, 0..1
    std::string reason; // one sentence with the numbers
    bool operator==(const Verdict&) const = default;
};

const char* toString(CeilingSource source);
// Which source to trust first (docs/ROOFLINE.md, "Which ceiling"): counters (0: the launch's own
// peak_sustained x the clock it ran at, Nsight Compute's ceilings), then measured (1: what
// Ridgeline's microbenchmarks attained on that GPU), then datasheet (2).
int preferenceOf(CeilingSource source);
// The one ceiling-selection rule (docs/ROOFLINE.md), behind the verdicts (per launch), the report,
// the chart and the HTML export (per device) and the collective links: per device and resource,
// the ceiling of the most trusted source (preferenceOf); of one source, the first listed, so callers
// list the most specific first (a launch's own counter ceilings before those its device stores).
// Non-positive and non-finite values are never chosen. Sorted by device, then resource.
std::vector<Ceiling> selectCeilings(std::span<const Ceiling> ceilings);
std::optional<CeilingSource> ceilingSourceFromString(std::string_view text);
const char* toString(MemOpKind kind);
std::optional<MemOpKind> memOpKindFromString(std::string_view text);

} // namespace ridgeline::core
