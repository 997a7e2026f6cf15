// SPDX-License-Identifier: MIT
#include "heatmapview.h"

#include "common/timeticks.h"
#include "tooltip.h"
#include "verdictcolors.h"

#include <QFontMetrics>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kRowHeight = 22; // the size hint's
constexpr int kMinRowHeight = 16; // the minimum size hint's, for up to kMinRowsShown rows
constexpr int kMinRowsShown = 8;
constexpr int kAxisHeight = 22;
constexpr int kMargin = 6;
constexpr int kMaxRowsShown = 16; // the size hint's height; more rows share the space given

QColor blend(const QColor& from, const QColor& to, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()), mix(from.blue(), to.blue()));
}

} // namespace

HeatMapView::HeatMapView(QWidget* parent)
    : QWidget(parent)
    , m_color(verdictColor(core::VerdictClass::CommunicationBound))
    , m_valueName(tr("busy"))
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void HeatMapView::setMap(core::RankTimeMap map)
{
    m_map = std::move(map);
    m_highlightedRow = -1;
    m_marked.reset();
    updateGeometry();
    update();
}

void HeatMapView::setColor(const QColor& color)
{
    m_color = color;
    update();
}

void HeatMapView::setValueName(const QString& name)
{
    m_valueName = name;
    update();
}

void HeatMapView::setHighlightedRow(int row)
{
    m_highlightedRow = row;
    update();
}

void HeatMapView::setMarkedWindow(std::optional<core::TimeWindow> window)
{
    m_marked = window;
    update();
}

QSize HeatMapView::sizeHint() const
{
    const int rows = std::clamp(static_cast<int>(m_map.rowCount()), 1, kMaxRowsShown);
    return { 640, rows * kRowHeight + kAxisHeight + 2 * kMargin };
}

QSize HeatMapView::minimumSizeHint() const
{
    const int rows = std::clamp(static_cast<int>(m_map.rowCount()), 1, kMinRowsShown);
    return { 240, rows * kMinRowHeight + kAxisHeight + 2 * kMargin };
}

int HeatMapView::labelWidth() const
{
    // The widest label as painted (the highlighted one bold, with its marker), then the share.
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    int width = metrics.horizontalAdvance(QStringLiteral("▶ rank 00 · GPU 0"));
    for (std::size_t r = 0; r < m_map.rowCount(); ++r)
        width = std::max(
            width, metrics.horizontalAdvance(QStringLiteral("▶ ") + QString::fromStdString(m_map.row(r).label)));
    width += QFontMetrics(font()).horizontalAdvance(QStringLiteral("  100 %")) + 2 * kMargin;
    return std::min(width + kMargin, std::max(120, this->width() / 2));
}

QRect HeatMapView::cellsArea() const
{
    const int left = labelWidth();
    return { left, kMargin, std::max(1, width() - left - kMargin), std::max(1, height() - kAxisHeight - 2 * kMargin) };
}

QColor HeatMapView::cellColor(double value) const
{
    return blend(palette().color(QPalette::Base), m_color, value);
}

std::optional<std::pair<int, int>> HeatMapView::cellAt(QPoint pos) const
{
    const QRect area = cellsArea();
    if (m_map.empty() || !area.contains(pos))
        return std::nullopt;
    const int rows = static_cast<int>(m_map.rowCount());
    const int row = std::clamp((pos.y() - area.top()) * rows / area.height(), 0, rows - 1);
    const int bin = std::clamp((pos.x() - area.left()) * m_map.bins() / area.width(), 0, m_map.bins() - 1);
    return std::pair { row, bin };
}

QString HeatMapView::toolTipAt(QPoint pos) const
{
    const auto cell = cellAt(pos);
    if (!cell)
        return {};
    const auto [row, bin] = *cell;
    const core::TimeWindow w = m_map.binWindow(bin);
    const auto origin = m_map.window().startNs;
    return tr("<b>%1</b><br>%2 – %3: %4 % %5")
        .arg(QString::fromStdString(m_map.row(static_cast<std::size_t>(row)).label).toHtmlEscaped(),
            durationText(static_cast<double>(w.startNs - origin)), durationText(static_cast<double>(w.endNs - origin)),
            QString::number(100.0 * m_map.value(static_cast<std::size_t>(row), bin), 'f', 1), m_valueName);
}

