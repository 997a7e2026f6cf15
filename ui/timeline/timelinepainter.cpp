// SPDX-License-Identifier: MIT
#include "timelinepainter.h"

#include "common/timeticks.h"
#include "common/verdictcolors.h"

#include <QFontMetrics>
#include <QLineF>
#include <QPainter>
#include <QPolygonF>
#include <QRect>
#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

const QColor kMemcpyColor(0x3c, 0xb3, 0x71);
const QColor kMemsetColor(0x9c, 0xc1, 0x5a);
const QColor kMarkColor(0xff, 0xc8, 0x00);

QColor textOn(const QColor& fill)
{
    return fill.lightnessF() > 0.55F ? QColor(Qt::black) : QColor(Qt::white);
}

// A stable hue per name for host items, muted so that GPU ops stand out.
QColor nameColor(std::int32_t nameIndex, int saturation, int value)
{
    const auto hash = static_cast<std::uint32_t>(nameIndex) * 2654435761U;
    return QColor::fromHsv(static_cast<int>(hash % 360U), saturation, value);
}

} // namespace

TimelinePainter::TimelinePainter()
{
    for (std::size_t v = 0; v < m_verdictColors.size(); ++v)
        m_verdictColors[v] = verdictColor(core::kVerdictClasses.at(v));
    m_small.setPointSizeF(std::max(6.0, m_small.pointSizeF() * 0.85));
}

QColor TimelinePainter::colorOf(
    core::TimelineItemKind kind, core::VerdictClass verdict, std::int32_t nameIndex) const
{
    switch (kind) {
    case core::TimelineItemKind::Kernel:
    case core::TimelineItemKind::Collective:
        return m_verdictColors[static_cast<std::size_t>(verdict)];
    case core::TimelineItemKind::Memcpy:
        return kMemcpyColor;
    case core::TimelineItemKind::Memset:
        return kMemsetColor;
    case core::TimelineItemKind::ApiCall:
        return nameColor(nameIndex, 50, 200);
    case core::TimelineItemKind::NvtxRange:
        return nameColor(nameIndex, 110, 225);
    case core::TimelineItemKind::Operator:
        return nameColor(nameIndex, 80, 235);
    case core::TimelineItemKind::IdleGap:
        break;
    }
    return QColor(0x9a, 0x9a, 0x9a);
}

int TimelinePainter::paint(QPainter& p, const QRect& rect, const QPalette& palette, const TimelineFrame& frame)
{
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect, palette.base());
    const QRect bandsArea(rect.left(), rect.top() + kRulerHeight, rect.width(), rect.height() - kRulerHeight);
    const QRect timeArea(
        rect.left() + frame.labelWidth, bandsArea.top(), rect.width() - frame.labelWidth, bandsArea.height());
    if (!frame.data || !frame.layout || frame.layout->bands().empty() || timeArea.width() < 1) {
        p.setPen(palette.color(QPalette::PlaceholderText));
        p.drawText(
            rect, Qt::AlignCenter, frame.data ? tr("This session has no timeline events.") : tr("No session open."));
        return 0;
    }
    const auto& bands = frame.layout->bands();
    VisibleBands visible;
    visible.top = bandsArea.top() - frame.scrollY;
    visible.first = frame.layout->firstBandBelow(frame.scrollY);
    visible.last = visible.first;
    while (visible.last < bands.size() && bands[visible.last].y + visible.top < bandsArea.bottom() + 1)
        ++visible.last;

    p.setClipRect(bandsArea);
    paintBackgrounds(p, rect, palette, frame, visible);
    p.setClipRect(timeArea);
    int drawn = paintIdleGaps(p, bandsArea, timeArea, palette, frame, visible);
    // Items, row by row.
    for (std::size_t b = visible.first; b < visible.last; ++b) {
        if (bands[b].kind == TimelineBand::Kind::Row && !bands[b].idle)
            drawn += paintRow(p, bands[b], visible.top, timeArea, frame);
    }
    if (frame.hovered)
        paintOutline(p, *frame.hovered, visible.top, timeArea, frame, palette.color(QPalette::Text), 1);
    if (frame.selected)
        paintOutline(p, *frame.selected, visible.top, timeArea, frame, palette.color(QPalette::Highlight), 3);
    if (frame.selected && (frame.launchingCall || (frame.operators && !frame.operators->empty())))
        paintLaunchFlow(p, visible.top, timeArea, frame, palette.color(QPalette::Highlight));

    p.setClipRect(bandsArea);
    paintLabels(p, rect, bandsArea, palette, frame, visible);
    p.setClipping(false);
    p.setPen(palette.color(QPalette::Mid));
    p.drawLine(timeArea.left() - 1, rect.top(), timeArea.left() - 1, rect.bottom());
    paintRuler(p, rect, palette, frame);
    return drawn;
}

