// SPDX-License-Identifier: MIT
// A GPU that a file does not name, identified from what the file says of it (compute capability,
// SM count, clocks, memory bus and size, as Nsight Compute's device__attribute_* metrics and the
// CUDA device properties give them) against the datasheet catalogue (gpucatalogue.h).
#pragma once

#include "ridgeline/collectors/ceilings/gpucatalogue.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::collectors {

// What a file says of a GPU; 0: not said.
struct GpuFacts {
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    std::int64_t clockKhz = 0; // the boost clock (device__attribute_clock_rate, cudaDeviceProp::clockRate)
    std::int64_t memoryClockKhz = 0; // device__attribute_memory_clock_rate
    std::int64_t memoryBusWidthBits = 0; // device__attribute_global_memory_bus_width
    std::int64_t memoryBytes = 0; // device__attribute_total_memory
};

// The catalogue entries the facts fit:
// - compute capability and SM count, whichever are given, must be the entry's (one of them at
//   least is needed: without either nothing is identified);
// - then each further fact narrows them, unless no entry fits it (a catalogue figure may be off;
//   such a fact is named in `unused`): the boost clock within 2 % of the entry's; the DRAM
//   bandwidth 2 x memory clock x bus width / 8 (the CUDA programming guide's peak-bandwidth
//   formula) within 5 % of the entry's datasheet DRAM figure; the memory size within 10 % of the
//   size the entry's name states ("80GB"; entries whose name states none are kept).
// `spec` is the entry whose ceilings to use: the only candidate, or the first of several whose
// datasheet ceilings and boost clock are all the same (A100 SXM4 40GB and PCIe 40GB); null when
// the candidates' ceilings differ or none fits. `note` says which, in one sentence.
struct GpuIdentification {
    std::vector<const GpuSpec*> candidates; // catalogue order
    const GpuSpec* spec = nullptr;
    bool sameCeilings = false; // several candidates, all with the same ceilings
    std::string facts; // "CC 8.0, 108 SMs, DRAM 1,555 GB/s (memory clock x bus width)"
    std::string unused; // facts no candidate fits: "a 1,755 MHz boost clock"
    std::string note;
};
GpuIdentification identifyUnnamedGpu(const GpuFacts& facts);

} // namespace ridgeline::collectors
