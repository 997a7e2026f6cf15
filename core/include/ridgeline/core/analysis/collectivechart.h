// SPDX-License-Identifier: MIT
// The collectives beside the roofline, as plain data: one point per row of the collective report
// (type, process group, message size) at (S in bytes, busbw in B/s), under a flat roof per link
// ceiling, the way nccl-tests plots bus bandwidth against message size. A collective does no
// arithmetic, so it has no place on the FLOP/s-over-intensity roofline; its roof is the link
// (communication.md §1: busbw "should reflect the speed of the hardware bottleneck").
#pragma once

#include "ridgeline/core/analysis/collectives.h"

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ridgeline::core {

struct CollectiveChartPoint {
    std::size_t row = 0; // index into the report's rows
    std::string collective;
    double bytes = 0; // S
    double busBytesPerS = 0;
    double timeShare = 0; // of the time in collectives that have a point, 0..1
    std::string link; // the roof it is measured against; empty when none
    std::optional<double> pctOfLink;
    VerdictClass verdict = VerdictClass::Unknown;
    std::string label; // "allreduce 26.5 MB: busbw 10.1 GB/s = 3 % of NVLink 300 GB/s"
};

struct CollectiveChartRoof {
    std::string link; // NVLink, PCIe, network
    double bytesPerS = 0;
    bool inferred = false;
    std::string label; // "NVLink 300 GB/s (inferred)"
};

// Decade-aligned log10 ranges: x in bytes, y in B/s.
struct CollectiveChartAxes {
    double xMinLog = 3, xMaxLog = 9, yMinLog = 8, yMaxLog = 12;
    double xMin() const { return std::pow(10.0, xMinLog); }
    double xMax() const { return std::pow(10.0, xMaxLog); }
    double yMin() const { return std::pow(10.0, yMinLog); }
    double yMax() const { return std::pow(10.0, yMaxLog); }
};

struct CollectiveChart {
    std::vector<CollectiveChartPoint> points; // largest time share first
    std::vector<CollectiveChartRoof> roofs; // highest first, one per link and value
    std::size_t withoutSizes = 0; // report rows without a bus bandwidth (sizes missing)
    CollectiveChartAxes axes;
    bool empty() const { return points.empty(); }
};

CollectiveChart buildCollectiveChart(std::span<const CollectiveRow> rows);

} // namespace ridgeline::core
