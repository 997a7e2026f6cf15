// SPDX-License-Identifier: MIT
// Synthetic sessions for tests and benchmarks. Every file written here says so in its meta
// (source "fixture"): none of it is measured data.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

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

// A kernel record with the fields most tests set; the rest keep their defaults.
core::Kernel kernelRecord(std::int64_t processId, std::int64_t deviceId, std::int64_t streamId, std::int64_t nameId,
    std::int64_t startNs, std::int64_t endNs, std::int64_t correlationId = 0);
// Two GPUs (device ids and ordinals 0 and 1, named `deviceName`, with " 0" and " 1" appended when
// `numbered`) and two ranks (process ids 1 and 2, pids 100 and 101, world size 2).
core::Status writeTwoRanks(core::SessionWriter& writer, const std::string& deviceName, bool numbered);

} // namespace ridgeline::testing
