// SPDX-License-Identifier: MIT
#include "instanceoverlay.h"

#include "common/timeticks.h"
#include "ridgeline/core/timeline/timelinecollectives.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

// x of time t on `area` showing `window`, not clamped (the caller clips).
double xOf(std::int64_t t, core::TimeWindow window, const QRect& area)
{
    const double span = static_cast<double>(window.endNs - window.startNs);
    return area.left() + static_cast<double>(t - window.startNs) / span * area.width();
}

int clampedX(double x, const QRect& area)
{
    return static_cast<int>(std::lround(std::clamp(x, area.left() - 2.0, area.right() + 2.0)));
}

} // namespace

QColor InstanceOverlay::color()
{
    return { 0x00, 0x96, 0xd6 };
}

QColor InstanceOverlay::waitColor()
{
    return { 0xe0, 0x40, 0x40, 110 };
}

bool InstanceOverlay::set(const core::TimelineData& data, const core::CollectiveInstance& instance)
{
    clear();
    if (instance.members.empty())
        return false;
    bool any = false;
    for (const auto& m : instance.members) {
        Member member { m.rank, m.startNs, m.endNs, m.waitNs, core::findCollectiveOp(data, m.rank, m.opId, m.startNs) };
        any = any || member.op.has_value();
        m_members.push_back(member);
    }
    if (!any) {
        m_members.clear();
        return false;
    }
    m_instance = instance;
    m_span = { m_members.front().startNs, m_members.front().endNs };
    m_latestStart = m_members.front().startNs;
    for (const auto& m : m_members) {
        m_span.startNs = std::min(m_span.startNs, m.startNs);
        m_span.endNs = std::max(m_span.endNs, m.endNs);
        m_latestStart = std::max(m_latestStart, m.startNs);
    }
    return true;
}

void InstanceOverlay::clear()
{
    m_instance = {};
    m_members.clear();
    m_span = {};
    m_latestStart = 0;
}

std::optional<core::TimelineGpuOpRef> InstanceOverlay::firstOp() const
{
    for (const auto& m : m_members) {
        if (m.op)
            return m.op;
    }
    return std::nullopt;
}

void InstanceOverlay::paint(QPainter& p, const QRect& timeArea, int contentTop, core::TimeWindow window,
    const TimelineLayout& layout, const QPalette& palette) const
{
    if (m_members.empty() || window.endNs <= window.startNs)
        return;
    p.save();
    p.setClipRect(timeArea);
    p.setRenderHint(QPainter::Antialiasing, false);
    int top = timeArea.bottom(), bottom = timeArea.top();
    const int latestX = clampedX(xOf(m_latestStart, window, timeArea), timeArea);
    for (const auto& m : m_members) {
        const TimelineBand* band = m.op ? layout.bandOfRow(m.op->row) : nullptr;
        if (!band)
            continue;
        const int y = contentTop + band->y;
        top = std::min(top, y);
        bottom = std::max(bottom, y + band->height);
        const int x0 = clampedX(xOf(m.startNs, window, timeArea), timeArea);
        const int x1 = std::max(x0 + 1, clampedX(xOf(m.endNs, window, timeArea), timeArea));
        // The wait: from this rank's start to the latest start, when it is visible at this zoom. Its
        // text goes after the op (whose own name is drawn on it) when there is room there.
        if (m.waitNs > 0 && latestX > x0) {
            p.fillRect(QRect(x0, y + 1, latestX - x0, band->height - 2), waitColor());
            const QString text = tr("rank %1 waits %2").arg(m.rank).arg(durationText(static_cast<double>(m.waitNs)));
            const int needed = QFontMetrics(p.font()).horizontalAdvance(text) + 8;
            const int from = latestX - x1 >= needed ? x1 : x0;
            if (latestX - from >= needed) {
                p.setPen(palette.color(QPalette::Text));
                p.drawText(QRect(from + 4, y, latestX - from - 8, band->height), Qt::AlignVCenter | Qt::AlignRight, text);
            }
        }
        p.setPen(QPen(color(), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(x0 - 1, y, x1 - x0 + 2, band->height - 1));
    }
    if (bottom <= top) {
        p.restore();
        return;
    }
    // The latest start across the members' lanes: where the last rank arrives.
    p.setPen(QPen(color(), 2, Qt::DashLine));
    p.drawLine(latestX, top - 6, latestX, bottom + 6);
    QString label = m_instance.lastRank >= 0
        ? tr("%1 #%2: rank %3 arrives last · start skew %4 · end skew %5")
              .arg(QString::fromStdString(m_instance.collective))
              .arg(m_instance.index)
              .arg(m_instance.lastRank)
              .arg(durationText(static_cast<double>(m_instance.startSkewNs)),
                  durationText(static_cast<double>(m_instance.endSkewNs)))
        : tr("%1 #%2: every rank starts together · end skew %3")
              .arg(QString::fromStdString(m_instance.collective))
              .arg(m_instance.index)
              .arg(durationText(static_cast<double>(m_instance.endSkewNs)));
    const QFontMetrics metrics(p.font());
    const int width = metrics.horizontalAdvance(label) + 10;
    const int labelX = std::clamp(latestX + 4, timeArea.left() + 2, std::max(timeArea.left() + 2, timeArea.right() - width));
    const int labelY = std::max(timeArea.top() + 2, top - 6 - metrics.height() - 2);
    const QRect box(labelX, labelY, width, metrics.height() + 2);
    p.fillRect(box, palette.color(QPalette::ToolTipBase));
    p.setPen(color());
    p.drawRect(box.adjusted(0, 0, -1, -1));
    p.setPen(palette.color(QPalette::ToolTipText));
    p.drawText(box, Qt::AlignCenter, label);
    p.restore();
}

} // namespace ridgeline::ui
