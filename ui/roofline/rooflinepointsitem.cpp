// SPDX-License-Identifier: MIT
#include "rooflinepointsitem.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QtMath>
#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kCell = 24; // pixels per hit-test cell
constexpr qreal kHighlightWidth = 3.0;

QPainterPath shapePath(MarkerShape shape, QPointF centre, qreal r)
{
    QPainterPath path;
    switch (shape) {
    case MarkerShape::Circle:
        path.addEllipse(centre, r, r);
        break;
    case MarkerShape::Square:
        path.addRect(QRectF(centre.x() - r * 0.85, centre.y() - r * 0.85, r * 1.7, r * 1.7));
        break;
    case MarkerShape::Triangle:
        path.moveTo(centre.x(), centre.y() - r);
        path.lineTo(centre.x() + r * 0.95, centre.y() + r * 0.7);
        path.lineTo(centre.x() - r * 0.95, centre.y() + r * 0.7);
        path.closeSubpath();
        break;
    }
    return path;
}

void drawMarker(QPainter* painter, const RooflineMarker& m, QPointF centre, const QColor& fill)
{
    if (m.hollow) { // from shapes: an outline in the verdict's colour
        painter->setPen(QPen(fill.darker(130), 2.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(shapePath(m.shape, centre, std::max<qreal>(qreal(m.radius) - 1.0, 1.0)));
        return;
    }
    painter->setPen(QPen(fill.darker(170), 1.0));
    painter->setBrush(fill);
    painter->drawPath(shapePath(m.shape, centre, m.radius));
}

} // namespace

QPointF LogMapping::map(QPointF value) const
{
    return mapLog({ std::log10(value.x()), std::log10(value.y()) });
}

QPointF LogMapping::mapLog(QPointF logValue) const
{
    const double fx = (logValue.x() - xMinLog) / (xMaxLog - xMinLog);
    const double fy = (logValue.y() - yMinLog) / (yMaxLog - yMinLog);
    return { plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height() };
}

RooflinePointsItem::RooflinePointsItem(QGraphicsItem* parent)
    : QGraphicsItem(parent)
{
    setAcceptedMouseButtons(Qt::NoButton); // the view does hit testing and selection
}

void RooflinePointsItem::setMarkers(std::vector<RooflineMarker> markers, QList<QColor> palette)
{
    m_markers = std::move(markers);
    m_logValues.resize(m_markers.size());
    for (std::size_t i = 0; i < m_markers.size(); ++i)
        m_logValues[i] = { std::log10(m_markers[i].value.x()), std::log10(m_markers[i].value.y()) };
    if (palette != m_palette)
        m_sprites.clear();
    m_palette = std::move(palette);
    m_highlighted.clear();
    relayout();
}

void RooflinePointsItem::setArrows(std::vector<QLineF> arrows)
{
    m_arrows = std::move(arrows);
    update();
}

void RooflinePointsItem::setHighlighted(std::vector<int> markers)
{
    m_highlighted = std::move(markers);
    update();
}

void RooflinePointsItem::setMapping(const LogMapping& mapping)
{
    prepareGeometryChange();
    m_mapping = mapping;
    relayout();
}

void RooflinePointsItem::relayout()
{
    m_positions.resize(m_markers.size());
    const QRectF plot = m_mapping.plot;
    m_columns = std::max(1, static_cast<int>(std::ceil(plot.width() / kCell)));
    m_rows = std::max(1, static_cast<int>(std::ceil(plot.height() / kCell)));
    m_cells.assign(static_cast<std::size_t>(m_columns * m_rows), {});
    for (std::size_t i = 0; i < m_markers.size(); ++i) {
        const QPointF pos = m_mapping.mapLog(m_logValues[i]);
        m_positions[i] = pos;
        if (!plot.contains(pos))
            continue;
        const int column = std::clamp(static_cast<int>((pos.x() - plot.left()) / kCell), 0, m_columns - 1);
        const int row = std::clamp(static_cast<int>((pos.y() - plot.top()) / kCell), 0, m_rows - 1);
        m_cells[static_cast<std::size_t>(row * m_columns + column)].push_back(static_cast<int>(i));
    }
    update();
}

int RooflinePointsItem::markerAt(QPointF scenePos) const
{
    const QRectF plot = m_mapping.plot;
    if (!plot.contains(scenePos) || m_cells.empty())
        return -1;
    const int column = static_cast<int>((scenePos.x() - plot.left()) / kCell);
    const int row = static_cast<int>((scenePos.y() - plot.top()) / kCell);
    int best = -1;
    // Markers are at most 18 px in radius: neighbouring cells hold every candidate.
    for (int r = std::max(0, row - 1); r <= std::min(m_rows - 1, row + 1); ++r) {
        for (int c = std::max(0, column - 1); c <= std::min(m_columns - 1, column + 1); ++c) {
            for (const int i : m_cells[static_cast<std::size_t>(r * m_columns + c)]) {
                const QPointF d = m_positions[static_cast<std::size_t>(i)] - scenePos;
                const qreal reach = qreal(m_markers[static_cast<std::size_t>(i)].radius) + 2.0;
                if (d.x() * d.x() + d.y() * d.y() <= reach * reach)
                    best = std::max(best, i); // the one painted last is on top
            }
        }
    }
    return best;
}

const QPixmap& RooflinePointsItem::sprite(const RooflineMarker& m, qreal dpr)
{
    const int radius = std::clamp(static_cast<int>(std::lround(m.radius)), 1, 64);
    const quint32 key = (static_cast<quint32>(m.hollow) << 24) | (static_cast<quint32>(m.color) << 16)
        | (static_cast<quint32>(m.shape) << 8) | static_cast<quint32>(radius);
    auto it = m_sprites.find(key);
    if (it != m_sprites.end())
        return *it;
    const int side = 2 * radius + 4;
    QPixmap pixmap(QSize(side, side) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    RooflineMarker rounded = m;
    rounded.radius = static_cast<float>(radius);
    drawMarker(&p, rounded, QPointF(side / 2.0, side / 2.0), m_palette.value(m.color, Qt::gray));
    p.end();
    return *m_sprites.insert(key, pixmap);
}

void RooflinePointsItem::drawArrows(QPainter* painter) const
{
    if (m_arrows.empty())
        return;
    const QColor colour(90, 90, 90, 200);
    painter->setPen(QPen(colour, 1.2));
    painter->setBrush(colour);
    for (const auto& arrow : m_arrows) {
        const QPointF from = m_mapping.map(arrow.p1()), to = m_mapping.map(arrow.p2());
        const QLineF line(from, to);
        if (line.length() < 1.0)
            continue;
        painter->drawLine(line);
        const qreal angle = std::atan2(-line.dy(), line.dx());
        const qreal head = 8.0;
        const QPointF left = to - QPointF(std::cos(angle - M_PI / 7) * head, -std::sin(angle - M_PI / 7) * head);
        const QPointF right = to - QPointF(std::cos(angle + M_PI / 7) * head, -std::sin(angle + M_PI / 7) * head);
        painter->drawPolygon(QPolygonF({ to, left, right }));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(from, 3.0, 3.0); // the baseline position
        painter->setBrush(colour);
    }
}

void RooflinePointsItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF plot = m_mapping.plot;
    painter->save();
    painter->setClipRect(plot);
    painter->setRenderHint(QPainter::Antialiasing);
    drawArrows(painter);
    // Raster targets (screen, QImage, PNG) get cached sprites; vector ones (SVG, PDF) real shapes.
    const bool raster = painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster;
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    if (dpr != m_spriteDpr) {
        m_sprites.clear();
        m_spriteDpr = dpr;
    }
    const QRectF visible = plot.adjusted(-20, -20, 20, 20);
    for (std::size_t i = 0; i < m_markers.size(); ++i) {
        const QPointF pos = m_positions[i];
        if (!visible.contains(pos))
            continue;
        const auto& m = m_markers[i];
        if (raster) {
            const QPixmap& s = sprite(m, dpr);
            const qreal half = s.width() / dpr / 2.0;
            painter->drawPixmap(QPointF(pos.x() - half, pos.y() - half), s);
        } else {
            drawMarker(painter, m, pos, m_palette.value(m.color, Qt::gray));
        }
    }
    // The selection on top, with a ring that stands out on every verdict colour.
    for (const int i : m_highlighted) {
        if (i < 0 || static_cast<std::size_t>(i) >= m_markers.size())
            continue;
        const auto& m = m_markers[static_cast<std::size_t>(i)];
        const QPointF pos = m_positions[static_cast<std::size_t>(i)];
        drawMarker(painter, m, pos, m_palette.value(m.color, Qt::gray));
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(QColor(20, 20, 20), kHighlightWidth));
        painter->drawPath(shapePath(m.shape, pos, qreal(m.radius) + kHighlightWidth));
    }
    painter->restore();
}

} // namespace ridgeline::ui
