// SPDX-License-Identifier: MIT
// The roofline chart as plain data (docs/ROOFLINE.md): ceiling lines per memory level and compute
// precision with their source, ridge points, kernel points and log-log axis ranges. The HTML
// report's SVG and the desktop app's roofline view both draw this one view-model.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/model/model.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ridgeline::core {

enum class RooflinePointMode {
    Combined, // one point per kernel and memory level: all FLOPs against the ceiling of its mix
    PerPrecision, // one point per kernel, memory level and precision (Nsight Compute's way)
};

struct RooflineChartOptions {
    std::vector<std::int64_t> deviceIds; // devices whose ceilings and kernels are drawn; empty: all
    std::vector<std::string> levels { "DRAM", "L2", "L1" }; // memory levels that get kernel points
    RooflinePointMode mode = RooflinePointMode::Combined;
};

// One ceiling: a slope (memory level, B/s) or a flat roof (compute precision, FLOP/s).
struct RooflineCeilingLine {
    std::string resource; // DRAM, L2, L1, FP64, FP32, FP16, FP16_tensor, ...
    bool memory = false;
    double value = 0; // B/s or FLOP/s
    CeilingSource source = CeilingSource::Datasheet;
    std::string note;
    std::vector<std::int64_t> deviceIds; // the devices that have this very ceiling
    std::string label; // "DRAM 3.35 TB/s (datasheet)"
    // The segment to draw, in (FLOP/byte, FLOP/s), inside the axes: a slope runs up to the highest
    // compute roof of its devices, a roof from the highest slope of its devices to the right edge.
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Where a roof meets a slope: intensity = compute peak / bandwidth.
struct RooflineRidge {
    std::string memory; // DRAM, L2, L1
    std::string compute; // FP32, ...
    double intensity = 0; // FLOP/byte
    double flopsPerS = 0; // the compute peak
};

struct RooflinePoint {
    std::size_t kernel = 0; // index into the kernel summaries the chart was built from
    std::int64_t nameId = 0;
    std::int64_t deviceId = 0;
    std::string level; // DRAM, L2, L1
    std::string precision; // empty for the combined point; FP32, FP16_tensor, ... per precision
    double intensity = 0; // FLOP per byte at `level`
    double flopsPerS = 0; // achieved
    double timeShare = 0; // of all kernel time in the session, 0..1
    std::optional<double> computeCeiling; // the mix ceiling (combined) or the precision's, FLOP/s
    std::optional<double> bandwidthCeiling; // of `level`, B/s (the kernel's own ceilings)
    std::optional<double> attainable; // min(compute ceiling, bandwidth × intensity)
    std::optional<double> fractionOfRoof; // flopsPerS / attainable
};

// A kernel in scope that has no point, and why.
struct RooflineUnplotted {
    std::size_t kernel = 0;
    std::string reason;
};

// Decade-aligned log10 ranges: x in FLOP/byte, y in FLOP/s.
struct RooflineAxes {
    double xMinLog = -2, xMaxLog = 3, yMinLog = 9, yMaxLog = 15;
    double xMin() const { return std::pow(10.0, xMinLog); }
    double xMax() const { return std::pow(10.0, xMaxLog); }
    double yMin() const { return std::pow(10.0, yMinLog); }
    double yMax() const { return std::pow(10.0, yMaxLog); }
};

struct RooflineChart {
    std::vector<RooflineCeilingLine> memory; // highest bandwidth first
    std::vector<RooflineCeilingLine> compute; // highest peak first
    std::vector<RooflineRidge> ridges;
    std::vector<RooflinePoint> points; // largest time share first, so small points can go on top
    std::vector<RooflineUnplotted> unplotted;
    RooflineAxes axes;
    bool empty() const { return memory.empty() && compute.empty() && points.empty(); }
};

// The chart of the kernels (and ceilings) on the chosen devices. Ceilings are the session's best
// per resource (integer tensor ops have no FLOP/s roof); identical ceilings of several devices
// become one line. Points use the kernels' own analysis (KernelSummary::analysis).
RooflineChart buildRooflineChart(std::span<const Ceiling> ceilings, std::span<const KernelSummary> kernels,
    const RooflineChartOptions& options = {});

// The radius of a kernel's marker in pixels, by its share of time (area grows with the share).
double rooflinePointRadius(double timeShare);

// A kernel's move between two sessions: from a baseline point to the current one.
struct RooflineArrow {
    std::size_t baselinePoint = 0; // index into the baseline chart's points
    std::size_t currentPoint = 0; // index into the current chart's points
};

// Pairs points of the same kernel (demangled name and device name), memory level and precision.
// Kernels that appear several times under one key (same name on identical GPUs) pair in order.
std::vector<RooflineArrow> matchRooflineBaseline(const RooflineChart& baseline,
    std::span<const KernelSummary> baselineKernels, const RooflineChart& current,
    std::span<const KernelSummary> currentKernels);

} // namespace ridgeline::core
