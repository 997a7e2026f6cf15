// SPDX-License-Identifier: MIT
// The details pane's text: one kernel (or launch) as HTML sections with every figure and its unit.
#pragma once

#include "detailsbaseline.h"
#include "detailsncu.h"
#include "detailsoperators.h"
#include "detailsopportunity.h"
#include "ridgeline/core/analysis/kerneldetails.h"
#include "ridgeline/core/analysis/kernelsummary.h"

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

namespace ridgeline::ui {

struct DetailsInput {
    const core::KernelSummary* kernel = nullptr;
    const core::Device* device = nullptr; // null when the session does not describe it
    qint64 launchId = -1; // a selected launch, or -1 for the kernel as a whole
    // Launch configurations and raw counters, once loaded; `loading` while they are being read.
    const core::KernelDetails* details = nullptr;
    bool loading = false;
    QString loadError;
    BaselineDetails baseline; // with a baseline session: the kernel's figures there (delta null otherwise)
    const OperatorDetails* operators = nullptr; // the PyTorch operators that launched it; null: none
    NcuDetails ncu; // Nsight Compute's rule results ("ncu estimates"); none: no section
    const OpportunityDetails* opportunity = nullptr; // its row on the Opportunities page; null: none
};

QString detailsHtml(const DetailsInput& input);
// A metric value in its unit: bytes, durations, rates and counts in readable form.
QString formatMetric(double value, const std::string& unit);

} // namespace ridgeline::ui
