// SPDX-License-Identifier: MIT
// A session compared with a baseline session, kernel by kernel: how each kernel's time, launches,
// verdict and distance from its roof changed, which kernels are new and which are gone. Behind
// `ridgeline report --baseline` and the desktop app's Baseline / Δ time columns.
//
// Matching rule. A kernel summary (one kernel name on one device) of the current session pairs
// with the baseline's summary of the same demangled name on the same *device slot*. A device slot
// is the device's name (the GPU model: "NVIDIA H100 80GB HBM3") and its index among the devices of
// that name which ran kernels in its session, in device-id order (the report's "Dev" column;
// `ridgeline merge` and multi-rank imports number devices in the order of their inputs, i.e.
// usually by rank). So:
//  - one GPU against one GPU (two runs, or rank 0 against rank 1 of one job, whose devices have
//    different ordinals): the devices pair whatever their ordinal, host or id;
//  - an 8-GPU session against an 8-GPU session: the k-th GPU pairs with the k-th;
//  - kernels on a GPU model the other session does not have are new (or gone), as are kernels on
//    the extra devices of the larger session.
// The rank is not part of the key: it is not a property of a device in the session file (one
// device may serve several processes) and is known only after the timeline analysis. Neither are
// the host or the ordinal, which differ between two runs of one job. When several summaries of one
// session share a name and device slot (distinct symbols that demangle alike), those with the same
// mangled name pair first, the rest in mangled-name order.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ridgeline::core {

// One current kernel against the baseline.
struct KernelDelta {
    std::size_t current = 0; // index into the current summaries
    std::optional<std::size_t> baseline; // index into the baseline summaries; empty: new kernel
    std::int64_t baselineTotalNs = 0; // 0 for a new kernel
    std::int64_t baselineLaunches = 0;
    double baselineAverageNs = 0;
    std::int64_t deltaNs = 0; // current total − baseline total (a new kernel: its whole time)
    // deltaNs / baseline total × 100; empty for a new kernel or a baseline total of 0.
    std::optional<double> deltaPct;
    VerdictClass verdictBefore = VerdictClass::Unknown; // the baseline's verdict and bound-by resource
    std::string boundByBefore; // (both meaningful only with a baseline)
    VerdictClass verdictAfter = VerdictClass::Unknown;
    std::string boundByAfter;
    // Fraction of the bounding roof, 0..1, before and after; both set only when both have it.
    std::optional<double> roofBefore;
    std::optional<double> roofAfter;

    bool isNew() const { return !baseline.has_value(); }
    bool verdictChanged() const { return baseline && (verdictBefore != verdictAfter || boundByBefore != boundByAfter); }
};

struct ComparisonTotals {
    std::int64_t kernelNsBefore = 0; // all kernel time of the baseline (sum of launch durations)
    std::int64_t kernelNsAfter = 0;
    std::int64_t launchesBefore = 0;
    std::int64_t launchesAfter = 0;
    std::size_t matched = 0;
    std::size_t added = 0; // current kernels absent from the baseline
    std::size_t gone = 0; // baseline kernels absent now
    std::int64_t deltaNs() const { return kernelNsAfter - kernelNsBefore; }
    std::optional<double> deltaPct() const;
};

struct KernelComparison {
    std::vector<KernelDelta> kernels; // one per current summary, in the current summaries' order
    std::vector<std::size_t> gone; // indices into the baseline summaries, largest baseline time first
    ComparisonTotals totals;

    const KernelDelta* deltaOf(std::size_t currentIndex) const
    {
        return currentIndex < kernels.size() ? &kernels[currentIndex] : nullptr;
    }
};

// Device name of a summary as the comparison (and the roofline's baseline arrows) uses it.
const std::string& comparedDeviceName(const KernelSummary& row);

// "+1.234 ms", "-56 ns", "+0 ns": a change of time with its sign.
std::string formatDeltaDuration(std::int64_t ns);
// "+12.5 %", "-3.0 %"; "-" when there is no baseline figure to compare with.
std::string formatDeltaPct(const std::optional<double>& pct);

KernelComparison compareKernels(std::span<const KernelSummary> current, std::span<const KernelSummary> baseline);

} // namespace ridgeline::core
