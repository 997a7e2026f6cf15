// SPDX-License-Identifier: MIT
// Every kernel launch of a session in 12 bytes (1 M launches: 12 MB), for the per-launch table:
// a reference to the launch's op in the document's timeline (which holds its times, kernels.id
// and stream) and the index of its kernel summary.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/timeline/timelinelod.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ridgeline::ui {

struct LaunchRow {
    core::TimelineGpuOpRef op; // into the document's timeline: a Kernel or Collective item of a Stream lane
    std::int32_t summary = 0; // index into the session's kernel summaries (name, device, verdict)
};
static_assert(sizeof(LaunchRow) == 12);

// What the worker hands back: the rows, or the reason there are none.
struct LaunchLoad {
    std::vector<LaunchRow> rows;
    std::string error; // empty on success
};

// The launches of `timeline` in start order (ties: timeline row, then index): every Kernel or
// Collective item with a kernel source (kernels.id) in a Stream lane whose kernel name and lane
// device have a summary (a summary exists for every kernel that has launches; others are
// skipped). Reads no file. `cancelled` is polled; a cancelled build fails with
// "Listing the launches was cancelled."
core::Result<std::vector<LaunchRow>> launchRows(const core::TimelineData& timeline,
    const std::vector<core::KernelSummary>& summaries, const std::function<bool()>& cancelled = {});

} // namespace ridgeline::ui
