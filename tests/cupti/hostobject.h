// SPDX-License-Identifier: MIT
// The CUPTI Profiler Host API as the tests use it, written apart from the collector's own
// CounterConfig so that the pass counts it gives are an independent check.
#pragma once

#include <cstdint>
#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <string>
#include <vector>

// One range-profiler host object for a chip, without a counter availability image (that needs a
// GPU). A failed cuptiProfilerHostConfigAddMetrics leaves the object unusable (later calls answer
// CUPTI_ERROR_UNKNOWN), so every check gets a fresh one.
class HostObject {
public:
    explicit HostObject(const std::string& chip)
    {
        CUpti_Profiler_Host_Initialize_Params params {};
        params.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
        params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        params.pChipName = chip.c_str();
        params.pCounterAvailabilityImage = nullptr;
        m_initResult = cuptiProfilerHostInitialize(&params);
        if (m_initResult == CUPTI_SUCCESS)
            m_object = params.pHostObject;
    }
    ~HostObject()
    {
        if (!m_object)
            return;
        CUpti_Profiler_Host_Deinitialize_Params params {};
        params.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
        params.pHostObject = m_object;
        cuptiProfilerHostDeinitialize(&params);
    }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    CUptiResult initResult() const { return m_initResult; }

    CUptiResult addMetrics(const std::vector<std::string>& names)
    {
        std::vector<const char*> pointers;
        pointers.reserve(names.size());
        for (const auto& name : names)
            pointers.push_back(name.c_str());
        CUpti_Profiler_Host_ConfigAddMetrics_Params params {};
        params.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
        params.pHostObject = m_object;
        params.ppMetricNames = pointers.data();
        params.numMetrics = pointers.size();
        return cuptiProfilerHostConfigAddMetrics(&params);
    }

    // Builds the config image of the metrics added so far and asks how many passes it needs.
    CUptiResult passes(size_t& numPasses)
    {
        CUpti_Profiler_Host_GetConfigImageSize_Params sizeParams {};
        sizeParams.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
        sizeParams.pHostObject = m_object;
        if (const CUptiResult result = cuptiProfilerHostGetConfigImageSize(&sizeParams); result != CUPTI_SUCCESS)
            return result;
        std::vector<uint8_t> image(sizeParams.configImageSize);
        CUpti_Profiler_Host_GetConfigImage_Params imageParams {};
        imageParams.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
        imageParams.pHostObject = m_object;
        imageParams.configImageSize = image.size();
        imageParams.pConfigImage = image.data();
        if (const CUptiResult result = cuptiProfilerHostGetConfigImage(&imageParams); result != CUPTI_SUCCESS)
            return result;
        CUpti_Profiler_Host_GetNumOfPasses_Params passParams {};
        passParams.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
        passParams.configImageSize = image.size();
        passParams.pConfigImage = image.data();
        const CUptiResult result = cuptiProfilerHostGetNumOfPasses(&passParams);
        numPasses = passParams.numOfPasses;
        return result;
    }

private:
    CUptiResult m_initResult = CUPTI_ERROR_UNKNOWN;
    CUpti_Profiler_Host_Object* m_object = nullptr;
};
