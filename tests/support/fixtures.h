// SPDX-License-Identifier: MIT
// Synthetic sessions for tests and benchmarks. Every file written here says so in its meta
// (source "fixture"): none of it is measured data.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <string>

namespace ridgeline::core {
class SessionWriter;
}

namespace ridgeline::testing {

// The small session whose report figures are worked out by hand in tests/data/README.md:
// two devices, four kernel names, every table populated.
core::Status writeSmallFixture(const std::string& path);

struct SyntheticSpec {
    std::int64_t kernels = 1000;
    int devices = 1;
    int streamsPerDevice = 4;
    int kernelNames = 50;
    std::int64_t batchSize = 10000; // kernels per transaction
};

// Realistic-looking rows (launch config, ids, back-to-back times per stream) for benchmarks
// and large-volume tests. Kernel i runs on device i % devices, stream (i / devices) % streams.
core::Status writeSyntheticKernels(core::SessionWriter& writer, const SyntheticSpec& spec);
core::Status writeSyntheticSession(const std::string& path, const SyntheticSpec& spec);

} // namespace ridgeline::testing
