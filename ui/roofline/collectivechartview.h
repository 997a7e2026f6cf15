// SPDX-License-Identifier: MIT
// The collectives beside the roofline (Qt Charts): core's collective chart view-model drawn as
// nccl-tests plots it, bus bandwidth over message size on log-log axes, one point per collective
// type, process group and size (coloured by type), under a flat roof per link ceiling. A point's
// height against its roof is how far the collective is from the link. Hover shows the numbers.
#pragma once

#include "ridgeline/core/analysis/collectivechart.h"
#include "session/sessiondocument.h"

#include <QChartView>
#include <vector>

class QLogValueAxis;
class QLineSeries;
class QScatterSeries;

namespace ridgeline::ui {

class CollectiveChartView final : public QChartView {
    Q_OBJECT
public:
    explicit CollectiveChartView(QWidget* parent = nullptr);

    void setDocument(SessionDocumentPtr doc); // null: empty
    const core::CollectiveChart& chartModel() const { return m_chart; }
    QLogValueAxis* xAxis() const { return m_x; }
    QLogValueAxis* yAxis() const { return m_y; }
    // One per collective type, in the order of the legend.
    const std::vector<QScatterSeries*>& pointSeries() const { return m_points; }
    const std::vector<QLineSeries*>& roofSeries() const { return m_roofs; }
    // The chart point (index into chartModel().points) nearest a view position, within a few pixels.
    int pointAt(QPoint viewPos) const;
    QPoint viewPosition(int point) const;
    QString toolTipAt(QPoint viewPos) const;

protected:
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    SessionDocumentPtr m_doc;
    core::CollectiveChart m_chart;
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    std::vector<QScatterSeries*> m_points;
    std::vector<QLineSeries*> m_roofs;
};

} // namespace ridgeline::ui
