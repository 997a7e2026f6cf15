// SPDX-License-Identifier: MIT
// The stand-in libcupti.so.13's Profiler Host API (what the stand-in is: fakecupti.cpp): metric
// configurations in its own text layout, their passes, and metric values evaluated from the
// counter data images of fakecupti_profiler.cpp.
#include "fakecupti.h"

#include <cmath>
#include <cstring>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <mutex>
#include <string>
#include <vector>

using namespace fakecuda;
using namespace fakecuda::libcupti;

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map): profiler host

// The host object, and the configuration image's text (outside the C block: C++ types and linkage).
struct CUpti_Profiler_Host_Object {
    std::string chip;
    std::vector<std::string> metrics;
};

namespace {
std::string configText(const CUpti_Profiler_Host_Object& host)
{
    std::string text(kConfigMagic);
    for (const auto& m : host.metrics)
        text += m + "\n";
    return text;
}
} // namespace

extern "C" {

// --- Profiler host ---

CUptiResult CUPTIAPI cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params* params)
{
    FAKE_CUED("cuptiProfilerHostInitialize");
    if (params == nullptr || params->pChipName == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->pHostObject = new CUpti_Profiler_Host_Object { params->pChipName, {} };
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostDeinitialize(CUpti_Profiler_Host_Deinitialize_Params* params)
{
    if (params == nullptr || params->pHostObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    delete params->pHostObject;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* params)
{
    FAKE_CUED("cuptiProfilerHostConfigAddMetrics");
    if (params == nullptr || params->pHostObject == nullptr || params->ppMetricNames == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (std::size_t i = 0; i < params->numMetrics; ++i) {
        if (params->ppMetricNames[i] == nullptr || std::strlen(params->ppMetricNames[i]) >= kMetricNameBytes)
            return CUPTI_ERROR_INVALID_PARAMETER;
        params->pHostObject->metrics.emplace_back(params->ppMetricNames[i]);
    }
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params* params)
{
    if (params == nullptr || params->pHostObject == nullptr || params->pHostObject->metrics.empty())
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->configImageSize = configText(*params->pHostObject).size();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params* params)
{
    if (params == nullptr || params->pHostObject == nullptr || params->pConfigImage == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto text = configText(*params->pHostObject);
    if (params->configImageSize < text.size())
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::memcpy(params->pConfigImage, text.data(), text.size());
    return CUPTI_SUCCESS;
}

// Passes: the stand-in's own rule (one, plus one per tensor counter: CUPTI's cost is similar).
CUptiResult CUPTIAPI cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params* params)
{
    FAKE_CUED("cuptiProfilerHostGetNumOfPasses");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto metrics = configMetrics(params->pConfigImage, params->configImageSize);
    if (metrics.empty())
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::size_t passes = 1;
    for (const auto& m : metrics) {
        if (m.starts_with("sm__ops_path_tensor_src_") && m.ends_with(".sum"))
            ++passes;
    }
    params->numOfPasses = passes;
    ledger("passes\t%u\t%zu\t%zu", pid(), passes, metrics.size());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params* params)
{
    FAKE_CUED("cuptiProfilerHostEvaluateToGpuValues");
    if (params == nullptr || params->pHostObject == nullptr || params->pMetricValues == nullptr
        || params->ppMetricNames == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    if (h == nullptr || params->rangeIndex >= h->numRanges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const std::uint8_t* range
        = rangeAt(const_cast<std::uint8_t*>(params->pCounterDataImage), *h, params->rangeIndex) + kRangeNameBytes;
    for (std::size_t i = 0; i < params->numMetrics; ++i) {
        const std::string name = params->ppMetricNames[i];
        bool found = false;
        for (std::uint32_t m = 0; m < h->numMetrics && !found; ++m) {
            if (name == imageMetric(params->pCounterDataImage, m)) {
                std::memcpy(&params->pMetricValues[i], range + 8 * m, 8);
                found = true;
            }
        }
        if (!found)
            return CUPTI_ERROR_INVALID_METRIC_NAME;
        if (name == cues().nanMetric)
            params->pMetricValues[i] = std::nan("");
    }
    return CUPTI_SUCCESS;
}

} // extern "C"
