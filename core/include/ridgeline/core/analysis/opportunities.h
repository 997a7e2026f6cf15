// SPDX-License-Identifier: MIT
// Opportunities (issue 34): the GPU time each operator shape, kernel or copy would give back if it
// ran at its roof, ranked. For each row
//   time at roof = max(FLOPs / the compute roof of its precision mix, bytes / the memory roof that
//                      bounds it, and where measured: ncu's busiest-unit throughput x its time,
//                      a collective's bus bytes / its link's roof)
//   recoverable  = GPU time - time at roof,
// against the roofs the roofline draws for it (counter ceilings where measured, else the datasheet).
// Rows are PyTorch operators by shape where a model gives their FLOPs and bytes (operatorshapes.h),
// kernels (name and device) otherwise, and copies and memsets by kind and device; GPU time with no
// figures (no counters, no model, no ceiling) is listed apart with the reason. docs/ROOFLINE.md,
// "Opportunities", has the rules and the advice.
#pragma once

#include "ridgeline/core/analysis/ncuestimates.h"
#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::core {

class SessionReader;

enum class OpportunityKind : std::uint8_t { Operator, Kernel, Copy };
// "op", "kernel", "copy" (the report's `kind`)
const char* toString(OpportunityKind kind);

// Launches of one kernel (name and device) a row stands for: what the desktop selects for it.
using OpportunityKernel = OwnedKernelRef;

// The time each roof alone allows the row's work (ns; 0 where the row has no such figure).
struct RoofTimes {
    double computeNs = 0; // FLOPs over the compute roof of the precision mix
    double memoryNs = 0; // bytes over the roof of the memory level that bounds it
    double throughputNs = 0; // Nsight Compute's SM or memory throughput (the busier) x GPU time
    double linkNs = 0; // bus or copy bytes over the link's roof (NVLink, PCIe, network)
};

struct Opportunity {
    OpportunityKind kind = OpportunityKind::Kernel;
    std::string name; // operator ("aten::addmm"), kernel (short name), or copy kind ("memcpy HtoD")
    std::string fullName; // the demangled kernel name; the operator or copy name otherwise
    std::string inputDims; // operator rows: the trace's Input Dims (compact JSON)
    std::string inputTypes;
    std::int64_t deviceId = 0;
    std::string deviceName;
    std::int64_t calls = 0; // operator calls, kernel launches, copies
    std::int64_t gpuTimeNs = 0;
    std::int64_t timeAtRoofNs = 0; // rounded to the ns; never more than gpuTimeNs
    std::int64_t recoverableNs = 0; // gpuTimeNs - timeAtRoofNs
    RoofTimes roofTimes; // timeAtRoofNs is the largest of them (capped at gpuTimeNs)
    std::string limitedBy; // the roof that gives the time at roof: "compute", "memory", "throughput", "link"
    VerdictClass verdict = VerdictClass::Unknown;
    std::string boundBy;
    double flops = 0; // totals over its calls
    double bytes = 0; // at memoryLevel (copies: the bytes copied)
    std::string memoryLevel; // DRAM, L2, L1; copies: PCIe, NVLink or DRAM
    std::optional<double> computeRoof; // FLOP/s of its precision mix
    std::optional<double> memoryRoof; // B/s of memoryLevel
    // Of its GPU time, the launches its figures come from; below 1 the rest is assumed to run as
    // efficiently (a kernel counted on some launches only).
    double figuresShare = 1;
    std::int64_t pageableCopies = 0; // copies to or from pageable host memory
    bool overRoof = false; // its figures exceed a roof: the ceiling or the counters are wrong
    std::vector<std::string> advice; // most useful first; never empty
    std::vector<OpportunityKernel> kernels; // by time
    KernelAnalysis analysis; // the row's verdict and reason (operator rows: per call)
    // Kernel rows of sessions from Nsight Compute reports: its own rule results ("ncu estimates",
    // ncuestimates.h), shown beside ours and never mixed into them.
    std::vector<NcuEstimate> ncuEstimates;
};

// GPU time no roof could be put on: listed apart, with its time and why.
struct UnrankedTime {
    OpportunityKind kind = OpportunityKind::Kernel;
    std::string name;
    std::string fullName;
    std::int64_t deviceId = 0;
    std::int64_t calls = 0;
    std::int64_t gpuTimeNs = 0;
    std::string reason; // "no counters, and launched by no operator with a model (aten::cat: no model ...)"
    std::vector<OpportunityKernel> kernels;
};

// Per device, the sums of its rows (a row's time split over its kernels' devices).
struct DeviceOpportunity {
    std::int64_t gpuTimeNs = 0;
    std::int64_t rankedTimeNs = 0;
    double timeAtRoofNs = 0;
    double recoverableNs = 0;
};

struct Opportunities {
    std::int64_t gpuTimeNs = 0; // kernels (collectives included), copies and memsets: the sum of their times
    std::int64_t rankedTimeNs = 0; // of it, the rows'
    std::int64_t unrankedTimeNs = 0; // of it, the time listed apart (with no roof)
    std::int64_t timeAtRoofNs = 0; // the rows' sums
    std::int64_t recoverableNs = 0;
    std::vector<Opportunity> rows; // by recoverable time, largest first
    std::vector<UnrankedTime> unranked; // by GPU time, largest first
    std::map<std::int64_t, DeviceOpportunity> byDevice;
    double coverage() const
    {
        return gpuTimeNs > 0 ? static_cast<double>(rankedTimeNs) / static_cast<double>(gpuTimeNs) : 0.0;
    }
};

// The time at roof of `gpuTimeNs` of work whose figures are those of `analysis` (its
// utilisations, flops and bytes over analysis.figuresNs), into `row`: roofTimes, timeAtRoofNs,
// recoverableNs, limitedBy, flops, bytes, memoryLevel, the roofs, figuresShare and overRoof.
// `copies`: the work is exactly this many times the analysis's FLOPs and bytes (an operator
// shape's calls), each over its ceiling; without it the utilisations are extrapolated over
// gpuTimeNs (launches without counters run as efficiently as those with). False when no roof
// applies (no figure has a ceiling).
bool putOnRoof(const KernelAnalysis& analysis, std::int64_t gpuTimeNs, Opportunity& row,
    std::optional<double> copies = std::nullopt);

Result<Opportunities> findOpportunities(SessionReader& reader);
// findOpportunities, worked out once per open reader and kept with it (SessionReader::derived).
Result<std::shared_ptr<const Opportunities>> sessionOpportunities(SessionReader& reader);

} // namespace ridgeline::core
