// SPDX-License-Identifier: MIT
// The details pane's host-side section: how launches relate to the host calls that made them. For
// a kernel, the launch delays (GPU start − launching call start, as Holistic Trace Analysis
// measures them) and the calls' own CPU time; for one launch, the call that launched it.
#pragma once

#include "ridgeline/core/analysis/kerneldetails.h"

#include <QString>

namespace ridgeline::ui {

// Empty when the session records no launching call for the kernel (or the launch).
QString hostSection(const core::KernelDetails& details, qint64 launchId, std::int64_t kernelLaunches);

} // namespace ridgeline::ui
