// SPDX-License-Identifier: MIT
// The counters Ridgeline collects, per GPU chip, named as each chip names them. Chips are CUPTI's
// chip names (cuptiProfilerHostGetSupportedChips, cuptiDeviceGetChipName). Plain data, no CUPTI:
// tests/cupti/test_metricsets_cupti.cpp checks every name with the CUPTI Profiler Host API, and
// docs/METRIC-SETS.md records what it found and how many passes each set needs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

// "roofline": what the roofline analysis reads (core/include/ridgeline/core/model/metricnames.h).
// "full": roofline plus Speed-of-Light throughputs, hierarchical L1/L2 roofs, every tensor source
// type, link utilisation. A superset of "roofline".
inline constexpr std::string_view RooflineSet = "roofline";
inline constexpr std::string_view FullSet = "full";

// A counter the roofline would read that a chip does not have (CUPTI rejects the name).
struct MissingMetric {
    std::string metric; // "dram__bytes.sum"
    std::string reason; // "integrated GPU: no DRAM counters"
};

struct MetricSet {
    std::string chip; // "GH100"
    std::string family; // "Hopper"
    std::string name; // RooflineSet or FullSet
    // Every metric of the set, full Nsight Compute names. The GPU's own counters come first, the
    // system units' counters (see isSystemUnitMetric) last.
    std::vector<std::string> metrics;
    // Counters of metricnames.h this chip lacks, so the analysis knows what it will not get.
    std::vector<MissingMetric> unavailable;
};

struct UnsupportedChip {
    std::string chip;
    std::string reason;
};

// Chips with metric sets, oldest family first.
std::vector<std::string> chipNames();
// RooflineSet, FullSet.
std::vector<std::string> setNames();
// std::nullopt for an unknown chip or set name.
std::optional<MetricSet> metricSet(std::string_view chip, std::string_view setName);
// Chips CUPTI lists as supported that have no metric set, and why.
const std::vector<UnsupportedChip>& unsupportedChips();

// Counters of the system units (NVLink nvlrx/nvltx, PCIe, C2C ctc, the integrated GPUs' memory
// controller mcc). The range profiler refuses a config image that mixes them with the GPU's own
// counters (cuptiProfilerHostConfigAddMetrics: CUPTI_ERROR_NOT_SUPPORTED), so they are collected
// with a config image of their own.
bool isSystemUnitMetric(std::string_view metric);
// The set split into what one config image can hold: the GPU's counters, then the system units'
// (either is left out when empty). Each group is one config image and its own kernel replays.
std::vector<std::vector<std::string>> configGroups(const MetricSet& set);

} // namespace ridgeline::collectors
