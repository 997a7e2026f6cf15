// SPDX-License-Identifier: MIT
// The ceilings of a roofline chart in Qt Charts: one QLineSeries per ceiling, a label beside each,
// and the ridge points as one QScatterSeries.
#pragma once

#include "ridgeline/core/analysis/rooflinechart.h"

#include <QList>
#include <vector>

class QAbstractAxis;
class QChart;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;

namespace ridgeline::ui {

struct LogMapping;

class RooflineCeilings {
public:
    RooflineCeilings(QChart* chart, QAbstractAxis* x, QAbstractAxis* y);

    // Colours for a dark chart theme; applies at the next set().
    void setDark(bool dark) { m_dark = dark; }
    // Replaces the series and labels with those of `chart`.
    void set(const core::RooflineChart& chart);
    // Places the labels for the current plot area and axis ranges.
    void placeLabels(const LogMapping& mapping);

    const std::vector<QLineSeries*>& series() const { return m_series; } // memory first, then compute
    QScatterSeries* ridges() const { return m_ridges; }
    const std::vector<QGraphicsSimpleTextItem*>& labels() const { return m_labels; }

private:
    void clear();

    QChart* m_chart;
    QAbstractAxis* m_x;
    QAbstractAxis* m_y;
    std::vector<QLineSeries*> m_series;
    std::vector<core::RooflineCeilingLine> m_lines; // in the order of m_series
    std::vector<QGraphicsSimpleTextItem*> m_labels;
    QScatterSeries* m_ridges = nullptr;
    bool m_dark = false;
};

} // namespace ridgeline::ui
