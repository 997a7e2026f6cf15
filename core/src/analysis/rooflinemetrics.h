// SPDX-License-Identifier: MIT
// Reading counters into FLOPs per precision, bytes per level and ceilings (roofline.cpp's input).
#pragma once

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/model/resource.h"

#include <map>
#include <optional>
#include <string>

namespace ridgeline::core::detail {

using MetricMap = std::map<std::string, double, std::less<>>;

std::optional<double> metricValue(const MetricMap& metrics, std::string_view name);

// CUDA-core and tensor-core work by resource name; INT8 tensor ops are included (they load the
// tensor pipe) but are not FLOPs. The Volta/Ampere tensor pipe count is taken as FP16 HMMA.
ResourceMap<double> opsByPrecision(const MetricMap& metrics);
// True when opsByPrecision's FP16 tensor figure is tensor pipe instructions x 512 (a chip without
// per-type tensor counters): an estimate, which the verdict says.
bool tensorFromPipeEstimate(const MetricMap& metrics);
// DRAM, L2, L1 bytes, and NVLink, PCIe bytes in the busier direction (link ceilings are per
// direction), where counted.
ResourceMap<double> bytesByLevel(const MetricMap& metrics);
// The ceiling per resource that selectCeilings picks: counters (this launch's peak_sustained x
// clock, then the session's), then measured, then datasheet figures scaled to this launch's clock.
ResourceMap<CeilingUsed> chooseCeilings(const KernelFacts& facts);

bool isTensor(std::string_view resource);
constexpr bool isTensor(Resource resource)
{
    return isTensorPipe(resource);
}
// A tensor source type ("fp16_dst_fp32", ...) -> its resource, or none.
std::optional<Resource> tensorResourceOf(std::string_view sourceType);
// The launch's seconds from its counters: gpu__time_duration.sum, else cycles / clock.
std::optional<double> countedSecondsOf(const MetricMap& metrics);
bool isFloatingPoint(std::string_view resource);
// The intensity at a memory level named by its text (the chart's levels, Speed-of-Light's units);
// none where the analysis has none, or the name is no resource.
std::optional<double> intensityAt(const KernelAnalysis& a, std::string_view level);
constexpr bool isFloatingPoint(Resource resource) // INT8 tensor ops are no FLOPs
{
    return resource != Resource::INT8Tensor;
}

} // namespace ridgeline::core::detail
