// SPDX-License-Identifier: MIT
// The kernel table's Baseline and Δ time cells: text, sort key, colour and tooltip of a kernel
// against its baseline (core::KernelDelta). Slower is red, faster green; changes within
// kDeltaNoisePct of the baseline time are left uncoloured.
#pragma once

#include "ridgeline/core/analysis/kernelcompare.h"
#include "session/sessiondocument.h"

#include <QString>
#include <QVariant>

namespace ridgeline::ui {

inline constexpr double kDeltaNoisePct = 1.0;

enum class DeltaKind { Slower, Faster, Same, New };
DeltaKind deltaKind(const core::KernelDelta& delta);

QString baselineText(const core::KernelDelta& delta); // "28.000 µs", or "new"
QString deltaText(const core::KernelDelta& delta); // "-4.000 µs (-14.3 %)", "+1.500 µs (new)"
// Numbers as numbers: the baseline time (-1 for a new kernel, below every real one) and the change.
QVariant baselineSortKey(const core::KernelDelta& delta);
QVariant deltaSortKey(const core::KernelDelta& delta);
// Both figures, before and after, with the change.
QString deltaToolTip(const core::KernelSummary& now, const core::KernelDelta& delta);
// The comparison in one line, for the status bar (kernels gone since the baseline have no row):
// "Comparing with baseline B: 4 kernel(s) matched, 1 new, 1 gone; kernel time 41 µs → 37 µs (-9.8 %)".
QString comparisonSummary(const SessionDocument& current, const SessionDocument& baseline);
// Qt::ForegroundRole of the Δ cell: red slower, green faster (shades for light and dark palettes).
QVariant deltaForeground(const core::KernelDelta& delta);

} // namespace ridgeline::ui
