// SPDX-License-Identifier: MIT
// The details pane's comparison section: the kernel's figures in the baseline session and the
// change (time, launches, average, verdict, % of roof), or that it is new.
#pragma once

#include "ridgeline/core/analysis/kernelcompare.h"

#include <QString>

namespace ridgeline::ui {

struct BaselineDetails {
    QString path; // of the baseline session
    const core::KernelDelta* delta = nullptr; // the kernel against the baseline
    const core::KernelSummary* before = nullptr; // its baseline summary; null when new
};

QString baselineSection(const core::KernelSummary& now, const BaselineDetails& baseline);

} // namespace ridgeline::ui
