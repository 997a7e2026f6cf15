// SPDX-License-Identifier: MIT
// One collective instance matched across ranks (core::CollectiveInstance), drawn over the
// timeline: each rank's op on its Collectives lane outlined, each rank's wait shaded from its own
// start to the latest start (TraceLens' wait), a line at the latest start across the ranks' lanes
// and a label with the rank that arrived last, the start skew and the end skew.
#pragma once

#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "timelinelayout.h"

#include <QCoreApplication>
#include <QRect>
#include <optional>
#include <vector>

class QPainter;
class QPalette;

namespace ridgeline::ui {

class InstanceOverlay {
    Q_DECLARE_TR_FUNCTIONS(InstanceOverlay)

public:
    struct Member {
        int rank = -1;
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        std::int64_t waitNs = 0;
        std::optional<core::TimelineGpuOpRef> op; // empty when the timeline does not hold it
    };

    // Finds each member's op; false (and empty) when the instance has no member on the timeline.
    bool set(const core::TimelineData& data, const core::CollectiveInstance& instance);
    void clear();
    bool empty() const { return m_members.empty(); }
    const std::vector<Member>& members() const { return m_members; }
    const core::CollectiveInstance& instance() const { return m_instance; }
    // Earliest start .. latest end of the members.
    core::TimeWindow span() const { return m_span; }
    std::int64_t latestStartNs() const { return m_latestStart; }
    // The first member's op found (for scrolling it into view).
    std::optional<core::TimelineGpuOpRef> firstOp() const;

    // `timeArea`: the widget area the window is drawn across; `contentTop`: the widget y of
    // content y 0 (the layout's coordinates).
    void paint(QPainter& p, const QRect& timeArea, int contentTop, core::TimeWindow window,
        const TimelineLayout& layout, const QPalette& palette) const;
    static QColor color(); // the outline of the instance's ops
    static QColor waitColor(); // the shaded waits

private:
    core::CollectiveInstance m_instance;
    std::vector<Member> m_members;
    core::TimeWindow m_span;
    std::int64_t m_latestStart = 0;
};

} // namespace ridgeline::ui
