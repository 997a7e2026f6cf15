// SPDX-License-Identifier: MIT
#include "collectivechartview.h"

#include "common/tooltip.h"
#include "logaxis.h"
#include "ridgeline/core/base/units.h"

#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <cmath>
#include <map>

namespace ridgeline::ui {

namespace {

constexpr int kHitRadius = 8; // pixels around a point that still hover it

// A distinct colour per collective type, in the order types first appear.
QColor typeColor(std::size_t index)
{
    static const QColor kColors[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
        QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf) };
    return kColors[index % std::size(kColors)];
}

} // namespace

CollectiveChartView::CollectiveChartView(QWidget* parent)
    : QChartView(new QChart, parent)
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
{
    setRenderHint(QPainter::Antialiasing);
    auto* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->legend()->setAlignment(Qt::AlignRight);
    c->setTitle(tr("Collectives: bus bandwidth against the link"));
    addLogAxis(c, m_x, Qt::AlignBottom, QStringLiteral("%.0e"), tr("Message size S (bytes)"));
    addLogAxis(c, m_y, Qt::AlignLeft, QStringLiteral("%.0e"), tr("Bus bandwidth (B/s)"));
    setMinimumHeight(300);
    rebuild();
}

void CollectiveChartView::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    rebuild();
}

void CollectiveChartView::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void CollectiveChartView::rebuild()
{
    auto* c = chart();
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    c->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    c->setBackgroundRoundness(0);
    c->removeAllSeries();
    m_points.clear();
    m_roofs.clear();
    m_chart = m_doc && m_doc->collectives ? core::buildCollectiveChart(m_doc->collectives->rows)
                                          : core::CollectiveChart {};
    const auto& a = m_chart.axes;
    m_x->setRange(a.xMin(), a.xMax());
    m_y->setRange(a.yMin(), a.yMax());
    for (const auto& roof : m_chart.roofs) {
        auto* line = new QLineSeries;
        line->setName(QString::fromStdString(roof.label));
        line->append(a.xMin(), roof.bytesPerS);
        line->append(a.xMax(), roof.bytesPerS);
        QPen pen(dark ? QColor(0xe0, 0x60, 0x60) : QColor(0xb0, 0x20, 0x20), 2.5);
        if (roof.inferred)
            pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        c->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_roofs.push_back(line);
    }
    std::map<std::string, QScatterSeries*> byType;
    for (const auto& p : m_chart.points) {
        auto& series = byType[p.collective];
        if (!series) {
            series = new QScatterSeries;
            series->setName(QString::fromStdString(p.collective));
            series->setMarkerSize(12);
            series->setColor(typeColor(m_points.size()));
            series->setBorderColor(series->color().darker(160));
            c->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
            m_points.push_back(series);
        }
        series->append(p.bytes, p.busBytesPerS);
    }
    if (m_chart.empty())
        c->setTitle(m_doc ? tr("Collectives: none with message sizes, so no bus bandwidth to plot")
                          : tr("Collectives: bus bandwidth against the link"));
    else
        c->setTitle(tr("Collectives: bus bandwidth against the link (%n point(s))", nullptr,
            static_cast<int>(m_chart.points.size())));
}

QPoint CollectiveChartView::viewPosition(int point) const
{
    if (point < 0 || point >= static_cast<int>(m_chart.points.size()) || m_points.empty())
        return {};
    const auto& p = m_chart.points[static_cast<std::size_t>(point)];
    const QPointF scene = chart()->mapToPosition(QPointF(p.bytes, p.busBytesPerS), m_points.front());
    return mapFromScene(chart()->mapToScene(scene));
}

int CollectiveChartView::pointAt(QPoint viewPos) const
{
    int best = -1;
    double bestDistance = kHitRadius;
    for (int i = 0; i < static_cast<int>(m_chart.points.size()); ++i) {
        const QPoint at = viewPosition(i);
        const double d = std::hypot(at.x() - viewPos.x(), at.y() - viewPos.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

QString CollectiveChartView::toolTipAt(QPoint viewPos) const
{
    const int index = pointAt(viewPos);
    if (index < 0 || !m_doc || !m_doc->collectives)
        return {};
    const auto& p = m_chart.points[static_cast<std::size_t>(index)];
    const auto& row = m_doc->collectives->rows[p.row];
    QString text = QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(p.label).toHtmlEscaped());
    text += tr("%1 calls, %2 in all; %n rank(s)", nullptr, row.groupSize)
                .arg(row.calls)
                .arg(QString::fromStdString(core::formatDuration(static_cast<double>(row.timeNs))));
    if (!row.processGroup.empty())
        text += tr("; process group %1").arg(QString::fromStdString(row.processGroup).toHtmlEscaped());
    text += QStringLiteral("<br>") + QString::fromStdString(row.reason).toHtmlEscaped();
    return text;
}

bool CollectiveChartView::viewportEvent(QEvent* event)
{
    if (showToolTip(event, viewport(), [this](QPoint pos) { return toolTipAt(pos); }))
        return true;
    return QChartView::viewportEvent(event);
}

} // namespace ridgeline::ui

#include "moc_collectivechartview.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
