// SPDX-License-Identifier: MIT
// Every kernel launch of a session in 40 bytes (1 M launches: 40 MB), for the per-launch table.
#pragma once

#include "ridgeline/core/kernelsummary.h"
#include "ridgeline/core/result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ridgeline::ui {

struct LaunchRow {
    std::int64_t id = 0; // kernels.id
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t streamId = 0;
    std::int32_t summary = 0; // index into the session's kernel summaries (name, device, verdict)
};

// What the worker hands back: the rows, or the reason there are none.
struct LaunchLoad {
    std::vector<LaunchRow> rows;
    std::string error; // empty on success
};

// Reads the launches in start order. Launches whose name and device have no summary are
// skipped (a summary exists for every kernel that has launches). `cancelled` is polled.
core::Result<std::vector<LaunchRow>> readLaunchRows(const std::string& sessionPath,
    const std::vector<core::KernelSummary>& summaries, const std::function<bool()>& cancelled = {});

} // namespace ridgeline::ui
