// SPDX-License-Identifier: MIT
// The kernel points (and baseline arrows) of the roofline, drawn as one QGraphicsItem over the
// chart's plot area. Qt Charts' QScatterSeries makes one QGraphicsItem per point, far too slow
// at 100 k points (docs/PERFORMANCE.md, "Roofline view"); this item paints them from arrays with
// cached marker sprites and answers hit tests from a grid of cells.
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QHash>
#include <QLineF>
#include <QPixmap>
#include <QRectF>
#include <vector>

namespace ridgeline::ui {

enum class MarkerShape : quint8 { Circle, Square, Triangle };

struct RooflineMarker {
    QPointF value; // (FLOP/byte, FLOP/s)
    float radius = 4; // pixels
    quint8 color = 0; // index into the palette
    MarkerShape shape = MarkerShape::Circle;
    bool hollow = false; // figures worked out from operator shapes, not counted
};

// Log-log mapping of values to scene positions inside the plot area.
struct LogMapping {
    QRectF plot;
    double xMinLog = 0, xMaxLog = 1, yMinLog = 0, yMaxLog = 1;
    QPointF map(QPointF value) const;
    QPointF mapLog(QPointF logValue) const; // (log10 x, log10 y)
};

class RooflinePointsItem final : public QGraphicsItem {
public:
    explicit RooflinePointsItem(QGraphicsItem* parent = nullptr);

    // Markers are painted in order: later ones on top.
    void setMarkers(std::vector<RooflineMarker> markers, QList<QColor> palette);
    void setArrows(std::vector<QLineF> arrows); // in values: from the baseline to the current point
    void setHighlighted(std::vector<int> markers);
    void setMapping(const LogMapping& mapping);

    const std::vector<RooflineMarker>& markers() const { return m_markers; }
    const std::vector<QLineF>& arrows() const { return m_arrows; }
    const std::vector<int>& highlighted() const { return m_highlighted; }
    const LogMapping& mapping() const { return m_mapping; }
    QPointF scenePosition(int marker) const { return m_positions.at(static_cast<std::size_t>(marker)); }
    // The topmost marker under a scene position, or -1.
    int markerAt(QPointF scenePos) const;

    QRectF boundingRect() const override { return m_mapping.plot; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void relayout();
    const QPixmap& sprite(const RooflineMarker& marker, qreal dpr);
    void drawArrows(QPainter* painter) const;

    std::vector<RooflineMarker> m_markers;
    QList<QColor> m_palette;
    std::vector<QLineF> m_arrows;
    std::vector<int> m_highlighted;
    LogMapping m_mapping;
    std::vector<QPointF> m_logValues; // log10 of the markers' values, computed once per setMarkers
    std::vector<QPointF> m_positions; // scene positions of the markers
    // Hit-test grid: marker indexes per cell of kCell x kCell pixels of the plot area.
    std::vector<std::vector<int>> m_cells;
    int m_columns = 0, m_rows = 0;
    QHash<quint32, QPixmap> m_sprites;
    qreal m_spriteDpr = 0;
};

} // namespace ridgeline::ui