void HeatMapView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect area = cellsArea();
    if (m_map.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No time %1 to show.").arg(m_valueName));
        return;
    }
    if (static_cast<int>(m_map.rowCount()) > area.height())
        paintDenseCells(p, area);
    else
        paintCells(p, area);
    paintLabels(p, area);
    p.setFont(font());
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(area.adjusted(0, 0, -1, -1));
    if (m_marked) {
        const auto& w = m_map.window();
        const double span = static_cast<double>(w.endNs - w.startNs);
        auto xOf = [&](std::int64_t t) {
            return area.left()
                + static_cast<int>(std::lround(static_cast<double>(t - w.startNs) / span * area.width()));
        };
        const int x0 = std::clamp(xOf(m_marked->startNs), area.left(), area.right());
        const int x1 = std::clamp(xOf(m_marked->endNs), x0 + 1, area.right() + 1);
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawRect(QRect(x0 - 1, area.top(), x1 - x0 + 2, area.height()));
    }

    // Time axis: ticks of 1, 2 or 5 x 10^k from the window's start.
    const QFontMetrics metrics(font());
    const auto& w = m_map.window();
    const double nsPerPixel = static_cast<double>(w.endNs - w.startNs) / area.width();
    const std::int64_t step = niceTickStep(nsPerPixel * 90);
    p.setPen(palette().color(QPalette::WindowText));
    for (std::int64_t offset = 0; offset <= w.endNs - w.startNs; offset += step) {
        const int x = area.left() + static_cast<int>(std::lround(static_cast<double>(offset) / nsPerPixel));
        p.drawLine(x, area.bottom() + 1, x, area.bottom() + 4);
        const QString text = tickLabel(offset, step);
        const int textWidth = metrics.horizontalAdvance(text);
        p.drawText(QRect(std::min(x + 2, area.right() - textWidth), area.bottom() + 4, textWidth + 2, kAxisHeight - 4),
            Qt::AlignLeft | Qt::AlignTop, text);
    }
}

void HeatMapView::paintCells(QPainter& p, const QRect& area) const
{
    const int rows = static_cast<int>(m_map.rowCount());
    const int bins = m_map.bins();
    for (int r = 0; r < rows; ++r) {
        const int top = area.top() + r * area.height() / rows, bottom = area.top() + (r + 1) * area.height() / rows;
        for (int b = 0; b < bins; ++b) {
            const int left = area.left() + static_cast<int>(static_cast<qint64>(b) * area.width() / bins);
            const int right = area.left() + static_cast<int>(static_cast<qint64>(b + 1) * area.width() / bins);
            if (right > left)
                p.fillRect(QRect(left, top, right - left, std::max(1, bottom - top - 1)),
                    cellColor(m_map.value(static_cast<std::size_t>(r), b)));
        }
    }
}

// More rows than pixels (a thousand ranks): each pixel row is the mean of the rows it covers,
// drawn as one image scaled to the area's width.
void HeatMapView::paintDenseCells(QPainter& p, const QRect& area) const
{
    const int rows = static_cast<int>(m_map.rowCount());
    const int bins = m_map.bins();
    QImage image(bins, area.height(), QImage::Format_RGB32);
    for (int y = 0; y < area.height(); ++y) {
        const int first = y * rows / area.height();
        const int last = std::max(first + 1, (y + 1) * rows / area.height());
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int b = 0; b < bins; ++b) {
            double sum = 0;
            for (int r = first; r < last; ++r)
                sum += m_map.value(static_cast<std::size_t>(r), b);
            line[b] = cellColor(sum / (last - first)).rgb();
        }
    }
    p.drawImage(area, image);
}

// Row labels with each row's share, as many as fit without overlapping (every k-th row when the
// rows are thinner than the text); the highlighted row's label always, in bold with a marker.
void HeatMapView::paintLabels(QPainter& p, const QRect& area) const
{
    const int rows = static_cast<int>(m_map.rowCount());
    const QFontMetrics metrics(font());
    const double rowHeight = static_cast<double>(area.height()) / rows;
    const int every = std::max(1, static_cast<int>(std::ceil(metrics.height() / rowHeight)));
    const auto drawLabel = [&](int r) {
        const int centre = area.top() + static_cast<int>((r + 0.5) * rowHeight);
        const int height = std::max(metrics.height(), static_cast<int>(rowHeight));
        const QRect label(kMargin, centre - height / 2, area.left() - 2 * kMargin, height);
        QFont labelFont = font();
        labelFont.setBold(r == m_highlightedRow);
        p.setFont(labelFont);
        if (every > 1)
            p.fillRect(label, palette().window());
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
            (r == m_highlightedRow ? QStringLiteral("▶ ") : QString())
                + QString::fromStdString(m_map.row(static_cast<std::size_t>(r)).label));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(label, Qt::AlignVCenter | Qt::AlignRight,
            QString::number(100.0 * m_map.rowShare(static_cast<std::size_t>(r)), 'f', 0) + QStringLiteral(" %"));
    };
    for (int r = 0; r < rows; r += every) {
        if (every == 1 || m_highlightedRow < 0 || std::abs(r - m_highlightedRow) >= every)
            drawLabel(r);
    }
    if (m_highlightedRow >= 0 && m_highlightedRow < rows) {
        drawLabel(m_highlightedRow);
        if (every > 1) { // the row itself is thinner than its label: a line marks it
            const int y = area.top() + static_cast<int>((m_highlightedRow + 0.5) * rowHeight);
            p.setPen(QPen(palette().color(QPalette::Highlight), 1));
            p.drawLine(area.left() - kMargin, y, area.left() - 1, y);
        }
    }
    p.setFont(font());
}

void HeatMapView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto cell = cellAt(event->position().toPoint()))
        Q_EMIT cellClicked(cell->first, m_map.binWindow(cell->second));
}

bool HeatMapView::event(QEvent* event)
{
    if (showToolTip(event, this, [this](QPoint pos) { return toolTipAt(pos); }))
        return true;
    return QWidget::event(event);
}

} // namespace ridgeline::ui

#include "moc_heatmapview.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
