// SPDX-License-Identifier: MIT
#include "counterconfig.h"

#include "cuptierrors.h"
#include "ridgeline/collectors/metrics/metricsets.h"

#include <algorithm>
#include <cupti_profiler_host.h>
#include <utility>

namespace ridgeline::inject {

namespace {

core::Error cuptiFailure(CUptiResult result, const char* call)
{
    return core::makeError(core::ErrorCode::Internal, cuptiErrorSentence(result, CuptiStage::Counters, call));
}

} // namespace

core::Result<std::vector<std::vector<std::string>>> counterGroups(const InjectionConfig& config, const std::string& chip)
{
    if (config.metricsMode == MetricsMode::None)
        return std::vector<std::vector<std::string>> {};
    if (config.metricsMode == MetricsMode::List) {
        collectors::MetricSet own;
        own.chip = chip;
        own.metrics = config.metricList;
        return collectors::configGroups(own);
    }
    for (const auto& unsupported : collectors::unsupportedChips()) {
        if (unsupported.chip == chip)
            return core::makeError(
                core::ErrorCode::InvalidArgument, unsupportedChipSentence(unsupported.chip, unsupported.reason));
    }
    auto set = collectors::metricSet(chip, config.metricSet);
    if (!set) {
        const auto chips = collectors::chipNames();
        const bool knownChip = std::find(chips.begin(), chips.end(), chip) != chips.end();
        if (!knownChip)
            return core::makeError(core::ErrorCode::InvalidArgument,
                unsupportedChipSentence(chip,
                    "a chip newer than this Ridgeline, or not an NVIDIA data-centre or "
                    "desktop GPU of Volta or later"));
        return core::makeError(core::ErrorCode::InvalidArgument,
            "unknown metric set \"" + config.metricSet
                + "\" (roofline, full, none, or a comma-separated list of "
                  "metric names); no hardware counters were recorded (the trace is kept).");
    }
    return collectors::configGroups(*set);
}

core::Result<CounterConfig> CounterConfig::create(
    const std::string& chip, const std::vector<std::string>& metrics, std::span<const std::uint8_t> availability)
{
    CounterConfig config;
    config.m_metrics = metrics;
    for (const auto& name : config.m_metrics)
        config.m_names.push_back(name.c_str());

    CUpti_Profiler_Host_Initialize_Params init {};
    init.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = chip.c_str();
    init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    if (const CUptiResult r = cuptiProfilerHostInitialize(&init); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerHostInitialize");
    config.m_host = HostObject(init.pHostObject);

    CUpti_Profiler_Host_ConfigAddMetrics_Params add {};
    add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    add.pHostObject = config.m_host.get();
    add.ppMetricNames = config.m_names.data();
    add.numMetrics = config.m_names.size();
    if (const CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) {
        if (r == CUPTI_ERROR_INVALID_PARAMETER || r == CUPTI_ERROR_INVALID_METRIC_NAME)
            return core::makeError(core::ErrorCode::InvalidArgument,
                "the " + chip
                    + " chip does not have every metric asked for (CUPTI rejects the list; check the names "
                      "with `ridgeline devices` or docs/METRIC-SETS.md); no hardware counters were recorded (the trace "
                      "is kept).");
        return cuptiFailure(r, "cuptiProfilerHostConfigAddMetrics");
    }

    CUpti_Profiler_Host_GetConfigImageSize_Params size {};
    size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    size.pHostObject = config.m_host.get();
    if (const CUptiResult r = cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerHostGetConfigImageSize");
    config.m_image.resize(size.configImageSize);

    CUpti_Profiler_Host_GetConfigImage_Params image {};
    image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    image.pHostObject = config.m_host.get();
    image.configImageSize = config.m_image.size();
    image.pConfigImage = config.m_image.data();
    if (const CUptiResult r = cuptiProfilerHostGetConfigImage(&image); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerHostGetConfigImage");

    CUpti_Profiler_Host_GetNumOfPasses_Params passes {};
    passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    passes.configImageSize = config.m_image.size();
    passes.pConfigImage = config.m_image.data();
    if (const CUptiResult r = cuptiProfilerHostGetNumOfPasses(&passes); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerHostGetNumOfPasses");
    config.m_passes = passes.numOfPasses;
    return config;
}

CounterConfig::CounterConfig(CounterConfig&& other) noexcept
    : m_metrics(std::move(other.m_metrics))
    , m_image(std::move(other.m_image))
    , m_passes(other.m_passes)
    , m_host(std::move(other.m_host))
{
    for (const auto& name : m_metrics)
        m_names.push_back(name.c_str());
}

CounterConfig& CounterConfig::operator=(CounterConfig&& other) noexcept
{
    if (this != &other) {
        CounterConfig moved(std::move(other));
        std::swap(m_host, moved.m_host);
        std::swap(m_metrics, moved.m_metrics);
        std::swap(m_names, moved.m_names);
        std::swap(m_image, moved.m_image);
        std::swap(m_passes, moved.m_passes);
    }
    return *this;
}

CounterConfig::~CounterConfig() = default;

void CounterConfig::HostRelease::operator()(CUpti_Profiler_Host_Object* host) const
{
    CUpti_Profiler_Host_Deinitialize_Params params {};
    params.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    params.pHostObject = host;
    cuptiProfilerHostDeinitialize(&params);
}

core::Result<std::vector<double>> CounterConfig::evaluate(
    std::span<const std::uint8_t> counterData, std::size_t rangeIndex) const
{
    std::vector<double> values(m_names.size());
    CUpti_Profiler_Host_EvaluateToGpuValues_Params params {};
    params.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    params.pHostObject = m_host.get();
    params.pCounterDataImage = counterData.data();
    params.counterDataImageSize = counterData.size();
    params.rangeIndex = rangeIndex;
    params.ppMetricNames = const_cast<const char**>(m_names.data());
    params.numMetrics = m_names.size();
    params.pMetricValues = values.data();
    if (const CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&params); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerHostEvaluateToGpuValues");
    return values;
}

} // namespace ridgeline::inject
