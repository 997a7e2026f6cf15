// SPDX-License-Identifier: MIT
#include "rooflineview.h"

#include "common/tooltip.h"
#include "common/verdictcolors.h"
#include "logaxis.h"
#include "ridgeline/core/base/units.h"
#include "rooflineceilings.h"
#include "rooflineemptynote.h"
#include "rooflinepointsitem.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QRubberBand>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kDragThreshold = 5; // pixels before a press becomes a zoom rectangle

MarkerShape shapeOf(const std::string& level)
{
    return level == "L2" ? MarkerShape::Square : level == "L1" ? MarkerShape::Triangle : MarkerShape::Circle;
}

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// Whole decades around `axes` that also hold `value`.
void widen(core::RooflineAxes& axes, QPointF value)
{
    axes.xMinLog = std::min(axes.xMinLog, std::floor(std::log10(value.x())));
    axes.xMaxLog = std::max(axes.xMaxLog, std::ceil(std::log10(value.x())));
    axes.yMinLog = std::min(axes.yMinLog, std::floor(std::log10(value.y())));
    axes.yMaxLog = std::max(axes.yMaxLog, std::ceil(std::log10(value.y())));
}

} // namespace

RooflineView::RooflineView(SelectionModel* selection, QWidget* parent)
    : QChartView(new QChart, parent)
    , m_selection(selection)
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
    , m_band(new QRubberBand(QRubberBand::Rectangle, viewport()))
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::NoRubberBand); // ours: a click must still select
    auto* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->legend()->setAlignment(Qt::AlignBottom);
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    addLogAxis(
        c, m_x, Qt::AlignBottom, QStringLiteral("%g"), tr("Arithmetic intensity (FLOP per byte of the memory level)"));
    addLogAxis(c, m_y, Qt::AlignLeft, QStringLiteral("%.0e"), tr("Performance (FLOP/s)"));
    m_ceilings = std::make_unique<RooflineCeilings>(c, m_x, m_y);
    m_points = new RooflinePointsItem(c);
    m_points->setZValue(10);
    m_emptyNote = new RooflineEmptyNote(c);

    // Legend entries only: verdict colours and the marker shape of each memory level (styled in applyTheme).
    for (int i = 0; i < 8; ++i) {
        auto* series = new QScatterSeries;
        series->setMarkerSize(10);
        c->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        m_legend.push_back(series);
    }
    connect(c, &QChart::plotAreaChanged, this, &RooflineView::relayout);
    connect(m_x, &QLogValueAxis::rangeChanged, this, &RooflineView::relayout);
    connect(m_y, &QLogValueAxis::rangeChanged, this, &RooflineView::relayout);
    if (m_selection)
        connect(m_selection, &SelectionModel::selectionChanged, this, &RooflineView::followSelection);
    applyTheme();
}

void RooflineView::applyTheme()
{
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight); // resets series styles
    chart()->setBackgroundRoundness(0);
    m_ceilings->setDark(dark);
    m_emptyNote->setDefaultTextColor(dark ? QColor(0xd0, 0xd0, 0xd0) : QColor(0x40, 0x40, 0x40));
    const QColor grey = dark ? QColor(0x80, 0x80, 0x80) : QColor(0xb0, 0xb0, 0xb0);
    const std::pair<QString, QScatterSeries::MarkerShape> levels[]
        = { { tr("DRAM"), QScatterSeries::MarkerShapeCircle }, { tr("L2"), QScatterSeries::MarkerShapeRectangle },
              { tr("L1"), QScatterSeries::MarkerShapeTriangle } };
    for (std::size_t i = 0; i < m_legend.size(); ++i) {
        auto* series = m_legend[i];
        if (i < 5) {
            // Short names ("memory" for memory-bound) so that one row holds them all.
            const auto verdict = core::kVerdictClasses.at(i);
            series->setName(QString::fromLatin1(core::toString(verdict)).section(QLatin1Char('-'), 0, 0));
            series->setColor(verdictColor(verdict));
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        } else {
            series->setName(levels[i - 5].first);
            series->setColor(grey);
            series->setMarkerShape(levels[i - 5].second);
        }
        series->setBorderColor(series->color().darker(170));
    }
    rebuild();
}

void RooflineView::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

RooflineView::~RooflineView() = default;

void RooflineView::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    m_options.deviceIds.clear();
    rebuild();
}

