// SPDX-License-Identifier: MIT
// What an empty roofline says, in the middle of its plot area: why no kernel is on the chart
// (no session; no hardware counters; a filter that leaves nothing) and how to get points.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/rooflinechart.h"

#include <QGraphicsTextItem>
#include <span>

namespace ridgeline::ui {

class RooflineEmptyNote final : public QGraphicsTextItem {
    Q_OBJECT
public:
    explicit RooflineEmptyNote(QGraphicsItem* parent = nullptr);

    // Hidden while the chart has points; otherwise the explanation for this chart.
    void update(bool hasSession, const core::RooflineChart& chart, std::span<const core::KernelSummary> kernels);
    // Centred in the plot area, at most its width.
    void place(const QRectF& plotArea);

    // The text shown for this chart; empty when the chart has points. Plain text (tests read it).
    static QString explanation(
        bool hasSession, const core::RooflineChart& chart, std::span<const core::KernelSummary> kernels);
};

} // namespace ridgeline::ui
