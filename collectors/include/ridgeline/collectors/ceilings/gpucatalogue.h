// SPDX-License-Identifier: MIT
// Datasheet peaks of NVIDIA GPUs, each figure with its source. The last resort for ceilings:
// measured ceilings and counter-derived ones (peak_sustained x clock) are preferred.
//
// Conventions for every entry (collectors/ceilings/gpucatalogue.cpp):
// - Tensor-core peaks are DENSE. Datasheets often print 2:4-sparse figures (marked *); those are halved.
// - Link bandwidths (NVLink, PCIe) are per direction, aggregated over all links: half the
//   "bidirectional" totals datasheets print (NVLink 900 GB/s -> 450 GB/s), as core::Device stores them.
// - Resources a GPU does not have (FP8 on Ampere, NVLink on L4) are absent from `peaks`.
// - Figures a datasheet does not print are derived (SMs x per-SM rate x boost clock) and say so in
//   the entry's comment and `source`, as do figures that could not be checked ("unverified").
#pragma once

#include "ridgeline/core/model/model.h"
#include "ridgeline/core/model/resource.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

struct GpuSpec {
    std::string name; // "NVIDIA H100 SXM5 80GB"
    // CUDA device names that select it, lower case, words separated by single spaces, without the
    // vendor words "nvidia", "tesla" and "geforce": "NVIDIA A100-SXM4-80GB" is "a100 sxm4 80gb".
    // A device name matches when its words are exactly these (so "A10" never selects an A100).
    std::vector<std::string> matches;
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    double boostClockHz = 0; // 0: NVIDIA publishes none (H20, GB200); nothing is derived from it
    // Dense peaks by resource: FLOP/s (ops/s for INT8) or bytes/s.
    core::ResourceMap<double> peaks;
    std::string source; // where the figures come from (URL or document and table)
};

const std::vector<GpuSpec>& gpuCatalogue();

// Finds the entry for a CUDA device name (as cudaGetDeviceProperties or a trace reports it).
// Compute capability and SM count, when known (non-zero), must agree, and pick between
// variants of one name (e.g. "NVIDIA H100" with 132 or 114 SMs: SXM5 or PCIe). nullptr: unknown
// GPU, or a name that still fits several entries (a generic "A100": 40 or 80 GB?).
const GpuSpec* findGpu(std::string_view deviceName, int ccMajor = 0, int ccMinor = 0, int smCount = 0);

// Every entry the name (and CC / SM count when non-zero) fits, in catalogue order. findGpu() is
// this when it holds exactly one entry.
std::vector<const GpuSpec*> matchingGpus(
    std::string_view deviceName, int ccMajor = 0, int ccMinor = 0, int smCount = 0);

// A GPU named loosely, as a user types it or a file spells it ("A100-PCIE-40GB",
// "NVIDIA A100-PG509-200"), with the CC and SM count its file reports (0: not known):
// - the exact entry when there is one (findGpu), with no note;
// - else, for a name, the entries whose model word (the first word with a digit: "a100") is the
//   name's, whose variant words ("ti", "laptop", "nvl", "mig", ...) are the name's, and whose CC and
//   SM count fit, narrowed by the name's other words; the first in catalogue order when several
//   remain. The note says what it was treated as: "\"NVIDIA A100-PG509-200\" treated as NVIDIA A100
//   SXM4 40GB: CC 8.0, 108 SMs (the first of 4 catalogue entries it fits)". A named GPU is never
//   matched by CC and SM count alone (an RTX 3080 Ti has the A10G's);
// - else, for no name (a file that does not name its GPU), the one entry with that CC and SM count,
//   when exactly one has both: "no GPU name in the file; CC 8.6 with 80 SMs matched \"NVIDIA A10G\",
//   the only catalogue entry with both".
// spec is null when nothing fits.
struct GpuResolution {
    const GpuSpec* spec = nullptr;
    std::string note;
};
GpuResolution resolveGpu(std::string_view deviceName, int ccMajor = 0, int ccMinor = 0, int smCount = 0);

// The entries with this compute capability and SM count (both needed: empty when either is 0), in
// catalogue order.
std::vector<const GpuSpec*> gpusWithComputeCapability(int ccMajor, int ccMinor, int smCount);

// A device name as the catalogue compares it: "NVIDIA A100-SXM4-80GB" -> "a100 sxm4 80gb".
std::string normalizedGpuName(std::string_view deviceName);

// The unit of a resource's ceiling: "FLOP/s", "op/s" (INT8) or "B/s".
const char* ceilingUnit(std::string_view resource);

// The spec's peaks as session ceilings (source datasheet) for one device of the session, in the
// order of core::resource::Compute, Memory, Links.
std::vector<core::Ceiling> datasheetCeilings(const GpuSpec& spec, std::int64_t deviceId);

} // namespace ridgeline::collectors