// Headers across the width, lanes alternating.
void TimelinePainter::paintBackgrounds(QPainter& p, const QRect& rect, const QPalette& palette,
    const TimelineFrame& frame, const VisibleBands& visible) const
{
    const auto& bands = frame.layout->bands();
    const QColor header = palette.color(QPalette::Button);
    const QColor alternate = palette.color(QPalette::AlternateBase);
    for (std::size_t b = visible.first; b < visible.last; ++b) {
        const auto& band = bands[b];
        const QRect r(rect.left(), band.y + visible.top, rect.width(), band.height);
        if (band.kind != TimelineBand::Kind::Row)
            p.fillRect(r, header);
        else if (band.lane % 2 == 1)
            p.fillRect(r, alternate);
    }
}

// Idle gaps: hatched in their own thin row and tinted down through the device's lanes.
int TimelinePainter::paintIdleGaps(QPainter& p, const QRect& bandsArea, const QRect& timeArea,
    const QPalette& palette, const TimelineFrame& frame, const VisibleBands& visible)
{
    const auto& bands = frame.layout->bands();
    const int top = visible.top;
    const core::PixelGrid grid(frame.window, timeArea.width());
    int drawn = 0;
    const QColor tint(128, 128, 128, 48);
    const QBrush hatch(palette.color(QPalette::Mid), Qt::BDiagPattern);
    for (std::size_t b = 0; b < visible.last; ++b) { // a device's idle row may be above the view, its lanes in it
        const auto& band = bands[b];
        if (!band.idle || band.groupEnd + top < bandsArea.top())
            continue;
        m_items.clear();
        frame.data->row(band.row).lod(grid, m_items);
        drawn += static_cast<int>(m_items.size());
        for (const auto& it : m_items) {
            const int x0
                = timeArea.left() + static_cast<int>(grid.columnOf(std::max(it.startNs, grid.window().startNs)));
            const int x1
                = timeArea.left() + static_cast<int>(grid.columnOf(std::min(it.endNs, grid.window().endNs) - 1)) + 1;
            const int w = std::max(1, x1 - x0);
            p.fillRect(x0, band.bottom() + top, w, band.groupEnd - band.bottom(), tint);
            p.fillRect(x0, band.y + top, w, band.height, hatch);
        }
    }
    return drawn;
}

// Labels and headers over the left column.
void TimelinePainter::paintLabels(QPainter& p, const QRect& rect, const QRect& bandsArea, const QPalette& palette,
    const TimelineFrame& frame, const VisibleBands& visible) const
{
    const auto& bands = frame.layout->bands();
    const QColor header = palette.color(QPalette::Button);
    p.fillRect(QRect(rect.left(), bandsArea.top(), frame.labelWidth, bandsArea.height()), palette.window());
    const QFontMetrics fm(p.font());
    for (std::size_t b = visible.first; b < visible.last; ++b) {
        const auto& band = bands[b];
        const int y = band.y + visible.top;
        if (band.kind != TimelineBand::Kind::Row) {
            QFont bold = p.font();
            bold.setBold(band.kind == TimelineBand::Kind::RankHeader);
            p.setFont(bold);
            p.fillRect(QRect(rect.left(), y, frame.labelWidth, band.height), header);
            p.setPen(palette.color(QPalette::ButtonText));
            p.drawText(QRect(rect.left() + 6, y, rect.width() - 12, band.height), Qt::AlignVCenter | Qt::AlignLeft,
                band.label);
            p.setFont(QFont());
        } else if (band.idle) {
            p.setFont(m_small);
            p.setPen(palette.color(QPalette::PlaceholderText));
            p.drawText(QRect(rect.left() + 14, y, frame.labelWidth - 18, band.height), Qt::AlignVCenter | Qt::AlignLeft,
                band.label);
            p.setFont(QFont());
        } else if (!band.label.isEmpty()) {
            p.setPen(palette.color(QPalette::WindowText));
            p.drawText(QRect(rect.left() + 14, y, frame.labelWidth - 18, band.height), Qt::AlignVCenter | Qt::AlignLeft,
                fm.elidedText(band.label, Qt::ElideRight, frame.labelWidth - 18));
        }
    }
}

