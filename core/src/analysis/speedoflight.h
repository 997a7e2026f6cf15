// SPDX-License-Identifier: MIT
// Nsight Compute's Speed of Light (SpeedOfLight section, SOLBottleneck rule): where a report
// holds its throughputs, they decide a kernel's class exactly as ncu does (ARCHITECTURE §4,
// docs/ROOFLINE.md): they see every unit (load/store, shared memory, integer, special functions)
// that FP-only utilisation misses.
#pragma once

#include "ridgeline/core/analysis/roofline.h"
#include "rooflinemetrics.h"

#include <map>
#include <string>

namespace ridgeline::core::detail {

// "SM", "Memory", "DRAM", "L2", "L1" -> fraction of peak, for the throughputs the counters hold.
std::map<std::string, double> readSpeedOfLight(const MetricMap& metrics);

// Both SOL inputs (SM and Memory) are there.
bool hasSolInputs(const std::map<std::string, double>& sol);

// The class by ncu's rule, with the sentence: compute-bound when SM >= 60 % and SM >= memory;
// memory-bound when memory >= 60 % (the busiest of DRAM, L2, L1 named); latency-bound when both
// are under 60 %. The roofline position is given beside it where the ceilings are known. A
// compute-bound kernel names its busiest floating-point pipe, unless that pipe is under half the
// SM throughput: then "compute-bound (SM, not floating point: ...)", bound by "SM".
void classifyBySpeedOfLight(KernelAnalysis& a, const std::string& hint);

// "L2: 9.8 TB/s, no ceiling known" for each resource that did work but has no ceiling.
std::string withoutCeilings(const KernelAnalysis& a);

} // namespace ridgeline::core::detail
