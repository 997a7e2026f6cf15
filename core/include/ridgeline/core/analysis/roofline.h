// SPDX-License-Identifier: MIT
// The hierarchical roofline and the verdict of each kernel (ARCHITECTURE §4). Pure functions:
// facts in, analysis out; importers, capture, the report and the desktop app all call these.
#pragma once

#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/analysis/shapemodel.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/model/resource.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

class SessionReader;

// A resource counts as bounding from this utilisation on (Nsight Compute's SOL rule).
inline constexpr double kBoundThreshold = 0.60;

// Where a launch's FLOPs and bytes come from: its counters, or the shapes of the PyTorch operator
// that launched it (operatorshapes.h). Counters win where both exist.
enum class FigureSource : std::uint8_t { None, Counters, Shapes };
constexpr const char* toString(FigureSource s)
{
    return s == FigureSource::Counters ? "counters" : s == FigureSource::Shapes ? "shapes" : "";
}

// An operator call whose work is known from its shapes; shared by the launches it owns.
struct ShapeCall {
    std::string operatorName; // "aten::addmm"
    OperatorWork work; // of the call: FLOPs, bytes, pipe, family, precision, formula
};

// A launch's share of the work of the operator that launched it, worked out from the operator's
// shapes (shapemodel.h): its FLOPs and DRAM bytes in proportion to its share of the operator's time.
struct ShapeFigures {
    double flops = 0; // on call->work.pipe
    double bytes = 0; // DRAM
    double share = 1; // of the operator call's GPU time, this launch's
    std::shared_ptr<const ShapeCall> call;
};

// The ceiling a figure was compared against.
struct CeilingUsed {
    double value = 0; // FLOP/s or B/s, at the clock the kernel ran at when known
    CeilingSource source = CeilingSource::Datasheet;
};

// Everything known of one launch.
struct KernelFacts {
    std::int64_t kernelId = 0;
    std::int64_t durationNs = 0; // end - start from the trace; gpu__time_duration.sum wins when present
    Dim3 grid;
    Dim3 block;
    const Device* device = nullptr; // null when the session does not know the device
    std::map<std::string, double, std::less<>> metrics; // Nsight Compute names, base units
    std::vector<Ceiling> ceilings; // of its device, any source; the best one per resource is used
    std::string collective; // non-empty when the kernel carries a collective (comm_ops)
    std::string name; // the kernel's name, when known: NCCL kernels are recognised by it
    std::optional<CollectiveFigures> comm; // its sizes, link and waits, when known (collectives.h)
    // Kernel::graphRangeKernels: > 0 when the launch ran in a CUDA graph launch profiled as one
    // range over that many kernels (its metrics, if any, are the whole graph launch's).
    std::int64_t graphRangeKernels = 0;
    std::optional<ShapeFigures> shapes; // its operator's work from shapes, when modelled (used without counters)
    // When set, the ceilings its device's launches without counters use (deviceRoofs), in place of
    // choosing them from `ceilings` again for each launch; a launch with metrics chooses its own.
    const ResourceMap<CeilingUsed>* roofs = nullptr;
};

struct KernelAnalysis {
    std::int64_t kernelId = 0;
    VerdictClass verdict = VerdictClass::Unknown;
    std::string boundBy; // FP64, FP32, FP16, tensor, DRAM, L2, L1, NVLink, PCIe, collective, or empty
    std::string reason; // one sentence with the numbers
    double durationNs = 0;
    // Of durationNs, the time of the launches its figures come from (of an aggregate: the launches
    // with counters, or else with figures from shapes); rates and utilisations are over this time.
    double figuresNs = 0;
    bool hasCounters = false;
    FigureSource figures = FigureSource::None; // of flopsByPrecision and bytesByLevel
    std::optional<ShapeFigures> shapes; // what the figures came from when FigureSource::Shapes
    bool hasFigures() const { return hasCounters || figures != FigureSource::None; }

    ResourceMap<double> flopsByPrecision; // compute resource (FP32, FP16_tensor, ...) -> FLOPs
    ResourceMap<double> bytesByLevel; // DRAM, L2, L1 -> bytes; NVLink, PCIe -> the busier direction's
    std::optional<double> flops; // all of them, CUDA cores and tensor cores
    std::optional<double> achievedFlopsPerS;
    ResourceMap<double> intensity; // FLOP/byte per memory level (DRAM, L2, L1)
    // Fraction of the ceiling per resource: FP64, FP32, FP16, tensor (all tensor types together),
    // DRAM, L2, L1, NVLink, PCIe, network. Only resources with both a figure and a ceiling appear.
    ResourceMap<double> utilization;
    std::optional<double> boundUtilization; // utilization[boundBy]
    // The combined point: all FLOPs against the peak of this kernel's precision mix (the rate at
    // which its mix of instructions would run if every unit ran at its peak).
    std::optional<double> mixCeilingFlopsPerS;
    // Resource -> its ceiling. A ceiling of a resource Ridgeline does not know is not used.
    ResourceMap<CeilingUsed> ceilingsUsed;
    // Nsight Compute's Speed-of-Light throughputs, fraction of peak: "SM", "Memory" (the SOL
    // rule's two inputs) and the memory units "DRAM", "L2", "L1". Where present they decide the
    // class, as ncu's SOLBottleneck rule does (docs/ROOFLINE.md).
    std::map<std::string, double> speedOfLight;
    // The library of a communication kernel by its name (commnames.h: NCCL, symmetric memory, ...)
    // with no collective recorded for it; empty for any other kernel.
    std::string commByName;