void RooflineView::setBaseline(SessionDocumentPtr baseline)
{
    m_baseline = std::move(baseline);
    rebuild();
}

void RooflineView::setDeviceFilter(std::vector<qint64> deviceIds)
{
    m_options.deviceIds.assign(deviceIds.begin(), deviceIds.end());
    rebuild();
}

void RooflineView::setPointMode(core::RooflinePointMode mode)
{
    m_options.mode = mode;
    rebuild();
}

void RooflineView::setLevels(std::vector<std::string> levels)
{
    m_options.levels = std::move(levels);
    rebuild();
}

void RooflineView::setColouring(RooflineColouring colouring)
{
    m_colouring = colouring;
    rebuild();
}

bool RooflineView::byOperator() const
{
    return m_colouring == RooflineColouring::Operator && m_doc && m_doc->operators && !showsOperators();
}

void RooflineView::setPointSource(RooflinePoints points)
{
    m_pointSource = points;
    rebuild();
}

bool RooflineView::showsOperators() const
{
    return m_pointSource == RooflinePoints::Operators && m_doc && m_doc->operators
        && !m_doc->operators->shapePoints.empty();
}

std::span<const core::KernelSummary> RooflineView::pointRows() const
{
    if (!m_doc)
        return {};
    return showsOperators() ? std::span<const core::KernelSummary>(m_doc->operators->shapePoints)
                            : std::span<const core::KernelSummary>(m_doc->report.kernels);
}

QStringList RooflineView::legendNames() const
{
    QStringList names;
    if (byOperator()) {
        names = m_operatorColours.names();
    } else {
        for (std::size_t i = 0; i < 5; ++i)
            names.append(m_legend[i]->name());
    }
    for (std::size_t i = 5; i < m_legend.size(); ++i) {
        const char* level = i == 5 ? "DRAM" : i == 6 ? "L2" : "L1";
        if (std::find(m_options.levels.begin(), m_options.levels.end(), level) != m_options.levels.end())
            names.append(m_legend[i]->name());
    }
    return names;
}

void RooflineView::rebuildLegend()
{
    // Operator entries go in front of the memory levels: the level series are added again after them.
    for (auto* series : m_operatorLegend) {
        chart()->removeSeries(series);
        delete series;
    }
    m_operatorLegend.clear();
    const bool operators = byOperator();
    for (std::size_t i = 0; i < 5; ++i) {
        for (auto* marker : chart()->legend()->markers(m_legend[i]))
            marker->setVisible(!operators);
    }
    if (!operators)
        return;
    const auto& palette = m_operatorColours.palette();
    for (qsizetype i = 0; i < palette.size(); ++i) {
        auto* series = new QScatterSeries;
        series->setMarkerSize(10);
        series->setName(m_operatorColours.names()[i]);
        chart()->addSeries(series); // the theme styles a series as it is added: colour it after
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        series->setColor(palette[i]);
        series->setBorderColor(palette[i].darker(170));
        series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        m_operatorLegend.push_back(series);
    }
    for (std::size_t i = 5; i < m_legend.size(); ++i) {
        const QColor colour = m_legend[i]->color();
        const auto shape = m_legend[i]->markerShape();
        chart()->removeSeries(m_legend[i]);
        chart()->addSeries(m_legend[i]);
        m_legend[i]->attachAxis(m_x);
        m_legend[i]->attachAxis(m_y);
        m_legend[i]->setColor(colour);
        m_legend[i]->setBorderColor(colour.darker(170));
        m_legend[i]->setMarkerShape(shape);
    }
}

