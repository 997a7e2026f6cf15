// SPDX-License-Identifier: MIT
#include "timelinepage.h"

#include "common/timeticks.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "stepselector.h"
#include "timelineview.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

namespace {

QString percentOf(std::int64_t part, std::int64_t whole)
{
    return whole > 0
        ? QString::number(100.0 * static_cast<double>(part) / static_cast<double>(whole), 'f', 1) + QStringLiteral(" %")
        : QStringLiteral("–");
}

QString timeAndShare(std::int64_t ns, std::int64_t span)
{
    return durationText(static_cast<double>(ns)) + QStringLiteral(" (") + percentOf(ns, span) + QLatin1Char(')');
}

} // namespace

TimelinePage::TimelinePage(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_view(new TimelineView(selection, this))
    , m_summary(new QTableWidget(this))
    , m_summaryWindow(new QLabel(this))
    , m_range(new QLabel(this))
    , m_steps(new StepSelector(this))
{
    auto* toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* fit = toolbar->addAction(tr("Fit"), m_view, &TimelineView::fit);
    fit->setToolTip(tr("Show the whole session (F)"));
    auto* zoomIn = toolbar->addAction(tr("Zoom in"), this, [this] { m_view->zoomBy(2); });
    zoomIn->setToolTip(tr("Zoom in around the middle (+; or the mouse wheel around the cursor)"));
    auto* zoomOut = toolbar->addAction(tr("Zoom out"), this, [this] { m_view->zoomBy(0.5); });
    zoomOut->setToolTip(tr("Zoom out (-)"));
    toolbar->addSeparator();
    m_steps->setObjectName(QStringLiteral("stepSelector"));
    toolbar->addWidget(m_steps);
    toolbar->addSeparator();
    toolbar->addWidget(m_range);

    const QStringList headers { tr("Rank"), tr("GPU"), tr("Span"), tr("Busy"), tr("Idle"), tr("Compute"),
        tr("Communication"), tr("Comm. overlapped by compute") };
    m_summary->setColumnCount(static_cast<int>(headers.size()));
    m_summary->setHorizontalHeaderLabels(headers);
    m_summary->verticalHeader()->hide();
    m_summary->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary->setSelectionMode(QAbstractItemView::NoSelection);
    m_summary->setFocusPolicy(Qt::NoFocus);
    m_summary->horizontalHeader()->setStretchLastSection(true);
    m_summary->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_summary->setToolTip(tr("Per rank and GPU, over the window named above it (the whole trace or a profiler "
                             "step; clipped to it): busy = some GPU op running; compute = "
                             "non-collective kernels running; overlap = share of communication time during which "
                             "compute runs too (Holistic Trace Analysis's definition)."));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_view, 1);
    m_summaryWindow->setObjectName(QStringLiteral("summaryWindow"));
    m_summaryWindow->setContentsMargins(6, 3, 6, 3);
    layout->addWidget(m_summaryWindow);
    layout->addWidget(m_summary);
    connect(m_view, &TimelineView::visibleWindowChanged, this, &TimelinePage::showRange);
    connect(m_steps, &StepSelector::stepChosen, this, &TimelinePage::chooseStep);
    connect(&m_stepWatcher, &QFutureWatcher<StepOutcome>::finished, this, &TimelinePage::stepSummaryDone);
    setDocument(nullptr);
}

TimelinePage::~TimelinePage()
{
    m_stepWatcher.disconnect(this);
    m_stepWatcher.waitForFinished();
}

void TimelinePage::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    ++m_generation;
    m_stepSummaries.clear();
    m_view->setSessionPath(m_doc ? m_doc->path : QString());
    m_view->setOperators(m_doc ? m_doc->operators : nullptr);
    m_view->setData(m_doc ? m_doc->timeline : nullptr);
    m_steps->setSteps(m_doc ? m_doc->steps : std::vector<core::ProfilerStep> {});
    chooseStep();
}

void TimelinePage::chooseStep()
{
    const auto step = m_steps->currentStep();
    m_summaryLoading = false;
    if (!step) {
        m_view->fit();
        m_summaryWindow->setText(tr("Whole trace"));
        fillSummary(m_doc ? &m_doc->report.timeline : nullptr);
        showRange();
        Q_EMIT summaryShown();
        return;
    }
    m_view->setVisibleWindow(step->window);
    m_summaryWindow->setText(StepSelector::windowText(*step));
    showRange();
    const auto cached = m_stepSummaries.find(step->number);
    if (cached != m_stepSummaries.end()) {
        fillSummary(&cached->second);
        Q_EMIT summaryShown();
        return;
    }
    m_summaryLoading = true;
    m_summaryWindow->setText(tr("%1 (working out its figures…)").arg(StepSelector::windowText(*step)));
    fillSummary(nullptr);
    if (!m_stepWatcher.isRunning())
        startStepSummary(step->number);
    // else stepSummaryDone starts this step when the one being worked out is done
}

