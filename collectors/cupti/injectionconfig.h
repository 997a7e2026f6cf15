// SPDX-License-Identifier: MIT
// What the launcher asks of the injection library, read from the environment it sets
// (docs/CAPTURE.md): part directory, metric set, launch filters, flush period. Pure: the
// environment is passed in as a lookup function, so every case is testable.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::inject {

enum class MetricsMode {
    Set, // a named set of collectors/metrics/metricsets.h ("roofline", "full")
    None, // trace only
    List, // the user's own metric names
};

struct InjectionConfig {
    std::string partDir; // RIDGELINE_PART_DIR; empty = no part file can be written
    std::string sessionId;
    MetricsMode metricsMode = MetricsMode::Set;
    std::string metricSet = "roofline";
    std::vector<std::string> metricList;
    std::string kernelRegex; // empty = every kernel
    std::uint64_t launchSkip = 0;
    std::optional<std::uint64_t> launchCount;
    std::string nvtxRange; // empty = everywhere
    std::uint32_t flushPeriodMs = 1000;
    // Problems in the environment (bad numbers, unknown set): reported, defaults used instead.
    std::vector<std::string> warnings;

    // "roofline", "full", "none" or the list joined by commas (meta capture.metrics).
    std::string metricsLabel() const;
};

using EnvLookup = std::function<const char*(const char* name)>;

// Reads RIDGELINE_PART_DIR, RIDGELINE_SESSION_ID, RIDGELINE_METRICS, RIDGELINE_KERNEL_REGEX,
// RIDGELINE_LAUNCH_SKIP, RIDGELINE_LAUNCH_COUNT, RIDGELINE_NVTX_RANGE, RIDGELINE_FLUSH_PERIOD_MS.
InjectionConfig readInjectionConfig(const EnvLookup& getenv);

} // namespace ridgeline::inject
