// SPDX-License-Identifier: MIT
// The roofline chart (Qt Charts): log-log axes, a line and a label per ceiling, ridge points, and
// the kernels of core's roofline view-model coloured by verdict and sized by their share of time.
// Points can be coloured by PyTorch operator instead (rooflineoperatorcolours.h).
// Hover shows the verdict sentence; a click selects the kernel in the shared SelectionModel; a
// drag zooms to the rectangle, a double click resets the zoom. With a baseline session, arrows
// lead from each kernel's baseline position to its current one.
#pragma once

#include "common/selectionmodel.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "rooflineoperatorcolours.h"
#include "session/sessiondocument.h"

#include <QChartView>
#include <span>
#include <vector>

class QLogValueAxis;
class QRubberBand;
class QScatterSeries;

namespace ridgeline::ui {

class RooflineCeilings;
class RooflineEmptyNote;
class RooflinePointsItem;

// What the points' colour says: the kernel's verdict, or the operator that launched most of its time.
enum class RooflineColouring { Verdict, Operator };
// What a point is: a kernel (name and device), or a PyTorch operator shape whose work is known
// from its shapes (core::shapeSummaries: one per operator, input dims and types).
enum class RooflinePoints { Kernels, Operators };

class RooflineView final : public QChartView {
    Q_OBJECT
public:
    explicit RooflineView(SelectionModel* selection, QWidget* parent = nullptr);
    ~RooflineView() override;

    void setDocument(SessionDocumentPtr doc); // null: no session, empty chart
    void setBaseline(SessionDocumentPtr baseline); // null: no arrows
    void setDeviceFilter(std::vector<qint64> deviceIds); // empty: every device
    void setPointMode(core::RooflinePointMode mode);
    void setLevels(std::vector<std::string> levels); // memory levels that get points
    // By operator needs a session with operators; without, points keep their verdict colours.
    void setColouring(RooflineColouring colouring);
    RooflineColouring colouring() const { return m_colouring; }
    // Operators needs a session with modelled operator shapes; without, the points are kernels.
    void setPointSource(RooflinePoints points);
    bool showsOperators() const; // operator points chosen, and the session has some
    // The rows the points were built from: the kernel summaries, or the operator shapes.
    std::span<const core::KernelSummary> pointRows() const;
    const RooflineOperatorColours& operatorColours() const { return m_operatorColours; }
    // The legend's entries as chosen now: verdicts or operators, then the memory levels shown.
    QStringList legendNames() const;
    void resetZoom();
    void zoomToValues(const QRectF& values); // (FLOP/byte, FLOP/s), any corner order
    // PNG (or any raster format Qt writes) or SVG, by the file's extension.
    bool exportImage(const QString& path);
    QWidget* exportWidget() { return this; }

    const core::RooflineChart& chartModel() const { return m_chart; }
    const std::vector<core::RooflineArrow>& arrows() const { return m_arrows; }
    const RooflineCeilings& ceilings() const { return *m_ceilings; }
    RooflinePointsItem* pointsItem() const { return m_points; }
    const RooflineEmptyNote* emptyNote() const { return m_emptyNote; }
    QLogValueAxis* xAxis() const { return m_x; }
    QLogValueAxis* yAxis() const { return m_y; }
    int pointAt(QPoint viewPos) const; // index into chartModel().points, or -1
    QPoint viewPosition(int point) const;
    QString toolTipAt(QPoint viewPos) const; // rich text; empty off the points

Q_SIGNALS:
    void chartRebuilt(); // after a new document, filter or mode

protected:
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void rebuild();
    void applyTheme(); // light or dark chart, following the palette
    void rebuildPoints();
    void rebuildLegend();
    bool byOperator() const; // colouring by operator, and the session has operators
    void relayout();
    void followSelection(const KernelSelection& selection, const QObject* origin);
    void highlight(const KernelSelection& selection);
    QPointF chartPos(QPoint viewPos) const;

    SelectionModel* m_selection;
    SessionDocumentPtr m_doc;
    SessionDocumentPtr m_baseline;
    core::RooflineChartOptions m_options;
    core::RooflineChart m_chart;
    core::RooflineChart m_baselineChart;
    std::vector<core::RooflineArrow> m_arrows;
    core::RooflineAxes m_fullAxes; // before zooming: the view-model's, widened for baseline points
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    std::unique_ptr<RooflineCeilings> m_ceilings;
    RooflinePointsItem* m_points;
    RooflineEmptyNote* m_emptyNote; // why the chart has no points, over its plot area
    std::vector<QScatterSeries*> m_legend; // empty series: verdict colours and level shapes
    std::vector<QScatterSeries*> m_operatorLegend; // empty series: operator colours (by operator only)
    RooflinePoints m_pointSource = RooflinePoints::Kernels;
    RooflineColouring m_colouring = RooflineColouring::Verdict;
    RooflineOperatorColours m_operatorColours;
    QRubberBand* m_band;
    QPoint m_pressPos;
    bool m_dragging = false;
    bool m_settingRange = false; // one relayout for both axes' range changes
};

} // namespace ridgeline::ui
