// SPDX-License-Identifier: MIT
// The details pane's Opportunity section (issue 34): the ranked row of the Opportunities page that
// holds the selected kernel (the row chosen there, else the most recoverable one that holds it):
// its recoverable time against its roof, the verdict's reason and every item of its advice; or,
// for a kernel no roof could be put on, its time and why.
#pragma once

#include "ridgeline/core/analysis/opportunities.h"

#include <QString>
#include <cstdint>

namespace ridgeline::ui {

struct OpportunityDetails {
    const core::Opportunities* opportunities = nullptr; // null: no section
    int chosenRow = -1; // the ranked row chosen on the Opportunities page; -1: none
    std::int64_t nameId = -1; // the selected kernel; -1: none (the chosen row alone, e.g. a copy)
    std::int64_t deviceId = -1;
};

// The ranked row the section shows: the chosen row when it holds the kernel (or no kernel is
// selected), else the first (most recoverable) row that holds it; -1: none.
int opportunityRowFor(const OpportunityDetails& details);
// Empty when there is nothing to say (no opportunities, or a kernel in no row).
QString opportunitySection(const OpportunityDetails& details);

} // namespace ridgeline::ui