void RooflineView::rebuild()
{
    m_chart = m_doc ? core::buildRooflineChart(m_doc->ceilings, pointRows(), m_options) : core::RooflineChart {};
    m_arrows.clear();
    m_baselineChart = {};
    m_fullAxes = m_chart.axes;
    if (m_doc && m_baseline && !showsOperators()) {
        core::RooflineChartOptions options = m_options;
        options.deviceIds.clear(); // the baseline's device ids are its own; kernels pair by name
        m_baselineChart = core::buildRooflineChart(m_baseline->ceilings, m_baseline->report.kernels, options);
        m_arrows
            = core::matchRooflineBaseline(m_baselineChart, m_baseline->report.kernels, m_chart, m_doc->report.kernels);
        for (const auto& arrow : m_arrows) {
            const auto& from = m_baselineChart.points[arrow.baselinePoint];
            widen(m_fullAxes, { from.intensity, from.flopsPerS });
        }
    }
    m_ceilings->set(m_chart);
    if (m_doc && !showsOperators()) // its points index the kernel summaries
        m_operatorColours.build(*m_doc, m_chart);
    rebuildPoints();
    rebuildLegend();
    m_emptyNote->update(m_doc != nullptr, m_chart, pointRows());
    for (std::size_t i = 5; i < m_legend.size(); ++i) {
        const char* level = i == 5 ? "DRAM" : i == 6 ? "L2" : "L1";
        const bool shown = std::find(m_options.levels.begin(), m_options.levels.end(), level) != m_options.levels.end();
        for (auto* marker : chart()->legend()->markers(m_legend[i]))
            marker->setVisible(shown);
    }
    resetZoom();
    highlight(m_selection ? m_selection->current() : KernelSelection {});
    Q_EMIT chartRebuilt();
}

void RooflineView::rebuildPoints()
{
    std::vector<RooflineMarker> markers;
    markers.reserve(m_chart.points.size());
    const bool operators = byOperator();
    for (const auto& p : m_chart.points) {
        const auto& row = pointRows()[p.kernel];
        markers.push_back(
            { QPointF(p.intensity, p.flopsPerS), static_cast<float>(core::rooflinePointRadius(p.timeShare)),
                operators ? m_operatorColours.colourOf(p.kernel) : static_cast<quint8>(row.analysis.verdict),
                shapeOf(p.level), row.analysis.figures == core::FigureSource::Shapes });
    }
    QList<QColor> palette;
    if (operators)
        palette = m_operatorColours.palette();
    else
        for (const auto verdict : core::kVerdictClasses)
            palette.append(verdictColor(verdict));
    m_points->setMarkers(std::move(markers), palette);
    std::vector<QLineF> arrows;
    for (const auto& arrow : m_arrows) {
        const auto& from = m_baselineChart.points[arrow.baselinePoint];
        const auto& to = m_chart.points[arrow.currentPoint];
        arrows.emplace_back(QPointF(from.intensity, from.flopsPerS), QPointF(to.intensity, to.flopsPerS));
    }
    m_points->setArrows(std::move(arrows));
}

void RooflineView::resetZoom()
{
    m_settingRange = true;
    m_x->setRange(m_fullAxes.xMin(), m_fullAxes.xMax());
    m_y->setRange(m_fullAxes.yMin(), m_fullAxes.yMax());
    m_settingRange = false;
    relayout();
}

void RooflineView::zoomToValues(const QRectF& values)
{
    const QRectF r = values.normalized();
    if (!(r.left() > 0) || !(r.top() > 0) || !(r.width() > 0) || !(r.height() > 0))
        return;
    m_settingRange = true;
    m_x->setRange(r.left(), r.right());
    m_y->setRange(r.top(), r.bottom());
    m_settingRange = false;
    relayout();
}

void RooflineView::relayout()
{
    if (m_settingRange)
        return;
    LogMapping mapping;
    mapping.plot = chart()->plotArea();
    mapping.xMinLog = std::log10(m_x->min());
    mapping.xMaxLog = std::log10(m_x->max());
    mapping.yMinLog = std::log10(m_y->min());
    mapping.yMaxLog = std::log10(m_y->max());
    if (!(mapping.xMinLog < mapping.xMaxLog) || !(mapping.yMinLog < mapping.yMaxLog))
        return;
    m_points->setMapping(mapping);
    m_ceilings->placeLabels(mapping);
    m_emptyNote->place(mapping.plot);
}

void RooflineView::followSelection(const KernelSelection& selection, const QObject* origin)
{
    if (origin != this)
        highlight(selection);
}

void RooflineView::highlight(const KernelSelection& selection)
{
    std::vector<int> selected;
    for (std::size_t i = 0; i < m_chart.points.size(); ++i) {
        const auto& p = m_chart.points[i];
        if (!selection.isEmpty() && p.nameId == selection.nameId && p.deviceId == selection.deviceId)
            selected.push_back(static_cast<int>(i));
    }
    m_points->setHighlighted(std::move(selected));
}

