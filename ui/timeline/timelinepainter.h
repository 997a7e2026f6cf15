// SPDX-License-Identifier: MIT
// Draws one frame of the timeline: the time ruler, the bands in view and, per row, the items of
// core's level-of-detail query (at most one per pixel column), so a frame costs the same at any
// zoom level. Launches of the selected kernel are outlined from the same kind of query.
#pragma once

#include "ridgeline/core/timeline/timelinelod.h"
#include "timelinelayout.h"

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QPalette>
#include <QRect>
#include <array>
#include <optional>
#include <vector>

class QPainter;
class QRect;

namespace ridgeline::ui {

struct TimelineFrame {
    const core::TimelineData* data = nullptr;
    const TimelineLayout* layout = nullptr;
    core::TimeWindow window; // the time shown across the time area
    int scrollY = 0; // content y at the top of the bands area
    int labelWidth = 0; // the lane labels on the left; the time area is the rest
    const core::TimelineMarks* marks = nullptr; // outlined (launches of the selected kernel)
    std::optional<core::TimelineGpuOpRef> selected;
    std::optional<core::TimelineGpuOpRef> hovered;
    std::optional<core::TimelineGpuOpRef> launchingCall; // of `selected`: outlined, with an arrow to it
    // The operators `selected` ran under, innermost first: outlined, an arrow from the innermost.
    const std::vector<core::TimelineGpuOpRef>* operators = nullptr;
};

class TimelinePainter {
    Q_DECLARE_TR_FUNCTIONS(TimelinePainter)

public:
    static constexpr int kRulerHeight = 24;

    TimelinePainter();
    // Paints the whole widget area `rect`; returns how many level-of-detail items it drew.
    int paint(QPainter& p, const QRect& rect, const QPalette& palette, const TimelineFrame& frame);

    QColor colorOf(core::TimelineItemKind kind, core::VerdictClass verdict, std::int32_t nameIndex) const;

private:
    // The bands in view, [first, last), and the screen y of content y 0.
    struct VisibleBands {
        std::size_t first = 0;
        std::size_t last = 0;
        int top = 0;
    };
    void paintBackgrounds(QPainter& p, const QRect& rect, const QPalette& palette, const TimelineFrame& frame,
        const VisibleBands& visible) const;
    int paintIdleGaps(QPainter& p, const QRect& bandsArea, const QRect& timeArea, const QPalette& palette,
        const TimelineFrame& frame, const VisibleBands& visible);
    void paintLabels(QPainter& p, const QRect& rect, const QRect& bandsArea, const QPalette& palette,
        const TimelineFrame& frame, const VisibleBands& visible) const;
    void paintRuler(QPainter& p, const QRect& rect, const QPalette& palette, const TimelineFrame& frame) const;
    int paintRow(QPainter& p, const TimelineBand& band, int top, const QRect& area, const TimelineFrame& frame);
    // Where an op is drawn (clamped to the window); empty when its row has no band.
    std::optional<QRect> opRect(
        core::TimelineGpuOpRef ref, int top, const QRect& area, const TimelineFrame& frame) const;
    // The selected launch's launching call and operators outlined, and arrows from them to the launch.
    void paintLaunchFlow(
        QPainter& p, int top, const QRect& area, const TimelineFrame& frame, const QColor& color) const;
    void paintArrow(QPainter& p, core::TimelineGpuOpRef from, int top, const QRect& area, const TimelineFrame& frame,
        const QColor& color, Qt::PenStyle style) const;
    void paintOutline(QPainter& p, core::TimelineGpuOpRef ref, int top, const QRect& area, const TimelineFrame& frame,
        const QColor& color, int width) const;

    std::array<QColor, core::kVerdictClassCount> m_verdictColors;
    std::vector<core::LodItem> m_items; // reused from frame to frame: no allocation per paint
    QFont m_small;
};

} // namespace ridgeline::ui
