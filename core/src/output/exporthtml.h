// SPDX-License-Identifier: MIT
// Parts of the HTML report (exporters.h): the SVG roofline, the collectives, the opportunities.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/output/collectivereport.h"

#include <ostream>
#include <string>
#include <vector>

namespace ridgeline::core::detail {

// A log-log roofline of one device as an inline <svg> element: a slope per memory level with a
// ceiling, a flat roof per compute resource, and the kernels of `rows` on that device that have
// counters at (FLOP per DRAM byte, FLOP/s), coloured by verdict and sized by their share of time.
// Always exactly one <svg> element, with a note inside when there is nothing to draw.
std::string rooflineSvg(const std::vector<Ceiling>& ceilings, const std::vector<KernelSummary>& rows,
    std::int64_t deviceId, const std::string& title);

// The same for a chart already built by htmlRooflineChart from `rows`.
std::string rooflineSvg(const RooflineChart& chart, const std::vector<KernelSummary>& rows, const std::string& title);

// The chart rooflineSvg draws: DRAM points (combined) and the ceilings of one device.
RooflineChart htmlRooflineChart(
    const std::vector<Ceiling>& ceilings, const std::vector<KernelSummary>& rows, std::int64_t deviceId);

// The collectives table (bus bandwidth against the link) and the ranks' waits, the slow rank first.
void writeHtmlCollectives(std::ostream& out, const CollectiveReport& report);

// The ranked opportunities shown (the most recoverable), and as many rows without a roof.
inline constexpr std::size_t kHtmlOpportunityRows = 20;

// The opportunities (`ridgeline report --opportunities`): the whole job's line, the first
// kHtmlOpportunityRows ranked rows with their advice, and the time without a roof with the reason.
void writeHtmlOpportunities(std::ostream& out, const Opportunities& opportunities);

} // namespace ridgeline::core::detail
