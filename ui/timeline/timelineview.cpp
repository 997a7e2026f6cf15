// SPDX-License-Identifier: MIT
#include "timelineview.h"

#include "common/timeticks.h"
#include "common/tooltip.h"

#include <QCursor>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kDragThreshold = 4; // pixels a press may move and still be a click
constexpr int kHitTolerance = 3; // pixels around an op that still hover or click it
// Data times are within ±2^61 ns (timelinerow.h clamps them); window ends stay within ±3·2^60 ns
// and windows at most that long, so no sum or difference below overflows int64.
constexpr std::int64_t kWindowLimit = std::int64_t { 3 } << 60;

// Session times are epoch nanoseconds (~1.7e18), where a double is only good to 256 ns: offsets
// are computed in doubles, positions in integers.
std::int64_t toOffset(double ns)
{
    const auto limit = static_cast<double>(kWindowLimit);
    return std::llround(std::clamp(ns, -limit, limit));
}

// A window starting `shift` ns after `start` and `length` long, kept within ±kWindowLimit.
core::TimeWindow windowAt(std::int64_t start, double shift, std::int64_t length)
{
    const std::int64_t moved = std::clamp(start + toOffset(shift), -kWindowLimit, kWindowLimit - length);
    return { moved, moved + length };
}

bool isKernel(core::TimelineItemKind kind)
{
    return kind == core::TimelineItemKind::Kernel || kind == core::TimelineItemKind::Collective;
}

} // namespace

TimelineView::TimelineView(SelectionModel* selection, QWidget* parent)
    : QAbstractScrollArea(parent)
    , m_selection(selection)
{
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    setMinimumSize(320, 160);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    if (m_selection)
        connect(m_selection, &SelectionModel::selectionChanged, this, &TimelineView::followSelection);
}

void TimelineView::setData(std::shared_ptr<const core::TimelineData> data)
{
    m_data = std::move(data);
    m_layout.build(m_data.get());
    m_marks = {};
    m_selectedOp.reset();
    m_launchingCall.reset();
    m_instance.clear();
    m_launchingOperators.clear();
    m_hovered.reset();
    verticalScrollBar()->setValue(0);
    updateScrollRange();
    fit();
    if (m_selection && !m_selection->current().isEmpty())
        followSelection(m_selection->current(), nullptr);
    viewport()->update();
}

int TimelineView::timeAreaWidth() const
{
    return std::max(1, viewport()->width() - m_labelWidth);
}

void TimelineView::fit()
{
    const core::TimeWindow e = m_data ? m_data->extent() : core::TimeWindow {};
    const std::int64_t length = std::max<std::int64_t>(e.endNs - e.startNs, 1000);
    setVisibleWindow({ e.startNs - length / 100, e.startNs + length + length / 100 });
}

void TimelineView::setVisibleWindow(core::TimeWindow window)
{
    const core::TimeWindow e = m_data ? m_data->extent() : core::TimeWindow {};
    const std::int64_t extent = std::max<std::int64_t>(e.endNs - e.startNs, 1000);
    // From 10 pixels per ns to twice the whole session.
    const std::int64_t minLength = std::max<std::int64_t>(10, timeAreaWidth() / 10);
    const std::int64_t maxLength = std::max(minLength, 2 * std::min(kWindowLimit / 2, extent));
    const std::int64_t length = std::clamp(window.endNs - window.startNs, minLength, maxLength);
    std::int64_t start = window.startNs + (window.endNs - window.startNs - length) / 2;
    start = std::clamp(start, e.startNs - length / 2, std::max(e.startNs - length / 2, e.endNs - length / 2));
    const core::TimeWindow clamped { start, start + length };
    if (clamped.startNs == m_window.startNs && clamped.endNs == m_window.endNs)
        return;
    m_window = clamped;
    viewport()->update();
    Q_EMIT visibleWindowChanged();
}

void TimelineView::zoomBy(double factor, std::optional<int> anchorX)
{
    if (!(factor > 0))
        return;
    const int width = timeAreaWidth();
    const double offset = std::clamp(anchorX ? *anchorX - m_labelWidth : width / 2, 0, width);
    const double nsPerPixel = static_cast<double>(m_window.endNs - m_window.startNs) / width;
    const double newNsPerPixel = std::max(nsPerPixel / factor, 0.1);
    const std::int64_t length = std::max<std::int64_t>(1, toOffset(newNsPerPixel * width));
    setVisibleWindow(windowAt(m_window.startNs, offset * (nsPerPixel - newNsPerPixel), length));
}