QPointF RooflineView::chartPos(QPoint viewPos) const
{
    return chart()->mapFromScene(mapToScene(viewPos));
}

int RooflineView::pointAt(QPoint viewPos) const
{
    return m_points->markerAt(chartPos(viewPos));
}

QPoint RooflineView::viewPosition(int point) const
{
    return mapFromScene(chart()->mapToScene(m_points->scenePosition(point)));
}

QString RooflineView::toolTipAt(QPoint viewPos) const
{
    const int index = pointAt(viewPos);
    if (index < 0 || !m_doc)
        return {};
    const auto& p = m_chart.points[static_cast<std::size_t>(index)];
    const auto& row = pointRows()[p.kernel];
    QString where = text(row.deviceName) + QStringLiteral(" · ") + text(p.level);
    if (!p.precision.empty())
        where += QStringLiteral(" · ") + text(p.precision);
    QString figures
        = tr("%1 FLOP/byte, %2").arg(p.intensity, 0, 'g', 3).arg(text(core::formatRate(p.flopsPerS, "FLOP/s")));
    if (p.fractionOfRoof)
        figures += tr(", %1 % of the roof").arg(*p.fractionOfRoof * 100.0, 0, 'f', 0);
    // The short name leads; the full (template) name follows in small type where it differs.
    const QString fullName = row.displayName() == row.name
        ? QString()
        : QStringLiteral("<br><small><code>%1</code></small>").arg(text(row.name).toHtmlEscaped());
    const QString op = showsOperators() ? QString() : m_operatorColours.operatorOf(p.kernel);
    const QString launchedBy
        = op.isEmpty() ? QString() : QStringLiteral("<br>") + tr("Launched by %1").arg(op).toHtmlEscaped();
    return QStringLiteral("<b>%1</b>%2<br>%3<br>%4<br>%5%6")
        .arg(text(row.displayName()).toHtmlEscaped(), fullName, where.toHtmlEscaped(), figures.toHtmlEscaped(),
            text(row.analysis.reason).toHtmlEscaped(), launchedBy);
}

bool RooflineView::viewportEvent(QEvent* event)
{
    if (showToolTip(event, viewport(), [this](QPoint pos) { return toolTipAt(pos); }))
        return true;
    return QChartView::viewportEvent(event);
}

void RooflineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QChartView::mousePressEvent(event);
    m_pressPos = event->position().toPoint();
    m_dragging = false;
    event->accept();
}

void RooflineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if ((event->buttons() & Qt::LeftButton) && (m_dragging || (pos - m_pressPos).manhattanLength() >= kDragThreshold)) {
        m_dragging = true;
        m_band->setGeometry(QRect(m_pressPos, pos).normalized());
        m_band->show();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void RooflineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QChartView::mouseReleaseEvent(event);
    const QPoint pos = event->position().toPoint();
    if (m_dragging) {
        m_band->hide();
        m_dragging = false;
        const auto& mapping = m_points->mapping();
        auto value = [&](QPoint p) {
            const QPointF c = chartPos(p);
            const double fx = (c.x() - mapping.plot.left()) / mapping.plot.width();
            const double fy = (mapping.plot.bottom() - c.y()) / mapping.plot.height();
            return QPointF(std::pow(10.0, mapping.xMinLog + fx * (mapping.xMaxLog - mapping.xMinLog)),
                std::pow(10.0, mapping.yMinLog + fy * (mapping.yMaxLog - mapping.yMinLog)));
        };
        zoomToValues(QRectF(value(m_pressPos), value(pos)));
    } else if (const int index = pointAt(pos); index >= 0 && !showsOperators()) {
        // An operator point is no kernel: it selects nothing in the kernel table.
        const auto& p = m_chart.points[static_cast<std::size_t>(index)];
        const KernelSelection selection { p.nameId, p.deviceId, -1 };
        highlight(selection);
        if (m_selection)
            m_selection->select(selection, this);
    }
    event->accept();
}

void RooflineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    resetZoom();
    event->accept();
}

bool RooflineView::exportImage(const QString& path)
{
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size());
        svg.setViewBox(rect());
        svg.setTitle(tr("Roofline"));
        QPainter painter;
        if (!painter.begin(&svg))
            return false;
        render(&painter);
        return painter.end();
    }
    return grab().save(path);
}

} // namespace ridgeline::ui

#include "moc_rooflineview.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
