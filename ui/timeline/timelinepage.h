// SPDX-License-Identifier: MIT
// The timeline page: a small toolbar (fit, zoom, the range in view, the profiler step), the timeline
// view, and a summary strip with the timeline figures per rank and device (span, busy, idle, compute,
// communication and its overlap with compute) from the session's timeline analysis, over the whole
// trace or the chosen profiler step (worked out off the GUI thread the first time a step is chosen),
// under a line saying which window they cover.
#pragma once

#include "session/sessiondocument.h"

#include <QFutureWatcher>
#include <QWidget>
#include <map>
#include <vector>

class QLabel;
class QTableWidget;

namespace ridgeline::ui {

class SelectionModel;
class StepSelector;
class TimelineView;

class TimelinePage final : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePage(SelectionModel* selection, QWidget* parent = nullptr);
    ~TimelinePage() override;

    // Null clears the page.
    void setDocument(SessionDocumentPtr doc);
    TimelineView* view() const { return m_view; }
    QTableWidget* summary() const { return m_summary; }
    // Which window the summary strip covers: "Whole trace" or "Profiler step 6: 34.892 ms, GPU-side range".
    QLabel* summaryWindow() const { return m_summaryWindow; }
    // The profiler-step selector; choosing a step zooms to its window and shows its figures.
    StepSelector* stepSelector() const { return m_steps; }
    // Whether the figures of the chosen step are still being worked out; summaryShown() follows.
    bool summaryLoading() const { return m_summaryLoading; }
    // Draws a collective instance across the ranks' lanes with its skew marked (empty: clears it).
    void showCollectiveInstance(const core::CollectiveInstance& instance);
    // For the screenshot command and image export: the page as a whole.
    QWidget* exportWidget() { return this; }

Q_SIGNALS:
    // The summary strip shows the figures of the window chosen (whole trace or step).
    void summaryShown();

private:
    using Summaries = std::vector<core::TimelineSummary>;
    struct StepOutcome {
        int generation = 0; // of the document it was worked out for
        std::int64_t step = 0;
        Summaries rows;
        QString error;
    };
    void startStepSummary(std::int64_t step);
    void stepSummaryDone();
    void chooseStep();
    void fillSummary(const Summaries* rows);
    void showRange();

    SessionDocumentPtr m_doc;
    TimelineView* m_view;
    QTableWidget* m_summary;
    QLabel* m_summaryWindow;
    QLabel* m_range;
    StepSelector* m_steps;
    std::map<std::int64_t, Summaries> m_stepSummaries; // of the open session, by step, once worked out
    QFutureWatcher<StepOutcome> m_stepWatcher;
    int m_generation = 0; // counts setDocument calls: a step's figures of an older document are dropped
    bool m_summaryLoading = false;
};

} // namespace ridgeline::ui
