// SPDX-License-Identifier: MIT
// How a kernel's metric values are stored (schema v3): one `metric_values` row per kernel, because
// an Nsight Compute report holds about 330 values per launch and one SQLite row per value cost a
// 10,000-launch import seven seconds. `data` holds, in ascending metric id order, each value as the
// unsigned LEB128 varint of its metric id minus the previous one (the first minus 0; so every
// step is at least 1), then the value as an IEEE 754 double, 8 bytes little-endian.
#pragma once

#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core::detail {

using MetricEntry = MetricById;

// `entries` sorted by metric id, each id once and positive.
void encodeMetricBlob(std::span<const MetricEntry> entries, std::string& out);
// Decodes `count` entries into `out` (replacing its contents); false when the data is malformed
// (truncated, a varint too long, ids not rising, bytes left over): a corrupt or hostile file.
bool decodeMetricBlob(std::string_view data, std::int64_t count, std::vector<MetricEntry>& out);

// Merges `update` into `base` (both sorted by id, ids unique): a value of `update` replaces the
// value of the same id in `base`.
void mergeMetricEntries(std::vector<MetricEntry>& base, std::span<const MetricEntry> update);

} // namespace ridgeline::core::detail
