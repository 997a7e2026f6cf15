// SPDX-License-Identifier: MIT
// Finding a timeline item by its start time and source record, shared by the lookups of
// timelinelod.cpp (host items) and timelinecollectives.cpp (collective ops).
#pragma once

#include "ridgeline/core/timeline/timelinelod.h"

#include <cstdint>
#include <optional>

namespace ridgeline::core::detail {

// The item of one of `lane`'s rows that starts at `startNs` and comes from record `sourceId`.
std::optional<TimelineGpuOpRef> itemStartingAt(
    const TimelineData& data, const TimelineLane& lane, std::int64_t startNs, std::int64_t sourceId);

} // namespace ridgeline::core::detail
