// SPDX-License-Identifier: MIT
// The details pane's "ncu estimates" section: Nsight Compute's own rule results for the kernel
// (or the selected launch), next to Ridgeline's verdict: rule, type, estimated speedup labelled
// local or global, and the message.
#pragma once

#include "ridgeline/core/analysis/ncuestimates.h"

#include <QString>
#include <vector>

namespace ridgeline::ui {

struct NcuDetails {
    const std::vector<core::NcuEstimate>* estimates = nullptr; // null or empty: no section
    bool launch = false; // of one launch, not of the kernel's launches
};

QString ncuEstimatesSection(const NcuDetails& ncu);
// A rule message's text for the pane: ncu's link markup "@url:text:address@" shown as its text.
QString ncuMessageText(const std::string& message);

} // namespace ridgeline::ui
