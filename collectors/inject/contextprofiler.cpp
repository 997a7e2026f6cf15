// SPDX-License-Identifier: MIT
#include "contextprofiler.h"

#include "cuptierrors.h"

#include <algorithm>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

namespace ridgeline::inject {

namespace {

core::Error failure(CUptiResult result, const char* call)
{
    return core::makeError(core::ErrorCode::Internal, cuptiErrorSentence(result, CuptiStage::Counters, call));
}

#define RIDGELINE_CUPTI(call, params)                                                                                  \
    do {                                                                                                               \
        if (const CUptiResult cuptiResult_ = call(&(params)); cuptiResult_ != CUPTI_SUCCESS)                           \
            return failure(cuptiResult_, #call);                                                                       \
    } while (false)

} // namespace

core::Result<std::string> ContextProfiler::chipOf(std::uint32_t deviceId)
{
    CUpti_Profiler_Initialize_Params init {};
    init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    RIDGELINE_CUPTI(cuptiProfilerInitialize, init);

    CUpti_Profiler_DeviceSupported_Params support {};
    support.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    support.cuDevice = static_cast<CUdevice>(deviceId);
    support.api = CUPTI_PROFILER_RANGE_PROFILING;
    RIDGELINE_CUPTI(cuptiProfilerDeviceSupported, support);
    if (auto sentence = deviceSupportSentence(support, "GPU " + std::to_string(deviceId)); !sentence.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, sentence);

    CUpti_Device_GetChipName_Params chip {};
    chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    chip.deviceIndex = deviceId;
    RIDGELINE_CUPTI(cuptiDeviceGetChipName, chip);
    return std::string(chip.pChipName ? chip.pChipName : "");
}

core::Result<std::unique_ptr<ContextProfiler>> ContextProfiler::create(
    CUcontext context, const std::string& chip, const std::vector<std::vector<std::string>>& groups)
{
    std::unique_ptr<ContextProfiler> profiler(new ContextProfiler());
    profiler->m_chip = chip;

    CUpti_Profiler_GetCounterAvailability_Params availability {};
    availability.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    availability.ctx = context;
    RIDGELINE_CUPTI(cuptiProfilerGetCounterAvailability, availability);
    std::vector<std::uint8_t> availabilityImage(availability.counterAvailabilityImageSize);
    availability.pCounterAvailabilityImage = availabilityImage.data();
    RIDGELINE_CUPTI(cuptiProfilerGetCounterAvailability, availability);

    for (const auto& metrics : groups) {
        auto config = CounterConfig::create(profiler->m_chip, metrics, availabilityImage);
        if (config.hasError())
            return config.error();
        profiler->m_groups.push_back(Group { std::move(config).value(), {} });
    }

    CUpti_RangeProfiler_Enable_Params enable {};
    enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    enable.ctx = context;
    RIDGELINE_CUPTI(cuptiRangeProfilerEnable, enable);
    profiler->m_object = RangeProfiler(enable.pRangeProfilerObject);
    return profiler;
}

void ContextProfiler::RangeProfilerRelease::operator()(CUpti_RangeProfiler_Object* object) const
{
    CUpti_RangeProfiler_Disable_Params disable {};
    disable.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
    disable.pRangeProfilerObject = object;
    cuptiRangeProfilerDisable(&disable);
}

core::Status ContextProfiler::prepareCounterData(Group& group)
{
    if (group.counterData.empty()) {
        const auto& names = group.config.metricNames();
        CUpti_RangeProfiler_GetCounterDataSize_Params size {};
        size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
        size.pRangeProfilerObject = m_object.get();
        size.pMetricNames = const_cast<const char**>(names.data()); // CUPTI only reads them
        size.numMetrics = names.size();
        size.maxNumOfRanges = kRangesPerImage;
        size.maxNumRangeTreeNodes = kRangesPerImage;
        RIDGELINE_CUPTI(cuptiRangeProfilerGetCounterDataSize, size);
        group.counterData.resize(size.counterDataSize);
    }
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init {};
    init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    init.pRangeProfilerObject = m_object.get();
    init.counterDataSize = group.counterData.size();
    init.pCounterData = group.counterData.data();
    RIDGELINE_CUPTI(cuptiRangeProfilerCounterDataImageInitialize, init);
    group.ranges = 0;
    return {};
}

core::Status ContextProfiler::configure(std::size_t groupIndex, bool graph)
{
    m_configured = kNotConfigured;
    Group& group = m_groups.at(groupIndex);
    RIDGELINE_TRY(prepareCounterData(group));
    CUpti_RangeProfiler_SetConfig_Params config {};
    config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    config.pRangeProfilerObject = m_object.get();
    config.configSize = group.config.image().size();
    config.pConfig = group.config.image().data();
    config.counterDataImageSize = group.counterData.size();
    config.pCounterDataImage = group.counterData.data();
    config.range = CUPTI_AutoRange;
    config.replayMode = CUPTI_KernelReplay;
    // One kernel between Start and Stop; a graph launch may add a range per kernel node.
    config.maxRangesPerPass = graph ? kRangesPerImage : 1;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    RIDGELINE_CUPTI(cuptiRangeProfilerSetConfig, config);
    m_configured = groupIndex;
    m_configuredForGraph = graph;
    return {};
}

core::Status ContextProfiler::begin(std::size_t groupIndex)
{
    const Group& group = m_groups.at(groupIndex);
    if (m_configured != groupIndex || m_configuredForGraph || group.ranges >= kRangesPerImage)
        RIDGELINE_TRY(configure(groupIndex));
    return startRanges(groupIndex);
}

core::Status ContextProfiler::startRanges(std::size_t groupIndex)
{
    CUpti_RangeProfiler_Start_Params start {};
    start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    start.pRangeProfilerObject = m_object.get();
    if (const CUptiResult r = cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS) {
        m_configured = kNotConfigured;
        return failure(r, "cuptiRangeProfilerStart");
    }
    m_active = groupIndex;
    m_started = true;
    return {};
}

core::Result<ContextProfiler::Decoded> ContextProfiler::stopAndDecode(Group& group, const char* incomplete)
{
    CUpti_RangeProfiler_Stop_Params stop {};
    stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    stop.pRangeProfilerObject = m_object.get();
    RIDGELINE_CUPTI(cuptiRangeProfilerStop, stop);
    if (!stop.isAllPassSubmitted)
        return core::makeError(core::ErrorCode::Internal, incomplete);

    CUpti_RangeProfiler_DecodeData_Params decode {};
    decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    decode.pRangeProfilerObject = m_object.get();
    RIDGELINE_CUPTI(cuptiRangeProfilerDecodeData, decode);

    CUpti_RangeProfiler_GetCounterDataInfo_Params info {};
    info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    info.pCounterDataImage = group.counterData.data();
    info.counterDataImageSize = group.counterData.size();
    RIDGELINE_CUPTI(cuptiRangeProfilerGetCounterDataInfo, info);
    return Decoded { info.numTotalRanges, decode.numOfRangeDropped };
}

core::Result<std::string> ContextProfiler::rangeName(const Group& group, std::size_t index)
{
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params range {};
    range.structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE;
    range.pCounterDataImage = group.counterData.data();
    range.counterDataImageSize = group.counterData.size();
    range.rangeIndex = index;
    range.rangeDelimiter = "/";
    RIDGELINE_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo, range);
    return std::string(range.rangeName ? range.rangeName : "");
}

core::Result<ContextProfiler::LaunchCounters> ContextProfiler::end(std::string_view mangled, std::string_view demangled)
{
    if (!m_started)
        return core::makeError(core::ErrorCode::Internal, "ContextProfiler::end() without begin()");
    m_started = false;
    auto counters = collect(m_groups.at(m_active), mangled, demangled);
    if (counters.hasError())
        m_configured = kNotConfigured; // set up again from scratch at the next launch
    return counters;
}

core::Result<ContextProfiler::LaunchCounters> ContextProfiler::collect(
    Group& group, std::string_view mangled, std::string_view demangled)
{
    auto decoded = stopAndDecode(group,
        "CUPTI did not replay every counter pass of a kernel (kernel replay incomplete); that kernel has no "
        "counters.");
    if (decoded.hasError())
        return decoded.error();
    const auto [totalRanges, droppedRanges] = decoded.value();

    std::string name;
    if (totalRanges > group.ranges) {
        auto last = rangeName(group, totalRanges - 1);
        if (last.hasError())
            return last.error();
        name = std::move(last).value();
    }
    const auto judgement = judgeRange(group.ranges, totalRanges, droppedRanges, name, mangled, demangled);
    // A dropped range means the image is full: the next launch starts a fresh one.
    group.ranges = droppedRanges > 0 ? kRangesPerImage : totalRanges;
    LaunchCounters out;
    switch (judgement.outcome) {
    case RangeOutcome::NoKernel:
        return out; // the launch ran no kernel on this context
    case RangeOutcome::Dropped:
    case RangeOutcome::Foreign:
        out.lost = judgement.sentence;
        return out;
    case RangeOutcome::Counted:
        break;
    }
    auto values = group.config.evaluate(group.counterData, judgement.rangeIndex);
    if (values.hasError())
        return values.error();
    auto collected = collectedValues(group.config.metrics(), values.value());
    out.values = std::move(collected.values);
    out.missing = std::move(collected.missing);
    return out;
}

core::Status ContextProfiler::beginGraph()
{
    // A fresh image for every graph launch: its kernel nodes may fill many ranges.
    RIDGELINE_TRY(configure(0, true));
    return startRanges(0);
}

core::Result<ContextProfiler::GraphLaunchCounters> ContextProfiler::endGraph()
{
    if (!m_started)
        return core::makeError(core::ErrorCode::Internal, "ContextProfiler::endGraph() without beginGraph()");
    m_started = false;
    m_configured = kNotConfigured; // the next launch configures again (a fresh image)
    Group& group = m_groups.at(0);
    auto decoded = stopAndDecode(
        group, "CUPTI did not replay every counter pass of a CUDA graph launch; that launch has no counters.");
    if (decoded.hasError())
        return decoded.error();
    const auto [totalRanges, droppedRanges] = decoded.value();
    group.ranges = kRangesPerImage; // used up: a kernel launch starts a fresh image

    GraphLaunchCounters out;
    const auto judgement = judgeGraphRanges(totalRanges, droppedRanges);
    if (!judgement.keep) {
        out.lost = judgement.sentence;
        return out;
    }
    for (std::size_t index = 0; index < totalRanges; ++index) {
        auto path = rangeName(group, index);
        if (path.hasError())
            return path.error();
        auto values = group.config.evaluate(group.counterData, index);
        if (values.hasError())
            return values.error();
        auto collected = collectedValues(group.config.metrics(), values.value());
        for (auto& name : collected.missing) {
            if (std::find(out.missing.begin(), out.missing.end(), name) == out.missing.end())
                out.missing.push_back(std::move(name));
        }
        out.ranges.push_back(GraphRange { std::move(path).value(), std::move(collected.values) });
    }
    return out;
}

} // namespace ridgeline::inject