    // Context the verdict was drawn from (kept so launches can be aggregated and re-classified).
    std::string collective;
    std::optional<CollectiveFigures> comm; // bus bandwidth figures of a collective (collectives.h)
    std::string deviceName;
    std::string latencyHint;
    // What the counters are, said in the reason: graph-level (KernelFacts::graphRangeKernels) and
    // tensor FLOPs estimated from pipe instructions x 512 (chips without per-type tensor counters).
    std::int64_t graphRangeKernels = 0;
    bool tensorEstimated = false;
};

KernelAnalysis analyzeKernel(const KernelFacts& facts);
// The ceilings analyzeKernel uses for every launch without counters on `device` (null: unknown)
// with these ceilings: worked out once per device by an importer that judges thousands of launches
// (KernelFacts::roofs), where copying and choosing them per launch was most of the verdicts' time.
ResourceMap<CeilingUsed> deviceRoofs(const Device* device, const std::vector<Ceiling>& ceilings);

// Whether analyzeKernel (or ceilingsFromCounters) reads a metric of this name: the names of
// metricnames.h, by name or prefix. KernelFacts may hold only these; an Nsight Compute launch's
// other 290-odd values change nothing, and leaving them out keeps a report of 10,000 launches fast.
bool feedsAnalysis(std::string_view metricName);
// The reason of launches of a kernel (by name) of which `graphLevel` of `launches` ran in CUDA graph
// launches profiled as one range: says so, and a row with no counters of its own is "unknown".
void noteGraphLevelCounters(KernelAnalysis& a, std::int64_t graphLevel, std::int64_t launches);

// Ceilings a launch's own counters give (peak per cycle x the clock it ran at: FP32, FP64, FP16,
// DRAM), with source `counters`, for recording in a session.
std::vector<Ceiling> ceilingsFromCounters(
    const std::map<std::string, double, std::less<>>& metrics, std::int64_t deviceId);

// Copies and memsets have no counters: they are classified by kind (peer and host copies are
// communication over NVLink or PCIe; device copies and memsets are DRAM traffic).
KernelAnalysis analyzeMemOp(const MemOp& op);

// Several launches of one kernel (name and device) as one: durations, FLOPs and bytes add up;
// rates and utilisations are time-weighted over the launches that have counters (or, when none
// has, over those with figures from their operators' shapes); the verdict is drawn from the
// aggregate by the same rules as for one launch.
class LaunchAccumulator {
public:
    void add(const KernelAnalysis& launch);
    KernelAnalysis result() const;
    std::int64_t launches() const { return m_launches; }

private:
    // A Speed-of-Light throughput over launches: weighted by time over those with a duration, and
    // plain over those without (the mean of those is used only when no launch has a duration).
    struct SolSum {
        double weighted = 0; // sum(sol * d)
        double time = 0; // sum(d)
        double untimed = 0; // sum(sol) of launches with no duration
        std::int64_t untimedLaunches = 0;
    };
    // The sums over the launches whose figures have one source.
    struct FigureSums {
        std::int64_t launches = 0;
        double durationNs = 0;
        double peakSeconds = 0; // sum of FLOPs / ceiling per precision: time at peak for the mix
        bool mixComplete = true; // every precision had a ceiling
        ResourceMap<double> ops;
        ResourceMap<double> bytes;
        ResourceMap<std::pair<double, double>> utilization; // sum(u * d), sum(d)
        std::map<std::string, SolSum> speedOfLight;
        std::map<std::string, double> hintTime;
        ResourceMap<CeilingUsed> ceilings; // of the longest launch
        double longestNs = -1;
        std::optional<ShapeFigures> shapes; // of the longest launch (FigureSource::Shapes)
        void add(const KernelAnalysis& launch);
    };
    std::int64_t m_launches = 0;
    bool m_tensorEstimated = false;
    double m_durationNs = 0;
    FigureSums m_counters;
    FigureSums m_shapes;
    std::string m_commByName;
    std::string m_collective;
    std::optional<CollectiveFigures> m_comm;
    std::string m_deviceName;
    std::int64_t m_kernelId = 0;
};

KernelAnalysis aggregateLaunches(std::span<const KernelAnalysis> launches);

Verdict toVerdict(const KernelAnalysis& analysis);

// Loads facts (metrics, ceilings, devices, collectives) for every kernel of a session and
// analyses each one; `visit` receives (kernel, analysis) in start order.
Status analyzeSession(SessionReader& reader, const std::function<void(const Kernel&, const KernelAnalysis&)>& visit);

} // namespace ridgeline::core
