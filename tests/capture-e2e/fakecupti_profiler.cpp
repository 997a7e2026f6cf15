// SPDX-License-Identifier: MIT
// The stand-in libcupti.so.13's Profiler target and Range Profiler API (what the stand-in is:
// fakecupti.cpp): counter data images in its own layout, a range per profiled kernel (counter
// values from fakework.h), and the cues that drop or add ranges.
#include "fakecupti.h"
#include "fakework.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace fakecuda;
using namespace fakecuda::libcupti;

// ---------------------------------------------------------------------------------------------
// Range profiler: counter data images in the stand-in's own layout.

namespace {

std::size_t imageSize(std::size_t metrics, std::size_t ranges)
{
    return sizeof(ImageHeader) + metrics * kMetricNameBytes + ranges * (kRangeNameBytes + 8 * metrics);
}

} // namespace

namespace fakecuda::libcupti {

ImageHeader* header(const std::uint8_t* image, std::size_t size)
{
    if (image == nullptr || size < sizeof(ImageHeader))
        return nullptr;
    auto* h = reinterpret_cast<ImageHeader*>(const_cast<std::uint8_t*>(image));
    if (std::memcmp(h->magic, kImageMagic, 8) != 0 || imageSize(h->numMetrics, h->maxRanges) > size)
        return nullptr;
    return h;
}

const char* imageMetric(const std::uint8_t* image, std::size_t i)
{
    return reinterpret_cast<const char*>(image + sizeof(ImageHeader) + i * kMetricNameBytes);
}

std::uint8_t* rangeAt(std::uint8_t* image, const ImageHeader& h, std::size_t r)
{
    return image + sizeof(ImageHeader) + h.numMetrics * kMetricNameBytes + r * (kRangeNameBytes + 8 * h.numMetrics);
}

std::vector<std::string> configMetrics(const std::uint8_t* config, std::size_t size)
{
    std::vector<std::string> names;
    const std::size_t magic = sizeof kConfigMagic - 1;
    if (config == nullptr || size < magic || std::memcmp(config, kConfigMagic, magic) != 0)
        return names;
    std::string text(reinterpret_cast<const char*>(config) + magic, size - magic);
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        if (end > start)
            names.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return names;
}

struct RangeObject {
    CUcontext context = nullptr;
    std::vector<std::string> sizedMetrics; // of the last GetCounterDataSize
    std::uint8_t* image = nullptr;
    std::size_t imageBytes = 0;
    std::vector<std::string> config;
    bool started = false;
    std::size_t droppedRanges = 0;
    bool foreignNext = false;
    bool dropNext = false;
    // One range for a whole graph launch (RIDGELINE_FAKE_GRAPH_RANGES=graph).
    std::vector<double> graphSums;
};

Profiler& profiler()
{
    static Profiler* p = new Profiler();
    return *p;
}

} // namespace fakecuda::libcupti

namespace {

// Caller holds the profiler mutex.
void addRange(RangeObject& o, const char* name, const std::vector<double>& values, std::uint32_t correlation)
{
    ImageHeader* h = header(o.image, o.imageBytes);
    if (h == nullptr)
        return;
    if (h->numRanges >= h->maxRanges) {
        ++o.droppedRanges;
        ledger("rangedrop\t%u\t%u\tfull", pid(), correlation);
        return;
    }
    std::uint8_t* range = rangeAt(o.image, *h, h->numRanges);
    std::snprintf(reinterpret_cast<char*>(range), kRangeNameBytes, "%s", name);
    std::memcpy(range + kRangeNameBytes, values.data(), 8 * h->numMetrics);
    std::string text;
    for (std::uint32_t i = 0; i < h->numMetrics; ++i) {
        char one[64];
        std::snprintf(one, sizeof one, "%.17g", values[i]);
        text += (i == 0 ? "" : ";") + std::string(imageMetric(o.image, i)) + "=" + one;
    }
    ledger("range\t%u\t%u\t%u\t%s\t%s", pid(), correlation, h->numRanges, name, text.c_str());
    ++h->numRanges;
}

std::vector<double> valuesFor(const RangeObject& o, const char* name, std::uint64_t durationNs)
{
    std::vector<double> values;
    const ImageHeader* h = header(o.image, o.imageBytes);
    if (h == nullptr)
        return values;
    for (std::uint32_t i = 0; i < h->numMetrics; ++i)
        values.push_back(counterValue(imageMetric(o.image, i), name, durationNs));
    return values;
}

} // namespace