int TimelinePainter::paintRow(
    QPainter& p, const TimelineBand& band, int top, const QRect& area, const TimelineFrame& frame)
{
    const core::TimelineRow& row = frame.data->row(band.row);
    const core::PixelGrid grid(frame.window, area.width());
    m_items.clear();
    row.lod(grid, m_items);
    const int y = band.y + top + 2;
    const int h = band.height - 4;
    const QFontMetrics fm(m_small);
    const std::int64_t t0 = grid.window().startNs, t1 = grid.window().endNs;
    auto xOf = [&](const core::LodItem& it, int& x0) {
        x0 = area.left() + static_cast<int>(grid.columnOf(std::max(it.startNs, t0)));
        const int x1 = area.left() + static_cast<int>(grid.columnOf(std::max(std::min(it.endNs, t1) - 1, t0))) + 1;
        return std::max(1, x1 - x0);
    };
    for (const auto& it : m_items) {
        int x0 = 0;
        const int w = xOf(it, x0);
        const std::int32_t name = it.count == 1 ? row.item(it.first).nameIndex : -1;
        const QColor fill = colorOf(it.kind, it.verdict, name);
        p.fillRect(x0, y, w, h, fill);
        // Names only where they fit: bounded by the row's width, not by the ops in view.
        if (w > 36) {
            const QString text = it.count == 1 ? QString::fromUtf8(frame.data->name(name)) : tr("%1 ops").arg(it.count);
            p.setFont(m_small);
            p.setPen(textOn(fill));
            p.drawText(QRect(std::max(x0, area.left()) + 3, y, std::min(w, area.width()) - 6, h),
                Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideRight, std::min(w, area.width()) - 6));
        }
    }
    int drawn = static_cast<int>(m_items.size());
    if (frame.marks && band.row < frame.marks->byRow.size() && !frame.marks->byRow[band.row].empty()) {
        m_items.clear();
        row.lod(grid, frame.marks->byRow[band.row], m_items);
        p.setPen(QPen(kMarkColor, 2));
        p.setBrush(Qt::NoBrush);
        for (const auto& it : m_items) {
            int x0 = 0;
            const int w = xOf(it, x0);
            p.drawRect(x0 - 1, y - 1, w + 1, h + 1);
        }
        drawn += static_cast<int>(m_items.size());
    }
    return drawn;
}

std::optional<QRect> TimelinePainter::opRect(
    core::TimelineGpuOpRef ref, int top, const QRect& area, const TimelineFrame& frame) const
{
    const TimelineBand* band = frame.layout->bandOfRow(ref.row);
    if (!band || ref.row >= frame.data->rowCount() || ref.index >= frame.data->row(ref.row).size())
        return std::nullopt;
    const core::PixelGrid grid(frame.window, area.width());
    const auto& row = frame.data->row(ref.row);
    const std::int64_t s = std::clamp(row.startNs(ref.index), grid.window().startNs, grid.window().endNs);
    const std::int64_t e = std::clamp(row.endNs(ref.index), grid.window().startNs, grid.window().endNs);
    const int x0 = area.left() + static_cast<int>(grid.columnOf(s));
    const int x1 = area.left() + static_cast<int>(grid.columnOf(std::max(e - 1, s))) + 1;
    return QRect(x0 - 1, band->y + top + 1, std::max(1, x1 - x0) + 1, band->height - 2);
}

