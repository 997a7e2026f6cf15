// SPDX-License-Identifier: MIT
// The timeline: a custom QPainter widget over core's level-of-detail rows (timelinelod.h). Lanes per
// rank, device, stream, collectives, host thread and NVTX; kernels coloured by verdict; idle gaps
// hatched. Wheel zooms around the cursor, dragging pans, F fits, arrows and A/D pan, W/S and +/-
// zoom (keyBindings() lists them for the shortcuts dialog). Hovering
// shows the op under the cursor; clicking a kernel selects it in the shared SelectionModel, and a
// kernel selected elsewhere has all its launches outlined. A selected launch is linked by an arrow
// to the API call that launched it (launchflow.h), and the PyTorch operators it ran under are
// outlined on their thread's operator lane, with an arrow from the innermost one. A collective
// instance matched across ranks can be drawn over it with its skew marked (instanceoverlay.h).
#pragma once

#include "common/selectionmodel.h"
#include "instanceoverlay.h"
#include "launchflow.h"
#include "ridgeline/core/output/sessionoperators.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "timelinelayout.h"
#include "timelinepainter.h"

#include <QAbstractScrollArea>
#include <QList>
#include <QPair>
#include <QPoint>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace ridgeline::ui {

class TimelineView final : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(SelectionModel* selection, QWidget* parent = nullptr);

    // Null clears the view. The whole timeline is fitted into view.
    void setData(std::shared_ptr<const core::TimelineData> data);
    // The session file behind the data: a selected launch is linked to the API call that launched it.
    void setSessionPath(const QString& path) { m_flow.setSessionPath(path); }
    // The session's operators (null: none): a selected launch's operators are outlined.
    void setOperators(std::shared_ptr<const core::SessionOperators> operators);
    const core::TimelineData* data() const { return m_data.get(); }
    const TimelineLayout& layout() const { return m_layout; }

    core::TimeWindow visibleWindow() const { return m_window; }
    // Clamped to a sensible zoom range around the data.
    void setVisibleWindow(core::TimeWindow window);
    int labelWidth() const { return m_labelWidth; }
    int timeAreaWidth() const;
    void fit();
    // factor > 1 zooms in; around the viewport x `anchorX` (the middle of the time area when unset).
    void zoomBy(double factor, std::optional<int> anchorX = std::nullopt);
    void panByPixels(int dx);

    // What each key and mouse gesture does: (action, keys), for the Keyboard Shortcuts dialog.
    static QList<QPair<QString, QString>> keyBindings();

    // The op under a viewport point (within a few pixels), and its description.
    std::optional<core::TimelineGpuOpRef> opAt(QPoint viewportPos) const;
    QString toolTipAt(QPoint viewportPos) const;
    // Where an op is drawn (viewport coordinates), when it is in view.
    std::optional<QPoint> pointOf(core::TimelineGpuOpRef ref) const;

    const core::TimelineMarks& highlighted() const { return m_marks; }
    std::optional<core::TimelineGpuOpRef> selectedOp() const { return m_selectedOp; }
    // The API call that launched the selected launch, drawn with an arrow to it; empty when unknown.
    std::optional<core::TimelineGpuOpRef> launchingCallOp() const { return m_launchingCall; }
    // Draws `instance` across the ranks' Collectives lanes with its skew marked, and brings it into
    // view; an instance with no member on this timeline (or no members) clears it.
    void showCollectiveInstance(const core::CollectiveInstance& instance);
    const InstanceOverlay& collectiveInstance() const { return m_instance; }
    // The operators the selected launch ran under, innermost first, as drawn (those on the timeline).
    const std::vector<core::TimelineGpuOpRef>& launchingOperators() const { return m_launchingOperators; }
    // Level-of-detail items drawn by the last paint (for tests and the benchmark).
    int itemsPaintedLastFrame() const { return m_lastItems; }

Q_SIGNALS:
    void visibleWindowChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void followSelection(const KernelSelection& selection, const QObject* origin);
    void reveal(core::TimelineGpuOpRef ref);
    void updateScrollRange();
    void selectAt(QPoint viewportPos);
    std::optional<int> mouseAnchor() const; // the mouse's viewport x when it is over the time area
    void findLaunchingCall(); // of m_selectedOp, into m_launchingCall and m_launchingOperators

    SelectionModel* m_selection;
    std::shared_ptr<const core::TimelineData> m_data;
    TimelineLayout m_layout;
    TimelinePainter m_painter;
    core::TimeWindow m_window { 0, 1 };
    int m_labelWidth = 190;
    core::TimelineMarks m_marks;
    std::optional<core::TimelineGpuOpRef> m_selectedOp;
    LaunchFlow m_flow;
    InstanceOverlay m_instance;
    std::optional<core::TimelineGpuOpRef> m_launchingCall;
    std::shared_ptr<const core::SessionOperators> m_operators;
    std::vector<core::TimelineGpuOpRef> m_launchingOperators;
    std::optional<core::TimelineGpuOpRef> m_hovered;
    std::optional<QPoint> m_pressPos;
    core::TimeWindow m_pressWindow;
    int m_pressScroll = 0;
    bool m_dragging = false;
    int m_lastItems = 0;
};

} // namespace ridgeline::ui