void TimelinePage::startStepSummary(std::int64_t step)
{
    const std::string path = m_doc->path.toStdString();
    m_stepWatcher.setFuture(QtConcurrent::run([path, step, generation = m_generation] {
        StepOutcome outcome;
        outcome.generation = generation;
        outcome.step = step;
        auto reader = core::SessionReader::open(path);
        if (reader.hasError()) {
            outcome.error = QString::fromStdString(reader.error().message);
            return outcome;
        }
        core::TimelineSelection selection;
        selection.step = step; // as `ridgeline report --step N`
        auto rows = core::analyzeSessionTimeline(reader.value(), selection);
        if (rows.hasError())
            outcome.error = QString::fromStdString(rows.error().message);
        else
            outcome.rows = std::move(rows).value();
        return outcome;
    }));
}

void TimelinePage::stepSummaryDone()
{
    StepOutcome outcome = m_stepWatcher.result();
    const bool current = outcome.generation == m_generation; // else of another session: dropped
    if (current && outcome.error.isEmpty())
        m_stepSummaries[outcome.step] = std::move(outcome.rows);
    const auto step = m_steps->currentStep();
    if (!m_summaryLoading || !step)
        return; // the whole trace, or a step whose figures were kept, chosen meanwhile
    if (!current || outcome.step != step->number) { // another step (or session) chosen meanwhile
        if (m_stepSummaries.count(step->number) != 0)
            chooseStep();
        else
            startStepSummary(step->number);
        return;
    }
    m_summaryLoading = false;
    if (!outcome.error.isEmpty()) {
        m_summaryWindow->setText(
            tr("%1: its figures could not be worked out: %2").arg(StepSelector::windowText(*step), outcome.error));
        fillSummary(nullptr);
    } else {
        m_summaryWindow->setText(StepSelector::windowText(*step));
        fillSummary(&m_stepSummaries[step->number]);
    }
    Q_EMIT summaryShown();
}

void TimelinePage::showCollectiveInstance(const core::CollectiveInstance& instance)
{
    m_view->showCollectiveInstance(instance);
}

void TimelinePage::fillSummary(const Summaries* rows)
{
    m_summary->setRowCount(rows ? static_cast<int>(rows->size()) : 0);
    m_summary->setVisible(rows && !rows->empty());
    // The line naming the window stays while a step's figures are worked out (or could not be).
    m_summaryWindow->setVisible(m_doc && !m_doc->report.timeline.empty());
    if (!rows || !m_doc)
        return;
    for (int r = 0; r < static_cast<int>(rows->size()); ++r) {
        const auto& s = (*rows)[static_cast<std::size_t>(r)];
        QString gpu = tr("device %1").arg(s.deviceId);
        for (const auto& d : m_doc->report.devices) {
            if (d.id == s.deviceId)
                gpu = tr("GPU %1 · %2").arg(d.ordinal).arg(QString::fromStdString(d.name));
        }
        const QStringList cells { s.rank >= 0 ? QString::number(s.rank) : QStringLiteral("–"), gpu,
            durationText(static_cast<double>(s.spanNs)), timeAndShare(s.busyNs, s.spanNs),
            timeAndShare(s.idleNs, s.spanNs), timeAndShare(s.computeNs, s.spanNs),
            timeAndShare(s.communicationNs, s.spanNs),
            s.commCompOverlapPct ? QString::number(*s.commCompOverlapPct, 'f', 1) + QStringLiteral(" %")
                                 : QStringLiteral("–") };
        for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignVCenter | (c >= 2 ? Qt::AlignRight : Qt::AlignLeft));
            m_summary->setItem(r, c, item);
        }
    }
    m_summary->resizeColumnsToContents();
    const int rowsShown = std::min(static_cast<int>(rows->size()), 4);
    m_summary->setMaximumHeight(m_summary->horizontalHeader()->height()
        + rowsShown * m_summary->verticalHeader()->defaultSectionSize() + 2 * m_summary->frameWidth());
}

void TimelinePage::showRange()
{
    const auto* timeline = m_view->data();
    if (!timeline || timeline->rowCount() == 0) {
        m_range->clear();
        return;
    }
    const auto w = m_view->visibleWindow();
    const auto origin = timeline->extent().startNs;
    m_range->setText(tr("  %1 – %2 of %3")
                         .arg(durationText(static_cast<double>(w.startNs - origin)),
                             durationText(static_cast<double>(w.endNs - origin)),
                             durationText(static_cast<double>(timeline->extent().endNs - origin))));
}

} // namespace ridgeline::ui

#include "moc_timelinepage.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
