// SPDX-License-Identifier: MIT
// What the details pane shows of one kernel beyond its summary: its launch configurations, the
// raw counters of one launch, and how launches relate to the host calls that made them (launch
// delays; a launch's launching call), read on demand from the session (off the GUI thread).
#pragma once

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sessionreader.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline::core {

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    int dynamicSharedBytes = 0;
    std::int64_t launches = 0; // launches with exactly this configuration
    bool operator==(const LaunchConfig&) const = default;
};

struct KernelDetails {
    std::int64_t launches = 0; // of this kernel on this device (1 for a launch)
    std::vector<LaunchConfig> configs; // distinct configurations, most launches first
    // The launch whose counters are listed: the selected launch, or else the longest launch that has
    // counters (the one whose ceilings the kernel's roofline uses); empty when none has any.
    std::optional<Kernel> countersLaunch;
    std::vector<MetricValue> metrics; // its raw counters, by name
    // A selected launch analysed on its own (its counters, its device's ceilings, its collective).
    std::optional<KernelAnalysis> launchAnalysis;
    // A selected launch: the API call that launched it, when the session has it.
    std::optional<ApiCall> launchingCall;
    // The kernel (not a launch): how long its launches waited after their launching calls.
    LaunchDelays launchDelays;
};

// `launchId` >= 0: that launch only (NotFound when it is not a launch of this kernel).
Result<KernelDetails> loadKernelDetails(
    SessionReader& reader, std::int64_t nameId, std::int64_t deviceId, std::int64_t launchId = -1);

} // namespace ridgeline::core