void TimelinePainter::paintOutline(QPainter& p, core::TimelineGpuOpRef ref, int top, const QRect& area,
    const TimelineFrame& frame, const QColor& color, int width) const
{
    const auto box = opRect(ref, top, area, frame);
    if (!box)
        return;
    p.setPen(QPen(color, width));
    p.setBrush(Qt::NoBrush);
    p.drawRect(*box);
}

void TimelinePainter::paintLaunchFlow(
    QPainter& p, int top, const QRect& area, const TimelineFrame& frame, const QColor& color) const
{
    if (frame.operators) {
        // The stack, outer ones thin; the innermost (the operator that launched it) as the call is.
        for (std::size_t i = frame.operators->size(); i-- > 0;)
            paintOutline(p, (*frame.operators)[i], top, area, frame, color, i == 0 ? 2 : 1);
        if (!frame.operators->empty())
            paintArrow(p, frame.operators->front(), top, area, frame, color, Qt::DashLine);
    }
    if (frame.launchingCall) {
        paintOutline(p, *frame.launchingCall, top, area, frame, color, 2);
        paintArrow(p, *frame.launchingCall, top, area, frame, color, Qt::SolidLine);
    }
}

void TimelinePainter::paintArrow(QPainter& p, core::TimelineGpuOpRef from, int top, const QRect& area,
    const TimelineFrame& frame, const QColor& color, Qt::PenStyle style) const
{
    const auto source = opRect(from, top, area, frame);
    const auto kernel = opRect(*frame.selected, top, area, frame);
    if (!source || !kernel)
        return;
    // From the source's start down (or up) to the kernel's start, as Perfetto draws its flow events.
    const bool down = kernel->top() > source->bottom();
    const QPointF start(source->left() + 1, down ? source->bottom() : source->top());
    const QPointF to(kernel->left() + 1, down ? kernel->top() : kernel->bottom());
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(color, 1.5, style));
    p.drawLine(start, to);
    const QLineF line(to, start);
    const double head = 7;
    QLineF left = line, right = line;
    left.setLength(head);
    right.setLength(head);
    left.setAngle(line.angle() + 25);
    right.setAngle(line.angle() - 25);
    p.setPen(QPen(color, 1.5));
    p.setBrush(color);
    p.drawPolygon(QPolygonF({ to, left.p2(), right.p2() }));
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelinePainter::paintRuler(
    QPainter& p, const QRect& rect, const QPalette& palette, const TimelineFrame& frame) const
{
    const QRect ruler(rect.left(), rect.top(), rect.width(), kRulerHeight);
    p.fillRect(ruler, palette.window());
    p.setPen(palette.color(QPalette::Mid));
    p.drawLine(ruler.bottomLeft(), ruler.bottomRight());
    const int width = rect.width() - frame.labelWidth;
    const core::PixelGrid grid(frame.window, width);
    const std::int64_t origin = frame.data->extent().startNs;
    const std::int64_t step = niceTickStep(90 * grid.nsPerPixel());
    const std::int64_t t0 = grid.window().startNs;
    std::int64_t k = (t0 - origin) / step;
    if (origin + k * step < t0)
        ++k;
    p.setFont(m_small);
    for (std::int64_t t = origin + k * step; t < grid.window().endNs; t += step) {
        const int x = rect.left() + frame.labelWidth + static_cast<int>(grid.columnOf(t));
        p.setPen(palette.color(QPalette::Mid));
        p.drawLine(x, ruler.bottom() - 6, x, ruler.bottom());
        p.setPen(palette.color(QPalette::WindowText));
        p.drawText(x + 3, ruler.top() + 2, 120, kRulerHeight - 8, Qt::AlignLeft | Qt::AlignVCenter,
            tickLabel(t - origin, step));
    }
    p.setPen(palette.color(QPalette::WindowText));
    p.drawText(QRect(rect.left() + 6, ruler.top(), frame.labelWidth - 12, kRulerHeight), Qt::AlignVCenter,
        tr("%1 / px").arg(durationText(grid.nsPerPixel())));
}

} // namespace ridgeline::ui
