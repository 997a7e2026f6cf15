// SPDX-License-Identifier: MIT
// CUPTI's failures as sentences a user can act on (capture.error / capture.warning and one
// stderr line). Pure: the codes come from cupti_result.h, nothing is called.
#pragma once

#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <string>

namespace ridgeline::inject {

// What the library was doing when CUPTI failed; it changes what is lost.
enum class CuptiStage {
    Tracing, // the Activity API (kernels, copies, API calls)
    Counters, // the range profiler (per-kernel hardware counters)
};

// The sentence for `result`, or an empty string for CUPTI_SUCCESS. `call` names the CUPTI
// function, quoted only where no specific advice exists.
std::string cuptiErrorSentence(CUptiResult result, CuptiStage stage, const std::string& call);

// Why cuptiProfilerDeviceSupported said no, as one sentence (empty when it is supported).
std::string deviceSupportSentence(const CUpti_Profiler_DeviceSupported_Params& support, const std::string& deviceName);

// The sentence for a chip that has no metric set (collectors/metrics/metricsets.h).
std::string unsupportedChipSentence(const std::string& chip, const std::string& reason);

} // namespace ridgeline::inject