namespace fakecuda::libcupti {

// A kernel ran on a context: a range when its range profiler is started.
void profileKernel(const Work& w)
{
    Profiler& p = profiler();
    std::unique_lock lock(p.mutex);
    auto it = p.objects.find(w.context);
    if (it == p.objects.end() || !it->second->started)
        return;
    RangeObject& o = *it->second;
    const std::uint64_t duration = w.end - w.start;
    if (o.dropNext) {
        o.dropNext = false;
        ++o.droppedRanges;
        ledger("rangedrop\t%u\t%u\tcue", pid(), w.correlationId);
    } else if (w.graphId != 0 && cues().graphRanges != "node") {
        if (cues().graphRanges == "graph") {
            const auto values = valuesFor(o, w.name, duration);
            if (w.graphNodeIndex == 0)
                o.graphSums.assign(values.size(), 0.0);
            const ImageHeader* h = header(o.image, o.imageBytes);
            for (std::size_t i = 0; i < values.size() && i < o.graphSums.size(); ++i) {
                const std::string metric = imageMetric(o.image, i);
                // Peaks and clocks are the chip's, not sums.
                const bool constant = metric.ends_with(".peak_sustained") || metric.ends_with(".per_second");
                o.graphSums[i] = constant ? values[i] : o.graphSums[i] + values[i];
            }
            if (h != nullptr && w.graphNodeIndex + 1 == w.graphNodeCount) {
                char name[64];
                std::snprintf(name, sizeof name, "graph %u", w.graphId);
                addRange(o, name, o.graphSums, w.correlationId);
            }
        }
    } else {
        if (o.foreignNext) {
            o.foreignNext = false;
            addRange(o, "_Z7foreignv", valuesFor(o, "_Z7foreignv", 3000), w.correlationId);
        }
        addRange(o, w.name, valuesFor(o, w.name, duration), w.correlationId);
    }
    lock.unlock();
    if (cues().replayUs > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(cues().replayUs));
}

} // namespace fakecuda::libcupti

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map): profiler target and range profiler