void TimelineView::panByPixels(int dx)
{
    const double nsPerPixel = static_cast<double>(m_window.endNs - m_window.startNs) / timeAreaWidth();
    setVisibleWindow(windowAt(m_window.startNs, -dx * nsPerPixel, m_window.endNs - m_window.startNs));
}

std::optional<core::TimelineGpuOpRef> TimelineView::opAt(QPoint pos) const
{
    if (!m_data || pos.x() < m_labelWidth || pos.y() < TimelinePainter::kRulerHeight)
        return std::nullopt;
    const TimelineBand* band = m_layout.bandAt(pos.y() - TimelinePainter::kRulerHeight + verticalScrollBar()->value());
    if (!band || band->kind != TimelineBand::Kind::Row || band->idle)
        return std::nullopt;
    const double nsPerPixel = static_cast<double>(m_window.endNs - m_window.startNs) / timeAreaWidth();
    const std::int64_t t = m_window.startNs + toOffset(std::floor((pos.x() - m_labelWidth + 0.5) * nsPerPixel));
    const auto tolerance = static_cast<std::int64_t>(std::ceil(kHitTolerance * nsPerPixel));
    const auto index = m_data->row(band->row).itemAt(t, tolerance);
    if (!index)
        return std::nullopt;
    return core::TimelineGpuOpRef { band->row, *index };
}

QString TimelineView::toolTipAt(QPoint pos) const
{
    const auto ref = opAt(pos);
    if (!ref)
        return {};
    const auto item = m_data->row(ref->row).item(ref->index);
    const auto& lane = m_data->laneOfRow(ref->row);
    QString text = QStringLiteral("<b>") + QString::fromUtf8(m_data->name(item.nameIndex)).toHtmlEscaped()
        + QStringLiteral("</b><br>")
        + tr("%1, %2").arg(
            QLatin1String(core::toString(item.kind)), durationText(static_cast<double>(item.endNs - item.startNs)));
    if (isKernel(item.kind) || item.kind == core::TimelineItemKind::Memcpy
        || item.kind == core::TimelineItemKind::Memset)
        text += QStringLiteral("<br>") + tr("Verdict: %1").arg(QLatin1String(core::toString(item.verdict)));
    if (item.kind == core::TimelineItemKind::Operator && m_operators) {
        const auto op = m_operators->lookup.find(item.sourceId);
        if (op != core::OperatorLookup::kNone && !m_operators->lookup.module(op).empty())
            text += QStringLiteral("<br>")
                + tr("Module: %1").arg(QString::fromUtf8(m_operators->lookup.module(op)).toHtmlEscaped());
    }
    text += QStringLiteral("<br>") + QString::fromStdString(lane.label).toHtmlEscaped();
    if (lane.rank >= 0)
        text += tr(" · rank %1").arg(lane.rank);
    if (const core::Device* device = m_data->device(lane.deviceId))
        text += tr(" · GPU %1").arg(device->ordinal);
    text += QStringLiteral("<br>")
        + tr("Starts at %1").arg(durationText(static_cast<double>(item.startNs - m_data->extent().startNs)));
    return text;
}

std::optional<QPoint> TimelineView::pointOf(core::TimelineGpuOpRef ref) const
{
    const TimelineBand* band = m_data ? m_layout.bandOfRow(ref.row) : nullptr;
    if (!band)
        return std::nullopt;
    const auto& row = m_data->row(ref.row);
    const std::int64_t s = std::max(row.startNs(ref.index), m_window.startNs);
    const std::int64_t e = std::min(row.endNs(ref.index), m_window.endNs);
    if (e < s)
        return std::nullopt;
    const core::PixelGrid grid(m_window, timeAreaWidth());
    const auto x = m_labelWidth + static_cast<int>((grid.columnOf(s) + grid.columnOf(std::max(e - 1, s))) / 2);
    const int y = TimelinePainter::kRulerHeight + band->y - verticalScrollBar()->value() + band->height / 2;
    const QPoint point(x, y);
    if (!viewport()->rect().contains(point) || x >= m_labelWidth + timeAreaWidth())
        return std::nullopt;
    return point;
}

