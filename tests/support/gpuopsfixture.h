// SPDX-License-Identifier: MIT
// Synthetic sessions of many GPU ops (issue 38: 1 M to 100 M ops), for benchmarks. Every file written
// here says so in its meta (source "fixture"): none of it is measured data.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <string>

namespace ridgeline::testing {

// Kernels, copies and memsets over `ranks` processes (rank r is process r + 1, pid 1000 + r), each
// with `devicesPerRank` GPUs (device ids r * devicesPerRank + d) of `streamsPerDevice` streams.
// Op i runs on lane i % lanes (rank, device, stream), back to back on its stream with gaps of
// 0.5–2.5 µs; one op in `copyEvery` is a copy (host to device, device to host or device to
// device in turn), one in `memsetEvery` a memset, the rest kernels of `kernelNames` names.
// No API calls, counters or collectives: the session holds GPU ops only.
struct GpuOpsSpec {
    std::int64_t ops = 1'000'000;
    int ranks = 4;
    int devicesPerRank = 2;
    int streamsPerDevice = 4;
    int kernelNames = 200;
    int copyEvery = 10;
    int memsetEvery = 25;
    std::int64_t batchSize = 100'000; // ops per transaction
};

// How many of `spec.ops` are kernels, copies and memsets.
struct GpuOpsCounts {
    std::int64_t kernels = 0;
    std::int64_t copies = 0;
    std::int64_t memsets = 0;
};
GpuOpsCounts gpuOpsCounts(const GpuOpsSpec& spec);

core::Status writeSyntheticGpuOps(const std::string& path, const GpuOpsSpec& spec);

} // namespace ridgeline::testing
