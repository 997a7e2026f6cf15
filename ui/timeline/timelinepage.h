// SPDX-License-Identifier: MIT
// The timeline page: a small toolbar (fit, zoom, the range in view), the timeline view, and a
// summary strip with the timeline figures per rank and device (span, busy, idle, compute,
// communication and its overlap with compute) from the session's timeline analysis.
#pragma once

#include "session/sessiondocument.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ridgeline::ui {

class SelectionModel;
class TimelineView;

class TimelinePage final : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePage(SelectionModel* selection, QWidget* parent = nullptr);

    // Null clears the page.
    void setDocument(SessionDocumentPtr doc);
    TimelineView* view() const { return m_view; }
    QTableWidget* summary() const { return m_summary; }
    // Draws a collective instance across the ranks' lanes with its skew marked (empty: clears it).
    void showCollectiveInstance(const core::CollectiveInstance& instance);
    // For the screenshot command and image export: the page as a whole.
    QWidget* exportWidget() { return this; }

private:
    void fillSummary();
    void showRange();

    SessionDocumentPtr m_doc;
    TimelineView* m_view;
    QTableWidget* m_summary;
    QLabel* m_range;
};

} // namespace ridgeline::ui