extern "C" {

// --- Profiler target ---

CUptiResult CUPTIAPI cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params* params)
{
    FAKE_CUED("cuptiProfilerInitialize");
    return params != nullptr ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiProfilerDeviceSupported(CUpti_Profiler_DeviceSupported_Params* params)
{
    FAKE_CUED("cuptiProfilerDeviceSupported");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->isSupported = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->architecture = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->sli = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->vGpu = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->confidentialCompute = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->cmp = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->wsl = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params* params)
{
    FAKE_CUED("cuptiDeviceGetChipName");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->pChipName = cues().chip.c_str();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params* params)
{
    FAKE_CUED("cuptiProfilerGetCounterAvailability");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (params->pCounterAvailabilityImage == nullptr) {
        params->counterAvailabilityImageSize = 64;
        return CUPTI_SUCCESS;
    }
    std::memset(
        params->pCounterAvailabilityImage, 0xff, std::min<std::size_t>(params->counterAvailabilityImageSize, 64));
    return CUPTI_SUCCESS;
}

// --- Range profiler ---

CUptiResult CUPTIAPI cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerEnable");
    if (params == nullptr || params->ctx == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Profiler& p = profiler();
    std::lock_guard lock(p.mutex);
    auto*& o = p.objects[params->ctx];
    if (o != nullptr)
        return CUPTI_ERROR_INVALID_OPERATION;
    o = new RangeObject();
    o->context = params->ctx;
    params->pRangeProfilerObject = reinterpret_cast<CUpti_RangeProfiler_Object*>(o);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params* params)
{
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Profiler& p = profiler();
    std::lock_guard lock(p.mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    p.objects.erase(o->context);
    delete o;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerGetCounterDataSize");
    if (params == nullptr || params->pRangeProfilerObject == nullptr || params->pMetricNames == nullptr
        || params->numMetrics == 0 || params->maxNumOfRanges == 0)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    o->sizedMetrics.clear();
    for (std::size_t i = 0; i < params->numMetrics; ++i) {
        if (params->pMetricNames[i] == nullptr || std::strlen(params->pMetricNames[i]) >= kMetricNameBytes)
            return CUPTI_ERROR_INVALID_PARAMETER;
        o->sizedMetrics.emplace_back(params->pMetricNames[i]);
    }
    params->counterDataSize = imageSize(params->numMetrics, params->maxNumOfRanges);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataImageInitialize(
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerCounterDataImageInitialize");
    if (params == nullptr || params->pRangeProfilerObject == nullptr || params->pCounterData == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    if (ImageHeader* h = header(params->pCounterData, params->counterDataSize)) {
        h->numRanges = 0; // initialised before: same metrics, no ranges
        return CUPTI_SUCCESS;
    }
    const std::size_t metrics = o->sizedMetrics.size();
    if (metrics == 0)
        return CUPTI_ERROR_INVALID_OPERATION;
    const std::size_t perRange = kRangeNameBytes + 8 * metrics;
    const std::size_t fixed = sizeof(ImageHeader) + metrics * kMetricNameBytes;
    if (params->counterDataSize < fixed + perRange)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::memset(params->pCounterData, 0, params->counterDataSize);
    ImageHeader h {};
    std::memcpy(h.magic, kImageMagic, 8);
    h.numMetrics = static_cast<std::uint32_t>(metrics);
    h.maxRanges = static_cast<std::uint32_t>((params->counterDataSize - fixed) / perRange);
    std::memcpy(params->pCounterData, &h, sizeof h);
    for (std::size_t i = 0; i < metrics; ++i)
        std::snprintf(reinterpret_cast<char*>(params->pCounterData + sizeof h + i * kMetricNameBytes), kMetricNameBytes,
            "%s", o->sizedMetrics[i].c_str());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerSetConfig");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    auto metrics = configMetrics(params->pConfig, params->configSize);
    if (h == nullptr || metrics.empty() || params->range != CUPTI_AutoRange || params->replayMode != CUPTI_KernelReplay)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (const auto& m : metrics) {
        bool found = false;
        for (std::uint32_t i = 0; i < h->numMetrics && !found; ++i)
            found = m == imageMetric(params->pCounterDataImage, i);
        if (!found)
            return CUPTI_ERROR_INVALID_PARAMETER; // the image was not made for this configuration
    }
    o->config = std::move(metrics);
    o->image = params->pCounterDataImage;
    o->imageBytes = params->counterDataImageSize;
    ledger("setconfig\t%u\t%zu", pid(), o->config.size());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerStart");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Profiler& p = profiler();
    std::lock_guard lock(p.mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    if (o->image == nullptr || o->started)
        return CUPTI_ERROR_INVALID_OPERATION;
    o->started = true;
    const std::uint64_t k = ++p.starts;
    o->foreignNext = cues().foreignAt.count(k) != 0;
    o->dropNext = cues().droppedAt.count(k) != 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerStop");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    if (!o->started)
        return CUPTI_ERROR_INVALID_OPERATION;
    o->started = false;
    params->passIndex = 0;
    params->targetNestingLevel = 1;
    params->isAllPassSubmitted = 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerDecodeData");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    params->numOfRangeDropped = o->droppedRanges;
    o->droppedRanges = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params* params)
{
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    if (h == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->numTotalRanges = h->numRanges;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataGetRangeInfo(
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params* params)
{
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    if (h == nullptr || params->rangeIndex >= h->numRanges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->rangeName = reinterpret_cast<const char*>(
        rangeAt(const_cast<std::uint8_t*>(params->pCounterDataImage), *h, params->rangeIndex));
    return CUPTI_SUCCESS;
}

} // extern "C"
