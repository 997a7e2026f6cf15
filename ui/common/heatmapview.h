// SPDX-License-Identifier: MIT
// A rank x time heat map (core::RankTimeMap) as a QPainter widget: one band per row (rank and
// GPU), one cell per time bin shaded from the background (0 %) to a colour (100 %), row labels on
// the left with each row's share of the whole span, a time axis below. Hovering a cell says its row,
// time span and value; clicking one emits cellClicked. Any per-rank share of time fits: the
// Communication page shows time in collectives, a cluster view can show busy or idle time.
#pragma once

#include "ridgeline/core/timeline/ranktimemap.h"

#include <QColor>
#include <QString>
#include <QWidget>

class QPainter;
#include <optional>
#include <utility>

namespace ridgeline::ui {

class HeatMapView final : public QWidget {
    Q_OBJECT
public:
    explicit HeatMapView(QWidget* parent = nullptr);

    void setMap(core::RankTimeMap map);
    const core::RankTimeMap& map() const { return m_map; }
    // The colour of a full cell (default: the communication verdict's colour).
    void setColor(const QColor& color);
    QColor color() const { return m_color; }
    // What a value measures, for the tooltip and the empty text: "in collectives".
    void setValueName(const QString& name);
    // A row drawn with a marker (e.g. the rank that makes the others wait); -1: none.
    void setHighlightedRow(int row);
    int highlightedRow() const { return m_highlightedRow; }
    // A time span outlined across every row (e.g. the selected collective instance).
    void setMarkedWindow(std::optional<core::TimeWindow> window);
    std::optional<core::TimeWindow> markedWindow() const { return m_marked; }

    // The cell (row, bin) under a widget point, and its description.
    std::optional<std::pair<int, int>> cellAt(QPoint pos) const;
    QString toolTipAt(QPoint pos) const;
    // The fill of a cell of value v (0..1) on this widget's palette.
    QColor cellColor(double value) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void cellClicked(int row, ridgeline::core::TimeWindow window);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect cellsArea() const;
    int labelWidth() const;
    void paintCells(QPainter& p, const QRect& area) const;
    void paintDenseCells(QPainter& p, const QRect& area) const;
    void paintLabels(QPainter& p, const QRect& area) const;

    core::RankTimeMap m_map;
    QColor m_color;
    QString m_valueName;
    int m_highlightedRow = -1;
    std::optional<core::TimeWindow> m_marked;
};

} // namespace ridgeline::ui