void TimelineView::followSelection(const KernelSelection& selection, const QObject* origin)
{
    if (origin == this || !m_data)
        return;
    m_marks = selection.isEmpty() ? core::TimelineMarks {} : m_data->launchesOf(selection.nameId, selection.deviceId);
    m_selectedOp.reset();
    if (selection.launchId >= 0)
        m_selectedOp = m_data->findKernel(selection.launchId);
    findLaunchingCall();
    if (const auto target = m_selectedOp ? m_selectedOp : m_marks.earliest)
        reveal(*target);
    viewport()->update();
}

void TimelineView::showCollectiveInstance(const core::CollectiveInstance& instance)
{
    if (!m_data || !m_instance.set(*m_data, instance)) {
        m_instance.clear();
        viewport()->update();
        return;
    }
    // The whole instance with a quarter of its span on each side, and its first lane in view.
    const core::TimeWindow span = m_instance.span();
    const std::int64_t length = std::max<std::int64_t>(span.endNs - span.startNs, 1000);
    setVisibleWindow({ span.startNs - length / 4, span.endNs + length / 4 });
    if (const auto first = m_instance.firstOp())
        reveal(*first);
    viewport()->update();
}

void TimelineView::reveal(core::TimelineGpuOpRef ref)
{
    const auto& row = m_data->row(ref.row);
    const std::int64_t s = row.startNs(ref.index), e = row.endNs(ref.index);
    const std::int64_t length = m_window.endNs - m_window.startNs;
    if (s < m_window.startNs || e > m_window.endNs) {
        const std::int64_t shown = std::max(length, (e - s) * 3 / 2);
        const std::int64_t middle = s + (e - s) / 2;
        setVisibleWindow({ middle - shown / 2, middle - shown / 2 + shown });
    }
    if (const TimelineBand* band = m_layout.bandOfRow(ref.row)) {
        const int visible = viewport()->height() - TimelinePainter::kRulerHeight;
        const int scroll = verticalScrollBar()->value();
        if (band->y < scroll || band->bottom() > scroll + visible)
            verticalScrollBar()->setValue(band->y - visible / 2);
    }
}

void TimelineView::selectAt(QPoint pos)
{
    const auto ref = opAt(pos);
    m_selectedOp = ref;
    findLaunchingCall();
    if (!ref) {
        m_marks = {};
        if (m_selection)
            m_selection->clear(this);
        viewport()->update();
        return;
    }
    const auto item = m_data->row(ref->row).item(ref->index);
    const auto& lane = m_data->laneOfRow(ref->row);
    const std::int64_t nameId = m_data->kernelNameId(item.nameIndex);
    if (lane.kind == core::TimelineLaneKind::Stream && isKernel(item.kind) && nameId >= 0) {
        m_marks = m_data->launchesOf(nameId, lane.deviceId);
        if (m_selection)
            m_selection->select({ nameId, lane.deviceId, item.sourceId }, this);
    }
    viewport()->update();
}

void TimelineView::setOperators(std::shared_ptr<const core::SessionOperators> operators)
{
    m_operators = std::move(operators);
    if (m_data)
        findLaunchingCall();
    viewport()->update();
}

void TimelineView::findLaunchingCall()
{
    m_launchingCall.reset();
    m_launchingOperators.clear();
    if (!m_selectedOp || m_data->laneOfRow(m_selectedOp->row).kind != core::TimelineLaneKind::Stream
        || !isKernel(m_data->row(m_selectedOp->row).kind(m_selectedOp->index)))
        return;
    m_launchingCall = m_flow.launchingCall(*m_data, *m_selectedOp);
    if (!m_operators)
        return;
    const auto& lookup = m_operators->lookup;
    const auto launch = lookup.ofKernel(m_data->row(m_selectedOp->row).sourceId(m_selectedOp->index));
    if (launch.innermost == core::OperatorLookup::kNone)
        return;
    // Each operator of the stack, found on its thread's operator lane by its start and id.
    for (const std::uint32_t op : lookup.stack(launch.innermost)) {
        if (const auto ref = m_data->findHostItem(core::TimelineLaneKind::Operators, lookup.processId(op),
                lookup.threadId(op), lookup.startNs(op), lookup.id(op)))
            m_launchingOperators.push_back(*ref);
    }
}

