// SPDX-License-Identifier: MIT
#include "rooflineceilings.h"

#include "ridgeline/core/model/resource.h"
#include "rooflinepointsitem.h"

#include <QChart>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QtMath>
#include <cmath>

namespace ridgeline::ui {

namespace {

// A ceiling label that stays readable over kernel points and grid lines.
class Label final : public QGraphicsSimpleTextItem {
public:
    using QGraphicsSimpleTextItem::QGraphicsSimpleTextItem;
    QColor background { 255, 255, 255, 200 };
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override
    {
        painter->fillRect(boundingRect().adjusted(-2, 0, 2, 0), background);
        QGraphicsSimpleTextItem::paint(painter, option, widget);
    }
};

QPen penFor(const core::RooflineCeilingLine& line)
{
    if (line.memory) {
        // DRAM darkest: the slope most kernels are judged against.
        const auto level = core::resourceFromString(line.resource);
        const QColor colour = level == core::Resource::DRAM ? QColor(0x1f, 0x4e, 0x8c)
            : level == core::Resource::L2                   ? QColor(0x3b, 0x7d, 0xc4)
                                                            : QColor(0x7a, 0xaa, 0xdc);
        return QPen(colour, 2.0);
    }
    const bool tensor = core::isTensorPipe(line.resource);
    QPen pen(tensor ? QColor(0xb0, 0x45, 0x45) : QColor(0x8b, 0x1e, 0x1e), tensor ? 1.6 : 2.2);
    if (tensor)
        pen.setStyle(Qt::DashLine);
    return pen;
}

} // namespace

RooflineCeilings::RooflineCeilings(QChart* chart, QAbstractAxis* x, QAbstractAxis* y)
    : m_chart(chart)
    , m_x(x)
    , m_y(y)
{ }

void RooflineCeilings::clear()
{
    for (auto* series : m_series) {
        m_chart->removeSeries(series);
        delete series;
    }
    m_series.clear();
    m_lines.clear();
    for (auto* label : m_labels)
        delete label;
    m_labels.clear();
    if (m_ridges) {
        m_chart->removeSeries(m_ridges);
        delete m_ridges;
        m_ridges = nullptr;
    }
}

void RooflineCeilings::set(const core::RooflineChart& chart)
{
    clear();
    QFont font = m_chart->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    for (const auto* group : { &chart.memory, &chart.compute }) {
        for (const auto& line : *group) {
            if (!(line.x0 < line.x1))
                continue;
            auto* series = new QLineSeries;
            series->setName(QString::fromStdString(line.label));
            QPen pen = penFor(line);
            if (m_dark)
                pen.setColor(pen.color().lighter(150));
            series->setPen(pen);
            series->replace(QList<QPointF> { { line.x0, line.y0 }, { line.x1, line.y1 } });
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
            for (auto* marker : m_chart->legend()->markers(series))
                marker->setVisible(false); // the label beside the line says it
            m_series.push_back(series);
            m_lines.push_back(line);
            auto* label = new Label(QString::fromStdString(line.label), m_chart);
            label->setFont(font);
            label->setBrush(m_dark ? penFor(line).color().lighter(170) : penFor(line).color().darker(120));
            label->background = m_dark ? QColor(30, 30, 30, 200) : QColor(255, 255, 255, 200);
            label->setZValue(20); // over the kernel points (rooflinepointsitem.h)
            m_labels.push_back(label);
        }
    }
    m_ridges = new QScatterSeries;
    m_ridges->setName(QObject::tr("ridge"));
    m_ridges->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_ridges->setMarkerSize(9);
    m_ridges->setColor(m_dark ? QColor(0xe0, 0xe0, 0xe0) : QColor(0x30, 0x30, 0x30));
    m_ridges->setBorderColor(m_dark ? Qt::black : Qt::white);
    QList<QPointF> ridges;
    for (const auto& r : chart.ridges)
        ridges.append({ r.intensity, r.flopsPerS });
    m_ridges->replace(ridges);
    m_chart->addSeries(m_ridges);
    m_ridges->attachAxis(m_x);
    m_ridges->attachAxis(m_y);
}

void RooflineCeilings::placeLabels(const LogMapping& mapping)
{
    const QRectF plot = mapping.plot;
    qreal lastRoofY = -1e9;
    for (std::size_t i = 0; i < m_labels.size(); ++i) {
        const auto& line = m_lines[i];
        auto* label = m_labels[i];
        const QRectF text = label->boundingRect();
        if (line.memory) {
            // Along the slope, a little above its visible start.
            const double lx0 = std::max(std::log10(line.x0), mapping.xMinLog);
            const double lx1 = std::min(std::log10(line.x1), mapping.xMaxLog);
            const double lx = lx0 + 0.08 * (lx1 - lx0);
            const QPointF a = mapping.map({ std::pow(10.0, lx), line.value * std::pow(10.0, lx) });
            const QPointF b = mapping.map({ std::pow(10.0, lx + 1), line.value * std::pow(10.0, lx + 1) });
            const qreal angle = qRadiansToDegrees(std::atan2(b.y() - a.y(), b.x() - a.x()));
            label->setRotation(angle);
            label->setPos(a + QPointF(0, -text.height() - 2));
            label->setVisible(lx0 < lx1 && plot.contains(a));
        } else {
            // Above the roof at its right end, stacked when roofs are close.
            const QPointF end = mapping.map({ std::pow(10.0, mapping.xMaxLog), line.value });
            qreal y = end.y() - text.height() - 1;
            if (y < lastRoofY + text.height())
                y = lastRoofY + text.height();
            lastRoofY = y;
            label->setPos(end.x() - text.width() - 4, y);
            label->setVisible(plot.contains(QPointF(end.x() - 1, end.y())));
        }
    }
}

} // namespace ridgeline::ui
