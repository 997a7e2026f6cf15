// SPDX-License-Identifier: MIT
// Time-ruler ticks: steps of 1, 2 or 5 × 10^k ns, labelled in the unit that suits the step.
#pragma once

#include <QString>
#include <cstdint>

namespace ridgeline::ui {

// The smallest step of 1, 2 or 5 × 10^k ns that is at least minStepNs (at least 1 ns).
std::int64_t niceTickStep(double minStepNs);
// "0", "1.5 ms", "250 µs", "2 s": `offsetNs` (a multiple of stepNs) in the unit of the step, with the
// decimals the step needs.
QString tickLabel(std::int64_t offsetNs, std::int64_t stepNs);
// A duration for tooltips and the toolbar: "1.235 ms", "850 ns".
QString durationText(double ns);

} // namespace ridgeline::ui