void TimelineView::updateScrollRange()
{
    const int visible = std::max(0, viewport()->height() - TimelinePainter::kRulerHeight);
    verticalScrollBar()->setRange(0, std::max(0, m_layout.height() - visible));
    verticalScrollBar()->setPageStep(std::max(1, visible));
    verticalScrollBar()->setSingleStep(TimelineLayout::kDeviceRowHeight);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    const TimelineFrame frame { m_data.get(), &m_layout, m_window, verticalScrollBar()->value(), m_labelWidth, &m_marks,
        m_selectedOp, m_hovered, m_launchingCall, &m_launchingOperators };
    m_lastItems = m_painter.paint(p, viewport()->rect(), palette(), frame);
    if (!m_instance.empty()) {
        const QRect timeArea(m_labelWidth, TimelinePainter::kRulerHeight, timeAreaWidth(),
            viewport()->height() - TimelinePainter::kRulerHeight);
        m_instance.paint(
            p, timeArea, TimelinePainter::kRulerHeight - verticalScrollBar()->value(), m_window, m_layout, palette());
    }
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRange();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    m_pressPos = event->position().toPoint();
    m_pressWindow = m_window;
    m_pressScroll = verticalScrollBar()->value();
    m_dragging = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressPos && (event->buttons() & Qt::LeftButton)) {
        const QPoint delta = pos - *m_pressPos;
        if (!m_dragging && delta.manhattanLength() < kDragThreshold)
            return;
        m_dragging = true;
        viewport()->setCursor(Qt::ClosedHandCursor);
        const double nsPerPixel = static_cast<double>(m_pressWindow.endNs - m_pressWindow.startNs) / timeAreaWidth();
        setVisibleWindow(
            windowAt(m_pressWindow.startNs, -delta.x() * nsPerPixel, m_pressWindow.endNs - m_pressWindow.startNs));
        verticalScrollBar()->setValue(m_pressScroll - delta.y());
        return;
    }
    const auto hovered = opAt(pos);
    if (hovered != m_hovered) {
        m_hovered = hovered;
        viewport()->update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressPos)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    if (!m_dragging)
        selectAt(event->position().toPoint());
    m_pressPos.reset();
    m_dragging = false;
    viewport()->unsetCursor();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier)
        return QAbstractScrollArea::wheelEvent(event); // vertical scrolling
    if (delta.y() != 0)
        zoomBy(std::pow(1.0015, delta.y()), static_cast<int>(event->position().x()));
    if (delta.x() != 0)
        panByPixels(delta.x() / 2);
    event->accept();
}

QList<QPair<QString, QString>> TimelineView::keyBindings()
{
    return {
        { tr("Zoom in (around the mouse)"), tr("W, +, wheel up") },
        { tr("Zoom out (around the mouse)"), tr("S, -, wheel down") },
        { tr("Pan to earlier times"), tr("A, Left, drag to the right") },
        { tr("Pan to later times"), tr("D, Right, drag to the left") },
        { tr("Scroll the lanes"), tr("Up, Down, Shift+wheel") },
        { tr("Fit the whole session"), tr("F") },
        { tr("Select a kernel (in every view)"), tr("Click") },
    };
}

std::optional<int> TimelineView::mouseAnchor() const
{
    const QPoint pos = viewport()->mapFromGlobal(QCursor::pos());
    if (!viewport()->rect().contains(pos) || pos.x() < m_labelWidth)
        return std::nullopt;
    return pos.x();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    const int step = timeAreaWidth() / 8;
    switch (event->key()) {
    case Qt::Key_A: // W/A/S/D as in Perfetto and chrome://tracing
    case Qt::Key_Left:
        panByPixels(step);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        panByPixels(-step);
        break;
    case Qt::Key_W:
        zoomBy(1.5, mouseAnchor());
        break;
    case Qt::Key_S:
        zoomBy(1 / 1.5, mouseAnchor());
        break;
    case Qt::Key_Up:
        verticalScrollBar()->setValue(verticalScrollBar()->value() - 2 * TimelineLayout::kDeviceRowHeight);
        break;
    case Qt::Key_Down:
        verticalScrollBar()->setValue(verticalScrollBar()->value() + 2 * TimelineLayout::kDeviceRowHeight);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.5);
        break;
    case Qt::Key_Minus:
        zoomBy(1 / 1.5);
        break;
    case Qt::Key_F:
        fit();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent* event)
{
    QAbstractScrollArea::leaveEvent(event);
    if (m_hovered) {
        m_hovered.reset();
        viewport()->update();
    }
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (showToolTip(event, viewport(), [this](QPoint pos) { return toolTipAt(pos); }))
        return true;
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace ridgeline::ui

#include "moc_timelineview.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
